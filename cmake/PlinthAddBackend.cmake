# plinth_add_backend(<shortcut> SOURCES <files...> [LIBRARIES <libs...>])
#
# Builds libplinth-backend-<shortcut>.so, a MODULE library linked against the SDK (plinth::sdk:
# the core, for the error types and the SDK's out-of-line pieces, C++20 and Boost's headers)
# and the given vendor libraries.
# Inside the plinth tree it lands in the build tree's plugin directory and is installed
# to <libdir>/plinth; outside it (a third-party plugin) it is a plain module.
function(plinth_add_backend shortcut)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBRARIES" ${ARGN})
  set(target plinth-backend-${shortcut})
  add_library(${target} MODULE ${ARG_SOURCES})
  set_target_properties(${target} PROPERTIES PREFIX "lib" OUTPUT_NAME plinth-backend-${shortcut})
  if(TARGET plinth)
    target_link_libraries(${target} PRIVATE plinth_sdk plinth_warnings ${ARG_LIBRARIES})
    set_target_properties(${target} PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${PLINTH_PLUGIN_OUTPUT_DIRECTORY}
      INSTALL_RPATH "$ORIGIN/..")
    # Its own install component: one Debian package per backend (PlinthPackaging.cmake).
    string(REPLACE "_" "-" component backend-${shortcut})
    install(TARGETS ${target} LIBRARY DESTINATION ${PLINTH_INSTALL_PLUGINDIR} COMPONENT ${component})
  else()
    target_link_libraries(${target} PRIVATE plinth::sdk ${ARG_LIBRARIES})
  endif()
endfunction()
