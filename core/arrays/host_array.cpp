#include <plinth/host_array.hpp>

#include "arrays/strided.hpp"

#include <plinth/errors.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstring>
#include <new>

namespace plinth {

namespace {

std::shared_ptr<std::byte[]> allocate_zeroed(std::size_t size) {
  try {
    // At least one byte, so that even an empty array has a valid block pointer.
    return std::make_shared<std::byte[]>(size == 0 ? 1 : size);
  } catch (const std::bad_alloc&) {
    // No standard-library exception leaves the API: the same type as a device out of memory.
    throw OutOfMemoryError("host", "HostArray allocation", 0, "out of host memory",
                           fmt::format("cannot allocate {} bytes for a HostArray", size));
  }
}

}  // namespace

HostArray HostArray::empty(std::vector<std::size_t> shape, const DType& dtype) {
  return empty(ArrayMetadata(std::move(shape), dtype));
}

HostArray HostArray::empty(const ArrayMetadata& metadata) {
  return HostArray(allocate_zeroed(metadata.buffer_size()), metadata);
}

void HostArray::check_alignment(const char* what, const DType& dtype, std::size_t alignment) {
  if (alignment == 0 || (alignment & (alignment - 1)) != 0) {
    throw LogicError(fmt::format("{}: the alignment {} is not a power of two", what, alignment));
  }
  if (alignment < dtype.alignment()) {
    throw LogicError(fmt::format("{}: the alignment {} is below {}'s own alignment, {}", what,
                                 alignment, dtype.name(), dtype.alignment()));
  }
}

HostArray HostArray::aligned(std::vector<std::size_t> shape, const DType& dtype,
                             std::size_t alignment) {
  check_alignment("HostArray::aligned", dtype, alignment);
  const ArrayMetadata metadata(std::move(shape), dtype);
  const std::size_t size = std::max<std::size_t>(metadata.buffer_size(), 1);
  std::byte* memory = nullptr;
  try {
    memory = static_cast<std::byte*>(::operator new[](size, std::align_val_t(alignment)));
  } catch (const std::bad_alloc&) {
    throw OutOfMemoryError(
        "host", "HostArray allocation", 0, "out of host memory",
        fmt::format("cannot allocate {} bytes aligned to {} for a HostArray", size, alignment));
  }
  std::memset(memory, 0, size);
  std::shared_ptr<std::byte[]> block;
  try {
    block = std::shared_ptr<std::byte[]>(
        memory, [alignment](std::byte* p) { ::operator delete[](p, std::align_val_t(alignment)); });
  } catch (const std::bad_alloc&) {  // the control block: the deleter has freed the memory
    throw OutOfMemoryError("host", "HostArray allocation", 0, "out of host memory",
                           "cannot allocate a HostArray's control block");
  }
  return HostArray(std::move(block), metadata);
}

HostArray HostArray::from_bytes(std::span<const std::byte> bytes, std::vector<std::size_t> shape,
                                const DType& dtype) {
  auto array = empty(std::move(shape), dtype);
  if (bytes.size() != array.nbytes()) {
    throw LogicError(fmt::format(
        "HostArray::from_bytes: {} bytes for an array of shape ({}) "
        "and dtype {}, which has {}",
        bytes.size(), fmt::join(array.shape(), ", "), array.dtype().name(), array.nbytes()));
  }
  if (!bytes.empty()) std::memcpy(array.data(), bytes.data(), bytes.size());
  return array;
}

HostArray HostArray::wrap(std::span<std::byte> memory, const ArrayMetadata& metadata) {
  if (memory.size() < metadata.buffer_size()) {
    throw LogicError(fmt::format("HostArray::wrap: the layout needs {} bytes, the memory has {}",
                                 metadata.buffer_size(), memory.size()));
  }
  // Not owned: the caller keeps the memory alive.
  return HostArray(std::shared_ptr<std::byte[]>(memory.data(), [](std::byte*) {}), metadata);
}

void HostArray::check_count(const ArrayMetadata& metadata, std::size_t count) {
  if (metadata.size() != count) {
    throw LogicError(fmt::format("HostArray: {} values for shape ({}), which has {} elements",
                                 count, fmt::join(metadata.shape(), ", "), metadata.size()));
  }
}

void HostArray::check_type(std::size_t size, std::size_t alignment,
                           const std::optional<DType>& dtype, bool contiguous) const {
  if (dtype ? !(*dtype == metadata_.dtype()) : size != metadata_.dtype().itemsize()) {
    throw LogicError(fmt::format("HostArray: the elements are {} ({} bytes), not {} ({} bytes)",
                                 metadata_.dtype().name(), metadata_.dtype().itemsize(),
                                 dtype ? dtype->name() : std::string("the type asked for"), size));
  }
  if (contiguous && !metadata_.is_contiguous()) {
    throw LogicError(
        fmt::format("HostArray::values: the array (shape ({}), strides ({})) is not "
                    "contiguous; use to_vector() or copy()",
                    fmt::join(shape(), ", "), fmt::join(strides(), ", ")));
  }
  const bool aligned = reinterpret_cast<std::uintptr_t>(data()) % alignment == 0 &&
                       std::all_of(strides().begin(), strides().end(), [&](std::ptrdiff_t s) {
                         return s % static_cast<std::ptrdiff_t>(alignment) == 0;
                       });
  if (!aligned) {
    throw LogicError(fmt::format("HostArray: the elements are not aligned to {} bytes", alignment));
  }
}

std::byte* HostArray::element(std::span<const std::size_t> indices) const {
  if (indices.size() != ndim()) {
    throw LogicError(fmt::format("HostArray::element: {} indices for a {}-dimensional array",
                                 indices.size(), ndim()));
  }
  std::ptrdiff_t offset = 0;
  for (std::size_t i = 0; i < indices.size(); ++i) {
    if (indices[i] >= shape()[i]) {
      throw LogicError(
          fmt::format("HostArray::element: index {} is out of bounds for dimension "
                      "{} of extent {}",
                      indices[i], i, shape()[i]));
    }
    offset += static_cast<std::ptrdiff_t>(indices[i]) * strides()[i];
  }
  return data() + offset;
}

HostArray HostArray::view(std::span<const Index> indices) const {
  return HostArray(block_, metadata_.view(indices));
}

HostArray HostArray::copy() const {
  auto result = empty(shape(), dtype());
  result.assign(*this);
  return result;
}

void HostArray::assign(const HostArray& src) const {
  if (src.shape() != shape() || !(src.dtype() == dtype())) {
    throw LogicError(
        fmt::format("HostArray::assign: the source has shape ({}) and dtype {}, "
                    "the destination shape ({}) and dtype {}",
                    fmt::join(src.shape(), ", "), src.dtype().name(), fmt::join(shape(), ", "),
                    dtype().name()));
  }
  if (src.block_ == block_ && src.size() > 0) {
    // Views of one block may overlap: go through a copy.
    assign(src.copy());
    return;
  }
  detail::copy_strided(data(), strides(), src.data(), src.strides(), shape(), dtype().itemsize());
}

}  // namespace plinth
