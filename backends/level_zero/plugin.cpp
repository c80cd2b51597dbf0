// The plugin's one export: its factory, under a name carrying shortcut and ABI version.

#include "api.hpp"

#include <plinth/backend/plugin.hpp>

PLINTH_BACKEND_PLUGIN(level_zero, plinth::level_zero::create_api)
