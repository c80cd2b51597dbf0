#pragma once

// The limit both sides of IPC hold vendor handles to: ipc.cpp when a backend exports one,
// ipc_handles.cpp when a handle's bytes are read back.

#include <cstddef>

namespace plinth::detail {

/// The most bytes a vendor's IPC handle may have (CUDA's and HIP's have 64, Level Zero's 64).
inline constexpr std::size_t max_ipc_vendor_bytes = 4096;

}  // namespace plinth::detail
