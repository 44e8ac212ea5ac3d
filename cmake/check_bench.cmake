# Runs `pbrain-moku bench` and checks that its node count equals the one recorded in
# bench/bench.nodes. Invoked by ctest: cmake -DENGINE=... -DEXPECTED_FILE=... -P check_bench.cmake
execute_process(COMMAND ${ENGINE} bench OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "pbrain-moku bench exited with ${rc}\n${out}${err}")
endif()
# stderr is no terminal here: no progress line, nothing at all.
if(NOT err STREQUAL "")
    message(FATAL_ERROR "pbrain-moku bench wrote to stderr, which is not a terminal:\n${err}")
endif()
string(REGEX MATCH "bench: nodes=([0-9]+) nps=([0-9]+) time_ms=([0-9]+)\n?$" last "${out}")
if(NOT last)
    message(FATAL_ERROR "the last line of pbrain-moku bench is not 'bench: nodes=N nps=X time_ms=T'\n${out}")
endif()
set(nodes ${CMAKE_MATCH_1})
file(READ ${EXPECTED_FILE} expected)
string(STRIP "${expected}" expected)
if(NOT nodes STREQUAL expected)
    message(FATAL_ERROR "bench node count ${nodes} differs from the recorded ${expected} "
                        "(update bench/bench.nodes and end the commit message with 'Bench: ${nodes}')")
endif()
message(STATUS "bench signature ${nodes} matches")
