# moku_features on short self-play runs (freestyle and renju): the tool checks every position's
# feature counts against the evaluator itself and fails on the first difference.
#   cmake -DENGINE=pbrain-moku -DTOOL=moku_features -DWORK=dir -P check_features.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
foreach(rule freestyle renju)
    execute_process(COMMAND ${ENGINE} selfplay --rule ${rule} --games 3 --nodes 400 --seed 5
                            --output ${WORK}/${rule}.mksp.lz4
                    RESULT_VARIABLE rc ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "selfplay --rule ${rule} failed (${rc}): ${err}")
    endif()
endforeach()
execute_process(COMMAND ${TOOL} ${WORK}/features.npy ${WORK}/freestyle.mksp.lz4
                        ${WORK}/renju.mksp.lz4
                RESULT_VARIABLE rc ERROR_VARIABLE err)
message(STATUS "${err}")
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "moku_features failed (${rc})")
endif()
string(REGEX MATCH "([0-9]+) positions" m "${err}")
if(NOT m OR CMAKE_MATCH_1 LESS 20)
    message(FATAL_ERROR "moku_features checked too few positions: ${err}")
endif()
