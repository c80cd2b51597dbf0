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
# pkg-config, for the installed package: examples/multiply compiled with the flags plinth.pc
# gives alone (no CMake), run on the package's plugins.
if(NOT PACKAGE STREQUAL "build-tree")
  find_program(PKG_CONFIG pkg-config)
  if(NOT PKG_CONFIG)
    message(FATAL_ERROR "pkg-config is not installed (.ci/install-dependencies installs it)")
  endif()
  file(GLOB_RECURSE pc_file ${WORK_DIR}/prefix/*/plinth.pc)
  if(NOT pc_file)
    message(FATAL_ERROR "the install has no plinth.pc")
  endif()
  get_filename_component(pc_dir ${pc_file} DIRECTORY)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env PKG_CONFIG_PATH=${pc_dir}
                    ${PKG_CONFIG} --cflags --libs plinth
                  RESULT_VARIABLE result OUTPUT_VARIABLE flags ERROR_VARIABLE err
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT result EQUAL 0 OR NOT flags MATCHES "-std=c\\+\\+20" OR NOT flags MATCHES "-lplinth")
    message(FATAL_ERROR "pkg-config --cflags --libs plinth (${result}): ${flags}\n${err}")
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} -E env PKG_CONFIG_PATH=${pc_dir}
                    ${PKG_CONFIG} --variable=libdir plinth
                  OUTPUT_VARIABLE libdir OUTPUT_STRIP_TRAILING_WHITESPACE)
  separate_arguments(flags UNIX_COMMAND "${flags}")
  run(${CXX} ${SOURCE_DIR}/examples/multiply/multiply.cpp ${flags} -Wl,-rpath,${libdir}
      -o ${WORK_DIR}/multiply-pkg-config)
  run(${CMAKE_COMMAND} -E env --unset=PLINTH_PLUGIN_PATH ${WORK_DIR}/multiply-pkg-config)
  message("pkg-config: ${flags}")
endif()
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
