# Debian packages (CPack's DEB generator): `cpack -G DEB` in the build directory, or
# `cmake --build <build> --target package`. One package per install component:
#
#   libplinth<MAJOR>       runtime      libplinth.so.<MAJOR> (the core)
#   libplinth-dev          development  headers (the SDK's too), libplinth.so, the CMake package,
#                                       plinth.pc, plinth-conformance (for plugin authors)
#   plinth-backend-<api>   backend-<api> the plugin, in <libdir>/plinth/
#   plinth-tools           tools        plinth-info, plinth-compile
#
# Versions come from include/plinth/version.hpp (the project version); the library's SONAME is
# libplinth.so.<MAJOR> and the runtime package is named after it (CONTRIBUTING.md, "Versions
# and the ABI"). Dependencies on other packages come from dpkg-shlibdeps; the packages of this
# build depend on each other at exactly this version. The packages install under /usr
# (CPACK_PACKAGING_INSTALL_PREFIX), whatever CMAKE_INSTALL_PREFIX the build was configured with.
# .ci/check-debian-packages builds, lints, installs, uses and removes them.

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME plinth)
set(CPACK_PACKAGE_VENDOR "the plinth developers")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "plinth maintainers <maintainers@users.noreply.a-seed-d5d54c4b.example>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "GPU code written once for CUDA, HIP, OpenCL and Level Zero")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_PACKAGE_DIRECTORY ${PROJECT_BINARY_DIR}/packages)
set(CPACK_STRIP_FILES ON)
set(CPACK_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS
  OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)

set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# dpkg-shlibdeps finds libplinth.so.<MAJOR> in the build tree; the dependency on the package
# that holds it is written out below (it is not installed while the packages are made).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${PROJECT_BINARY_DIR}/lib)
set(_plinth_exact "(= ${PROJECT_VERSION})")
set(_plinth_runtime_package libplinth${PROJECT_VERSION_MAJOR})

# Each package's /usr/share/doc/<package>/: copyright, and changelog.gz (Debian Policy 12.5,
# 12.7) in Debian's format, which points to the project's CHANGELOG.md (in libplinth-dev). Its
# date is SOURCE_DATE_EPOCH's where that is set (reproducible builds).
set(_plinth_doc_dir ${PROJECT_BINARY_DIR}/packaging-doc)
string(TIMESTAMP _plinth_changelog_date "%a, %d %b %Y %H:%M:%S +0000" UTC)
file(WRITE ${_plinth_doc_dir}/changelog "plinth (${PROJECT_VERSION}) unstable; urgency=medium

  * plinth ${PROJECT_VERSION}, packaged from its source tree with CPack. What
    changed, by plugin SDK version:
    /usr/share/doc/libplinth-dev/CHANGELOG.md.gz.

 -- ${CPACK_PACKAGE_CONTACT}  ${_plinth_changelog_date}
")
foreach(file changelog CHANGELOG.md)
  if(file STREQUAL "changelog")
    set(source ${_plinth_doc_dir}/changelog)
  else()
    set(source ${PROJECT_SOURCE_DIR}/CHANGELOG.md)
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${source})
  endif()
  execute_process(COMMAND gzip -9n -c ${source} OUTPUT_FILE ${_plinth_doc_dir}/${file}.gz
    RESULT_VARIABLE _plinth_gzip)
  if(NOT _plinth_gzip EQUAL 0)
    message(FATAL_ERROR "gzip of ${source} failed (${_plinth_gzip})")
  endif()
endforeach()
install(FILES ${_plinth_doc_dir}/CHANGELOG.md.gz
  DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/libplinth-dev COMPONENT development)

# plinth_package(<component> <package> <section> <summary> <description> [<depends>])
#   One Debian package of install component <component>. <depends> is added to what
#   dpkg-shlibdeps finds.
function(plinth_package component package section summary description)
  string(TOUPPER ${component} upper)  # CPack's spelling: upper case, dashes kept
  set(CPACK_DEBIAN_${upper}_PACKAGE_NAME ${package} PARENT_SCOPE)
  set(CPACK_DEBIAN_${upper}_PACKAGE_SECTION ${section} PARENT_SCOPE)
  # The first line is the synopsis, the rest (indented by CPack) the extended description.
  set(CPACK_DEBIAN_${upper}_DESCRIPTION "${summary}\n${description}" PARENT_SCOPE)
  if(ARGC GREATER 5)
    set(CPACK_DEBIAN_${upper}_PACKAGE_DEPENDS "${ARGV5}" PARENT_SCOPE)
  endif()
  install(FILES ${PROJECT_SOURCE_DIR}/packaging/debian-copyright
    DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/${package} RENAME copyright COMPONENT ${component})
  install(FILES ${_plinth_doc_dir}/changelog.gz
    DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/${package} COMPONENT ${component})
