#pragma once

// The AMD GPU targets this installation compiles for, as its code object manager (comgr) lists
// them, and the checking of a target ID ("gfx90a", "gfx90a:sramecc+:xnack-") against that list.
// hiprtc corrupts the heap when handed a processor or a feature that comgr does not know (Debian's
// HIP 5.2 and gfx942, or "gfx1030:xnack+"), so no target reaches hiprtc unchecked.
// No HIP runtime call: any thread may call these, concurrently.

#include <plinth/backend/types.hpp>
#include <plinth/device_features.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace plinth::hip {

/// One processor comgr compiles for: its name ("gfx90a") and the target features it takes
/// ("sramecc", "xnack"), from comgr's metadata for it.
struct Isa {
  std::string name;
  std::vector<std::string> features;
};

/// comgr's processors in its order (gfx600 ... gfx1036 with HIP 5.2), read once per process.
/// Throws BackendError when comgr fails.
const std::vector<Isa>& isas();

/// "comgr 2.4": the code object manager's interface version, for messages.
std::string comgr_version();

/// The processor of a target ID: "gfx90a" for "gfx90a:sramecc+:xnack-".
std::string_view processor_of(std::string_view target);

/// Why `target` cannot be compiled for by this installation, or nullopt when it can: a
/// processor that comgr lists, then at most one ":<feature>+" or ":<feature>-" for each
/// feature that processor takes, and comgr accepts the whole ID. The text names the target
/// and lists what this installation supports, with comgr's version.
std::optional<std::string> target_problem(std::string_view target);

/// The wavefront size HIP compiles for by default: 64 up to gfx9 (GCN, CDNA), 32 from gfx10
/// (RDNA's wave32).
std::size_t default_wavefront_size(std::string_view processor);

/// One line about a processor: "AMD GPU code object for gfx90a (CDNA 2; wavefront 64)".
std::string target_description(std::string_view processor);

/// Nominal parameters of a device of `processor`, for rendering templates without a device.
DeviceParameters target_parameters(std::string_view processor);

/// What a device of `processor` supports: features_for_wavefront() (device_parameters.hpp)
/// of default_wavefront_size(), the wavefront hiprtc compiles for by default.
DeviceFeatures target_features(std::string_view processor);

/// compile_targets(): one entry per processor comgr lists, extension "hsaco".
std::vector<backend::CompileTarget> compile_targets();

}  // namespace plinth::hip
