# cmake -DBUILD_DIR= -DSOURCE_DIR= -DWORK_DIR= -DGENERATOR= -P install_test.cmake
file(REMOVE_RECURSE ${WORK_DIR})
function(run)
  execute_process(COMMAND ${ARGV} RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "failed (${result}): ${ARGV}\n${out}\n${err}")
  endif()
  message("${out}")
endfunction()
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix)
run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/examples/multiply -B ${WORK_DIR}/app -G ${GENERATOR}
    -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix)
run(${CMAKE_COMMAND} --build ${WORK_DIR}/app)
# Only the installed tree: the build tree's plugins must not be what makes it work.
run(${CMAKE_COMMAND} -E env --unset=PLINTH_PLUGIN_PATH ${WORK_DIR}/app/multiply)
# A third-party backend built against the installed SDK alone, found through PLINTH_PLUGIN_PATH.
run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/plugins/example-backend -B ${WORK_DIR}/example -G ${GENERATOR}
    -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix)
run(${CMAKE_COMMAND} --build ${WORK_DIR}/example)
execute_process(COMMAND ${CMAKE_COMMAND} -E env PLINTH_PLUGIN_PATH=${WORK_DIR}/example
                  ${WORK_DIR}/prefix/bin/plinth-info --api example --include-pure-parallel-devices
                RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT result EQUAL 0 OR NOT out MATCHES "ready +example" OR NOT out MATCHES "Example host-memory device")
  message(FATAL_ERROR "the example backend is not ready (${result}):\n${out}\n${err}")
endif()
message("example backend: ready")
