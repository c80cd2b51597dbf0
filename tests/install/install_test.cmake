# cmake -DBUILD_DIR= -DSOURCE_DIR= -DWORK_DIR= -DGENERATOR= [-DPACKAGE=build-tree] -P install_test.cmake
# PACKAGE unset: the installed package (cmake --install into WORK_DIR/prefix, found through
# CMAKE_PREFIX_PATH). PACKAGE=build-tree: the build tree's own package (export(), found through
# -DPlinth_DIR=BUILD_DIR), which consumers use without installing.
file(REMOVE_RECURSE ${WORK_DIR})
function(run)
  execute_process(COMMAND ${ARGV} RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "failed (${result}): ${ARGV}\n${out}\n${err}")
  endif()
  message("${out}")
endfunction()
if(PACKAGE STREQUAL "build-tree")
  set(find_plinth -DPlinth_DIR=${BUILD_DIR})
  set(plinth_info ${BUILD_DIR}/bin/plinth-info)
else()
  run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix)
  set(find_plinth -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix)
  set(plinth_info ${WORK_DIR}/prefix/bin/plinth-info)
endif()
run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/examples/multiply -B ${WORK_DIR}/app -G ${GENERATOR}
    ${find_plinth})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/app)
# Only the package's tree: the plugins must be found without PLINTH_PLUGIN_PATH.
run(${CMAKE_COMMAND} -E env --unset=PLINTH_PLUGIN_PATH ${WORK_DIR}/app/multiply)
# A third-party backend built against the package's SDK alone (plinth_add_backend()), found
# through PLINTH_PLUGIN_PATH.
run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/plugins/example-backend -B ${WORK_DIR}/example -G ${GENERATOR}
    ${find_plinth})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/example)
execute_process(COMMAND ${CMAKE_COMMAND} -E env PLINTH_PLUGIN_PATH=${WORK_DIR}/example
                  ${plinth_info} --api example --include-pure-parallel-devices
                RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT result EQUAL 0 OR NOT out MATCHES "ready +example" OR NOT out MATCHES "Example host-memory device")
  message(FATAL_ERROR "the example backend is not ready (${result}):\n${out}\n${err}")
endif()
message("example backend: ready")
