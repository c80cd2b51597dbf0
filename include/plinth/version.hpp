#pragma once

/// plinth's release version (the CMake project version is read from here).
#define PLINTH_VERSION_MAJOR 0
#define PLINTH_VERSION_MINOR 1
#define PLINTH_VERSION_PATCH 0

/// The plugin SDK's ABI version. A plugin must have the core's major version; a plugin
/// of another minor version is accepted and only the older minor's interface is used.
#define PLINTH_ABI_MAJOR 1
#define PLINTH_ABI_MINOR 9
