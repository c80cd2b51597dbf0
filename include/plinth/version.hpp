#pragma once

/// plinth's release version (the CMake project version is read from here).
#define PLINTH_VERSION_MAJOR 0
#define PLINTH_VERSION_MINOR 1
#define PLINTH_VERSION_PATCH 0

// The plugin SDK's ABI version is in <plinth/backend/abi_version.hpp>.