endfunction()

set(_plinth_about "plinth lets GPU code be written once and run on NVIDIA, AMD, Intel
and CPU devices: a small core, and one plugin per vendor API, found at run
time.")
plinth_package(runtime ${_plinth_runtime_package} libs
  "plinth GPU framework: the core library"
  "${_plinth_about}\nThis package holds libplinth, the core. Install the plinth-backend-*
packages of the vendor APIs your devices use.")
plinth_package(development libplinth-dev libdevel
  "plinth GPU framework: headers and development files"
  "${_plinth_about}\nThis package holds the headers (the plugin SDK's included), the
CMake package (find_package(Plinth)), plinth.pc for pkg-config, and
plinth-conformance, the test suite a new backend plugin runs against its
devices."
  "${_plinth_runtime_package} ${_plinth_exact}")
plinth_package(tools plinth-tools utils
  "plinth GPU framework: command-line tools"
  "${_plinth_about}\nThis package holds plinth-info (the APIs, platforms and devices
plinth finds) and plinth-compile (programs compiled ahead of time for
named targets)."
  "${_plinth_runtime_package} ${_plinth_exact}")
# The vendor backends that this build made (backends/CMakeLists.txt).
set(_plinth_backend_about_opencl "The OpenCL backend: any OpenCL 1.2+ platform found through the
ICD loader (PoCL on the CPU, NVIDIA's, AMD's, Intel's).")
set(_plinth_backend_about_cuda "The CUDA backend: NVIDIA GPUs through the driver (libcuda.so.1,
opened at run time) and NVRTC. NVRTC (libnvrtc.so) comes from NVIDIA's
CUDA toolkit, which no package of Debian's main archive provides: this
package does not depend on it, and the plugin is not loaded where the
toolkit's libraries are not on the loader's path (ld.so.conf).")
set(_plinth_backend_about_hip "The HIP backend: AMD GPUs through the HIP runtime and hiprtc.")
set(_plinth_backend_about_level_zero "The Level Zero backend: Intel GPUs through the oneAPI Level
Zero loader; kernels become SPIR-V through clang and llvm-spirv at run
time.")
foreach(shortcut opencl cuda hip level_zero)
  if(TARGET plinth-backend-${shortcut})
    string(REPLACE "_" "-" name ${shortcut})
    plinth_package(backend-${name} plinth-backend-${name} libs
      "plinth GPU framework: ${name} backend plugin"
      "${_plinth_backend_about_${shortcut}}\n${_plinth_about}"
      "${_plinth_runtime_package} ${_plinth_exact}")
  endif()
endforeach()
# The CUDA plugin's NVRTC: dpkg-shlibdeps finds it in the toolkit and, no package holding it
# (CPack runs it with --ignore-missing-info), writes no dependency for it; libc's and
# libstdc++'s it still writes.
get_property(_plinth_cuda_library_dir GLOBAL PROPERTY PLINTH_CUDA_LIBRARY_DIR)
if(TARGET plinth-backend-cuda AND _plinth_cuda_library_dir)
  list(APPEND CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${_plinth_cuda_library_dir})
endif()

# The runtime package's shlibs file, which tells dpkg-shlibdeps of other packages which
# package holds libplinth.so.<MAJOR>, and its ldconfig trigger (Debian Policy 8.1.1). (CPack
# also gives every package with a library under /usr/lib a postinst and postrm that run
# ldconfig, and warns of the plugins, which have no SONAME: they are not for the linker.)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")
file(WRITE ${_plinth_doc_dir}/triggers "activate-noawait ldconfig\n")
set(CPACK_DEBIAN_RUNTIME_PACKAGE_CONTROL_EXTRA ${_plinth_doc_dir}/triggers)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_CONTROL_STRICT_PERMISSION ON)
# Installed libraries have no RUNPATH into a build machine's directories (Debian Policy 10.2):
# the CUDA plugin's into the toolkit goes (cmake/PlinthPackagingRunpath.cmake).
set(CPACK_PRE_BUILD_SCRIPTS ${PROJECT_SOURCE_DIR}/cmake/PlinthPackagingRunpath.cmake)

get_cmake_property(CPACK_COMPONENTS_ALL COMPONENTS)
list(REMOVE_ITEM CPACK_COMPONENTS_ALL Unspecified)
include(CPack)
