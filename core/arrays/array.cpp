#include <plinth/array.hpp>

#include "arrays/box_layout.hpp"
#include "arrays/strided.hpp"
#include "runtime/impl.hpp"
#include "runtime/peer_copy.hpp"
#include "runtime/rect_copy.hpp"

#include <plinth/errors.hpp>
#include <plinth/memory_pool.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <memory>

namespace plinth {

namespace detail {

struct ArrayImpl {
  ArrayMetadata metadata;
  Buffer base;
  Buffer first;  // region of `base` from the first element: the kernel argument
};

}  // namespace detail

namespace {

/// The kernel argument of an array: made once, when the array or view is made.
Buffer first_element_region(const Buffer& base, const ArrayMetadata& metadata) {
  const std::size_t offset = metadata.first_element_offset();
  if (metadata.size() == 0 || offset == 0) return base;
  return base.get_sub_region(offset, base.size() - offset);
}

Array make_array(const Buffer& base, ArrayMetadata metadata) {
  auto first = first_element_region(base, metadata);
  return detail::Access::make<Array>(std::make_shared<const detail::ArrayImpl>(
      detail::ArrayImpl{std::move(metadata), base, std::move(first)}));
}

void check_queue(const Array& array, const Queue& queue, const char* what) {
  if (!(queue.device() == array.device())) {
    throw LogicError(
        fmt::format("Array::{}: {}", what,
                    detail::describe_mismatch("queue", queue.device(), "array", array.device())));
  }
}

void check_match(const ArrayMetadata& array, const ArrayMetadata& other, const char* what,
                 const char* other_name) {
  if (array.shape() != other.shape()) {
    throw LogicError(fmt::format(
        "Array::{}: shape mismatch: the array has shape ({}), the {} "
        "({})",
        what, fmt::join(array.shape(), ", "), other_name, fmt::join(other.shape(), ", ")));
  }
  if (!(array.dtype() == other.dtype())) {
    throw LogicError(fmt::format("Array::{}: dtype mismatch: the array has dtype {}, the {} {}",
                                 what, array.dtype().name(), other_name, other.dtype().name()));
  }
}

std::unique_ptr<std::byte[]> staging(std::size_t size) {
  return std::make_unique_for_overwrite<std::byte[]>(size);
}

/// Device to host through `queue` (of any device of the array's context).
void read(const Queue& queue, const Array& array, const HostArray& dest, bool async) {
  const auto& m = array.metadata();
  if (m.size() == 0) return;
  detail::note_use(array.base_buffer(), queue);
  auto& buffer = detail::Access::adapter(array.base_buffer());
  if (m.is_contiguous() && dest.is_contiguous()) {
    detail::Access::adapter(queue).read(dest.data(), buffer, m.first_element_offset(), m.nbytes(),
                                        async);
    detail::after_host_read(queue, dest, async);
    return;
  }
  // A box (a sub-matrix, a sub-volume) in one rectangular read where the backend has one.
  if (auto box = detail::box_copy(m.shape(), m.strides(), dest.strides(), m.dtype().itemsize())) {
    box->a.offset = m.first_element_offset();
    if (detail::try_read_rect(queue, dest.data(), box->b, array.base_buffer(), box->a, box->shape,
                              async)) {
      detail::after_host_read(queue, dest, async);
      return;
    }
  }
  const auto covering = staging(m.span());
  detail::Access::adapter(queue).read(covering.get(), buffer, m.min_offset(), m.span(), false);
  detail::copy_strided(dest.data(), dest.strides(),
                       covering.get() + (m.first_element_offset() - m.min_offset()), m.strides(),
                       m.shape(), m.dtype().itemsize());
}

/// Host to device through `queue`.
void write(const Queue& queue, const Array& array, const HostArray& src, bool async) {
  const auto& m = array.metadata();
  if (m.size() == 0) return;
  detail::note_use(array.base_buffer(), queue);
  auto& buffer = detail::Access::adapter(array.base_buffer());
  if (m.is_contiguous() && src.is_contiguous()) {
    detail::Access::adapter(queue).write(buffer, m.first_element_offset(), src.data(), m.nbytes(),
                                         async);
    detail::after_host_write(queue, src, async);
    return;
  }
  if (auto box = detail::box_copy(m.shape(), m.strides(), src.strides(), m.dtype().itemsize())) {
    box->a.offset = m.first_element_offset();
    if (detail::try_write_rect(queue, array.base_buffer(), box->a, src.data(), box->b, box->shape,
                               async)) {
      detail::after_host_write(queue, src, async);
      return;
    }
  }
  const auto covering = staging(m.span());
  // Keep the bytes between the elements (other data of the allocation).
  if (!m.is_dense())
    detail::Access::adapter(queue).read(covering.get(), buffer, m.min_offset(), m.span(), false);
  detail::copy_strided(covering.get() + (m.first_element_offset() - m.min_offset()), m.strides(),
                       src.data(), src.strides(), m.shape(), m.dtype().itemsize());
  detail::Access::adapter(queue).write(buffer, m.min_offset(), covering.get(), m.span(), false);
}

int loaded_minor(const Queue& queue) {
  return detail::loaded(queue.device().context().api()).abi_minor;
}

Array allocate_array(const BoundDevice& device, const Queue* queue, const ArrayMetadata& metadata,
                     const Allocator& allocator) {
  // Buffers cannot be empty: an array without elements still gets one element's bytes.
  const std::size_t size = std::max(metadata.buffer_size(), metadata.dtype().itemsize());
  const auto pool = MemoryPool::of(device.context());
  Buffer base = allocator ? allocator(device, size)
                : queue   ? pool.allocate(*queue, size)
                          : pool.allocate(device, size);
  if (!(base.device() == device)) {
    throw LogicError(
        fmt::format("Array::empty: the allocator returned a buffer of the wrong device: {}",
                    detail::describe_mismatch("buffer", base.device(), "array", device)));
  }
  if (base.size() < size) {
    throw LogicError(fmt::format("Array::empty: the allocator returned {} bytes, {} were asked for",
                                 base.size(), size));
  }
  return make_array(base, metadata);
}

}  // namespace

Array Array::empty(const BoundDevice& device, std::vector<std::size_t> shape, const DType& dtype,
                   std::optional<std::vector<std::ptrdiff_t>> strides,
                   std::optional<std::size_t> first_element_offset, const Allocator& allocator) {
  return empty_with_metadata(
      device, ArrayMetadata(std::move(shape), dtype, std::move(strides), first_element_offset),
      allocator);
}

Array Array::empty(const Queue& queue, std::vector<std::size_t> shape, const DType& dtype,
                   std::optional<std::vector<std::ptrdiff_t>> strides,
                   std::optional<std::size_t> first_element_offset, const Allocator& allocator) {
  return empty_with_metadata(
      queue, ArrayMetadata(std::move(shape), dtype, std::move(strides), first_element_offset),
      allocator);
}

Array Array::empty(const BoundDevice& device, std::vector<std::size_t> shape, const DType& dtype,
                   Order order, const Allocator& allocator) {
  auto strides = ArrayMetadata::default_strides(shape, dtype.itemsize(), order);
  return empty(device, std::move(shape), dtype, std::move(strides), std::nullopt, allocator);
}

Array Array::empty(const Queue& queue, std::vector<std::size_t> shape, const DType& dtype,
                   Order order, const Allocator& allocator) {
  auto strides = ArrayMetadata::default_strides(shape, dtype.itemsize(), order);
  return empty(queue, std::move(shape), dtype, std::move(strides), std::nullopt, allocator);
}

Array Array::empty_like(const BoundDevice& device, const Array& like, const Allocator& allocator) {
  return empty(device, like.shape(), like.dtype(), std::nullopt, std::nullopt, allocator);
}

Array Array::empty_like(const Queue& queue, const Array& like, const Allocator& allocator) {
  return empty(queue, like.shape(), like.dtype(), std::nullopt, std::nullopt, allocator);
}

Array Array::empty_with_metadata(const BoundDevice& device, const ArrayMetadata& metadata,
                                 const Allocator& allocator) {
  return allocate_array(device, nullptr, metadata, allocator);
}

Array Array::empty_with_metadata(const Queue& queue, const ArrayMetadata& metadata,
                                 const Allocator& allocator) {
  return allocate_array(queue.device(), &queue, metadata, allocator);
}

Array Array::from_buffer(const Buffer& base, const ArrayMetadata& metadata) {
  if (base.size() < metadata.buffer_size()) {
    throw LogicError(fmt::format("Array::from_buffer: the layout needs {} bytes, the buffer has {}",
                                 metadata.buffer_size(), base.size()));
  }
  return make_array(base, metadata);
}

Array Array::from_host(const Queue& queue, const HostArray& host) {
  auto array = empty(queue, host.shape(), host.dtype());
  array.set(queue, host, true);
  return array;
}

Array Array::from_host(const BoundDevice& device, const HostArray& host) {
  return from_host(Queue(device), host);
}

HostArray Array::get(const Queue& queue, bool async) const {
  auto dest = HostArray::empty(shape(), dtype());
  get(queue, dest, async);
  return dest;
}

void Array::get(const Queue& queue, const HostArray& dest, bool async) const {
  check_queue(*this, queue, "get");
  check_match(metadata(), dest.metadata(), "get", "destination");
  read(queue, *this, dest, async);
}

void Array::set(const Queue& queue, const HostArray& src, bool no_async) const {
  check_queue(*this, queue, "set");
  check_match(metadata(), src.metadata(), "set", "source");
  write(queue, *this, src, !no_async);
}

void Array::set(const Queue& queue, const Array& src, bool no_async) const {
  check_queue(*this, queue, "set");
  if (!(src.device().context() == device().context())) {
    throw LogicError("Array::set: the source array belongs to another context");
  }
  check_match(metadata(), src.metadata(), "set", "source");
  if (size() == 0) return;
  // copy_buffer_region copies overlapping ranges as memmove does; other layouts are staged
  // whole on the host before anything is written, which gives the same result. (Not through a
  // copy kernel: Array::set is a transfer, and works where no kernel can run.)
  if (is_contiguous() && src.is_contiguous()) {
    detail::copy_buffer_region(queue, base_buffer(), first_element_offset(), src.base_buffer(),
                               src.first_element_offset(), nbytes());
    if (no_async) queue.synchronize();
    return;
  }
  // Boxes (sub-matrices...) of both: one rectangular copy, on the device or between devices.
  if (auto box = detail::box_copy(shape(), strides(), src.strides(), dtype().itemsize());
      box && loaded_minor(queue) >= 6) {
    box->a.offset = first_element_offset();
    box->b.offset = src.first_element_offset();
    detail::copy_rect_sides(queue, base_buffer(), box->a, src.base_buffer(), box->b, box->shape);
    if (no_async) queue.synchronize();
    return;
  }
  const auto host = HostArray::empty(shape(), dtype());
  read(queue, src, host, false);
  write(queue, *this, host, false);
}

Array Array::view(std::span<const Index> indices) const {
  return make_array(impl_->base, impl_->metadata.view(indices));
}

Array Array::minimum_subregion() const {
  const auto& m = impl_->metadata;
  if (m.size() == 0) {
    // Buffers are never empty: one element's bytes at the first element offset, moved back to
    // stay inside the base buffer.
    const std::size_t size = std::min(m.dtype().itemsize(), impl_->base.size());
    const std::size_t origin = std::min(m.first_element_offset(), impl_->base.size() - size);
    const ArrayMetadata metadata(m.shape(), m.dtype(), m.strides(),
                                 m.first_element_offset() - origin, size);
    return make_array(impl_->base.get_sub_region(origin, size), metadata);
  }
  auto region = m.minimal_subregion();
  return make_array(impl_->base.get_sub_region(region.origin, region.size),
                    std::move(region.metadata));
}

void Array::record_queue(const Queue& queue) const { impl_->base.record_queue(queue); }

const ArrayMetadata& Array::metadata() const noexcept { return impl_->metadata; }
const BoundDevice& Array::device() const noexcept { return impl_->base.device(); }
const Buffer& Array::base_buffer() const noexcept { return impl_->base; }
const Buffer& Array::first_element_buffer() const noexcept { return impl_->first; }

}  // namespace plinth
