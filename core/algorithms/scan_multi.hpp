#pragma once

// What ScanKernel's MultiQueue call (scan_multi.cpp) needs of a kernel's internals
// (scan.cpp): a part's call checked apart from its launch, the exclusive scan of a few
// totals, and the kernels carrying a total into a part.

#include <plinth/array.hpp>
#include <plinth/elementwise.hpp>
#include <plinth/queue.hpp>
#include <plinth/scan.hpp>

namespace plinth::detail {

struct ScanData;

/// Checks a call on `queue` as ScanKernel::operator() does, and builds its program where
/// there is work. Throws what that throws before it enqueues.
void check_scan(ScanData& data, const Queue& queue, const Array& input, const Array& output);

/// ScanKernel::operator() on `queue`.
void run_scan(ScanData& data, const Queue& queue, const Array& input, const Array& output);

/// Replaces `values` (a new contiguous array of the scan's dtype, a few thousand elements at
/// most) by their exclusive scan under the kernel's operator, on `queue`. Throws as the
/// program's build.
void scan_exclusive_in_place(ScanData& data, const Queue& queue, const Array& values);

/// The kernel `out[i] = op(carry[i], out[i])` (carry broadcast) of the scan's dtype and
/// operator. Made once per kernel. Throws nothing but std::bad_alloc.
ElementwiseKernel scan_carry_kernel(ScanData& data);

/// The kernel `dst[i] = src[i]` from the input dtype to the scan's. Made once per kernel.
ElementwiseKernel scan_convert_kernel(ScanData& data);

/// cumsum's kernel for arrays of `dtype`, from the recipe cache. Throws LogicError as
/// cumsum_dtype.
ScanKernel cumsum_kernel(const DType& dtype);

/// cumprod's kernel for arrays of `dtype`, from the recipe cache. Throws LogicError as
/// cumsum_dtype.
ScanKernel cumprod_kernel(const DType& dtype);

}  // namespace plinth::detail
