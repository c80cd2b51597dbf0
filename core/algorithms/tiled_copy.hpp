#pragma once

// Copies (and conversions: astype of a view) between arrays whose fastest-moving dimensions
// differ (a contiguous copy of a transposed view, a copy into one), through a local-memory
// tile so that both the reads and the writes are coalesced. The choice and the source are
// tiled_copy_codegen.hpp's; this builds the programs (kept in the Context's KernelStore,
// one per device and recipe) and launches them.

#include <plinth/array.hpp>
#include <plinth/queue.hpp>

namespace plinth::detail {

/// Copies `src` into `dest` on `queue` through the tiled kernel when plan_tiled_copy() tiles
/// their layouts and the device has the local memory for a tile, and returns true; returns
/// false, enqueuing nothing, otherwise (the caller then copies elementwise). The arrays have
/// the same shape, are on the queue's device, and do not share memory (the caller checks all
/// three). Arrays of different dtypes are converted on the way as astype() converts (both
/// dtypes arithmetic, the conversion allowed: the caller checks); a conversion computing in
/// double precision on a device without it returns false. Throws CompileError if the kernel
/// does not build, and what a launch throws.
bool tiled_copy(const Queue& queue, const Array& dest, const Array& src);

}  // namespace plinth::detail
