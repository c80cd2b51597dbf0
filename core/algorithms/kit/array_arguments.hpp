#pragma once

// What the algorithms that write their kernels out in full (histogram, compaction, indexing)
// do with their Array arguments before a launch: check the device, make the elements
// contiguous, and pass the first element's offset. One home for them.

#include <plinth/array.hpp>
#include <plinth/queue.hpp>

#include <cstdint>
#include <optional>
#include <vector>

namespace plinth::detail {

/// Throws LogicError ("<function>: argument '<name>' is on another device than the queue's")
/// unless `a` is on `queue`'s device.
void check_argument_device(const char* function, const char* name, const Queue& queue,
                           const Array& a);

/// Whether `a`'s elements are C-contiguous at a whole-element offset of its base buffer
/// (contiguous_array(queue, a) is then `a` itself).
bool is_contiguous_in_place(const Array& a);

/// `a` as contiguous elements at a whole-element offset of its base buffer: itself, or a
/// copy made on `queue`.
Array contiguous_array(const Queue& queue, const Array& a);

/// A contiguous C-order 1-D view of a contiguous array's elements.
Array flat_view(const Array& a);

/// `a`'s first element's offset in its base buffer, in elements (a whole number for the
/// arrays above).
std::int64_t element_offset(const Array& a);

/// `a`'s strides in elements, or nothing if one of them is not a whole number of elements.
std::optional<std::vector<std::int64_t>> strides_in_elements(const Array& a);

}  // namespace plinth::detail
