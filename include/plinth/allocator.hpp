#pragma once

#include <plinth/buffer.hpp>
#include <plinth/context.hpp>

#include <cstddef>
#include <functional>

namespace plinth {

/// Where Array::empty and MultiArray::empty get their memory: called with the device and
/// the number of bytes the array needs, it returns a Buffer on that device of at least that
/// size (a fresh allocation, or a region of a larger one, as the virtual allocation managers
/// hand out). An empty Allocator means the context's MemoryPool (memory_pool.hpp); a
/// non-empty one bypasses the pool. The array keeps the Buffer (a
/// shared handle) for its lifetime and the lifetime of its views.
///
///     Allocator counting = [&](const BoundDevice& device, std::size_t size) {
///       ++allocations;
///       return Buffer::allocate(device, size);
///     };
using Allocator = std::function<Buffer(const BoundDevice& device, std::size_t size)>;

}  // namespace plinth
