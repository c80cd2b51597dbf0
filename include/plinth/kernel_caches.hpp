#pragma once

/// \file
/// What plinth keeps of the kernels it generates, and how to let it go.
///
/// plinth's generated kernels (ElementwiseKernel, ReductionKernel, ScanKernel, and the array
/// functions built on them: expressions, sum, copy, cumsum, random numbers) are kept in two
/// places:
/// - **recipes** (what to generate, no device) in one bounded process-wide cache, so that a
///   function called again with the same dtypes does not make its kernel again;
/// - **compiled programs** in a store owned by each Context, one per kernel, device and layout
///   signature, bounded too. They go with the Context: when the last handle to a Context (and
///   to its queues, arrays and buffers) goes, so do its programs and the device memory they
///   hold.
///
/// Neither keeps a Context alive. PyCUDA's counterpart is `clear_context_caches()`.

#include <plinth/export.hpp>

namespace plinth {

/// Drops every cached recipe and every Context's compiled generated programs (launches in
/// flight and the kernel objects users hold stay valid; the next call builds again, from the
/// program cache where PLINTH_CACHE_DIR allows). Any thread may call it. Throws nothing.
PLINTH_EXPORT void clear_kernel_caches() noexcept;

}  // namespace plinth
