# CPack pre-build script (CPACK_PRE_BUILD_SCRIPTS, cmake/PlinthPackaging.cmake): run on the staged
# files before they are packed. The CUDA plugin's RUNPATH names the CUDA toolkit's library
# directory of the build machine, so that a source install finds NVRTC; a package relies on
# the toolkit's own ld.so.conf entry instead, and keeps only $ORIGIN/.. (libplinth).
file(GLOB_RECURSE _plinth_cuda_plugins ${CPACK_TEMPORARY_DIRECTORY}/*/libplinth-backend-cuda.so)
foreach(plugin IN LISTS _plinth_cuda_plugins)
  file(RPATH_SET FILE ${plugin} NEW_RPATH "$ORIGIN/..")
endforeach()
