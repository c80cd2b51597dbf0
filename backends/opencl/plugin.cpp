// The plugin's only export: the factory, under a name that carries the plugin's metadata.

#include "api.hpp"

#include <plinth/backend/plugin.hpp>

PLINTH_BACKEND_PLUGIN(opencl, plinth::opencl::create_api)
