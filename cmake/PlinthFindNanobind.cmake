# plinth_find_nanobind([REQUIRED]): finds a Python interpreter that has nanobind, and nanobind's
# CMake package through it. Sets PLINTH_NANOBIND_FOUND and Python_EXECUTABLE. A macro, not a
# function: find_package(Python) and find_package(nanobind) set variables that
# nanobind_add_module() reads in the caller's scope.
#
# The interpreter is, in this order: Python_EXECUTABLE if set; the virtual environment that
# .ci/install-dependencies makes (~/.cache/plinth/python, with numpy, pytest, nanobind and
# scikit-build-core from PyPI); the active virtual environment; python3 on PATH.
macro(plinth_find_nanobind)
  cmake_parse_arguments(_PFN "REQUIRED" "" "" ${ARGN})
  set(PLINTH_NANOBIND_FOUND OFF)
  set(_pfn_problem "")
  if(NOT Python_EXECUTABLE)
    set(_pfn_candidates)
    if(DEFINED ENV{HOME})
      list(APPEND _pfn_candidates "$ENV{HOME}/.cache/plinth/python/bin/python3")
    endif()
    if(DEFINED ENV{VIRTUAL_ENV})
      list(APPEND _pfn_candidates "$ENV{VIRTUAL_ENV}/bin/python3")
    endif()
    find_program(_pfn_path_python python3)
    if(_pfn_path_python)
      list(APPEND _pfn_candidates ${_pfn_path_python})
    endif()
    foreach(_pfn_candidate ${_pfn_candidates})
      if(NOT Python_EXECUTABLE AND EXISTS ${_pfn_candidate})
        execute_process(COMMAND ${_pfn_candidate} -c "import nanobind"
          RESULT_VARIABLE _pfn_status OUTPUT_QUIET ERROR_QUIET)
        if(_pfn_status EQUAL 0)
          set(Python_EXECUTABLE ${_pfn_candidate} CACHE FILEPATH
            "The Python the bindings are built for")
        endif()
      endif()
    endforeach()
  endif()
  if(NOT Python_EXECUTABLE)
    set(_pfn_problem "no Python with nanobind found (.ci/install-dependencies makes one in "
      "~/.cache/plinth/python; or set Python_EXECUTABLE to a python3 that has nanobind)")
  else()
    find_package(Python 3.9 COMPONENTS Interpreter Development.Module QUIET)
    if(NOT Python_FOUND)
      set(_pfn_problem "${Python_EXECUTABLE} has no development headers")
    else()
      execute_process(COMMAND ${Python_EXECUTABLE} -m nanobind --cmake_dir
        OUTPUT_VARIABLE _pfn_nanobind_dir OUTPUT_STRIP_TRAILING_WHITESPACE
        RESULT_VARIABLE _pfn_status)
      if(_pfn_status EQUAL 0)
        find_package(nanobind CONFIG QUIET PATHS ${_pfn_nanobind_dir} NO_DEFAULT_PATH)
      endif()
      if(nanobind_FOUND)
        set(PLINTH_NANOBIND_FOUND ON)
        message(STATUS "Python bindings: nanobind ${nanobind_VERSION} for ${Python_EXECUTABLE}")
      else()
        set(_pfn_problem "nanobind's CMake package not found through ${Python_EXECUTABLE}")
      endif()
    endif()
  endif()
  if(_pfn_problem)
    if(_PFN_REQUIRED)
      message(FATAL_ERROR "Python bindings: ${_pfn_problem}")
    endif()
    message(STATUS "Python bindings: not built: ${_pfn_problem}")
  endif()
endmacro()
