# moku_features on short self-play runs (freestyle and renju), and moku_pcode_features on each
# (renju has a table per colour): each tool checks every position's counts against the
# evaluator itself and fails on the first difference.
#   cmake -DENGINE=pbrain-moku -DTOOL=moku_features -DPCODE_TOOL=moku_pcode_features -DWORK=dir
#         -P check_features.cmake
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
# run_tool(NAME COMMAND...): runs a feature tool, which must succeed and count at least 20
# positions.
function(run_tool name)
    execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc ERROR_VARIABLE err)
    message(STATUS "${err}")
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "${name} failed (${rc})")
    endif()
    string(REGEX MATCH "([0-9]+) positions" m "${err}")
    if(NOT m OR CMAKE_MATCH_1 LESS 20)
        message(FATAL_ERROR "${name} checked too few positions: ${err}")
    endif()
endfunction()
run_tool(moku_features ${TOOL} ${WORK}/features.npy ${WORK}/freestyle.mksp.lz4
         ${WORK}/renju.mksp.lz4)
run_tool(moku_pcode_features ${PCODE_TOOL} ${WORK}/pcode ${WORK}/freestyle.mksp.lz4)
run_tool(moku_pcode_features ${PCODE_TOOL} ${WORK}/pcode_renju ${WORK}/renju.mksp.lz4)
