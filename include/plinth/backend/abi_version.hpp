#pragma once

/// The plugin SDK's ABI version. A plugin must have the core's major version; a plugin of
/// another minor version is accepted and only the older minor's interface is used. Apart from
/// <plinth/version.hpp> (the library's version, which every user of <plinth/plinth.hpp>
/// includes), so that a new SDK minor recompiles only what uses the SDK.
#define PLINTH_ABI_MAJOR 1
#define PLINTH_ABI_MINOR 9
