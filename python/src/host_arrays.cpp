#include "host_arrays.hpp"

#include <plinth/errors.hpp>

#include "dtypes.hpp"

#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <vector>

namespace plinth::python {

HostArray host_view(nb::handle object, nb::object& converted, bool writable,
                    const std::optional<DType>& dtype) {
  converted = dtype ? numpy().attr("asarray")(object, to_numpy_dtype(*dtype))
                    : numpy().attr("asarray")(object);
  const DType element = dtype_from_python(converted.attr("dtype"));
  const nb::dict interface = nb::cast<nb::dict>(converted.attr("__array_interface__"));
  const nb::tuple data = nb::cast<nb::tuple>(interface["data"]);
  if (writable && nb::cast<bool>(data[1])) {
    throw LogicError("the numpy array is read-only, and plinth would write into it");
  }
  auto* first = reinterpret_cast<std::byte*>(nb::cast<std::uintptr_t>(data[0]));
  const auto shape = nb::cast<std::vector<std::size_t>>(converted.attr("shape"));
  const auto strides = nb::cast<std::vector<std::ptrdiff_t>>(converted.attr("strides"));
  // The block starts at the lowest element and ends after the highest.
  std::size_t below = 0, above = element.itemsize();
  bool empty = false;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 0) empty = true;
    const auto reach = static_cast<std::ptrdiff_t>(shape[i] == 0 ? 0 : shape[i] - 1) * strides[i];
    if (reach < 0) {
      below += static_cast<std::size_t>(-reach);
    } else {
      above += static_cast<std::size_t>(reach);
    }
  }
  if (empty) below = 0, above = element.itemsize();
  const ArrayMetadata metadata(shape, element, strides, below, below + above);
  return HostArray::wrap(std::span<std::byte>(first - below, below + above), metadata);
}

namespace {

std::optional<nb::dlpack::dtype> dlpack_dtype(const DType& dtype) {
  using nb::dlpack::dtype_code;
  const auto bits = static_cast<std::uint8_t>(dtype.itemsize() * 8);
  switch (dtype.kind()) {
    case DTypeKind::boolean:
      return nb::dlpack::dtype{static_cast<std::uint8_t>(dtype_code::Bool), 8, 1};
    case DTypeKind::signed_integer:
      return nb::dlpack::dtype{static_cast<std::uint8_t>(dtype_code::Int), bits, 1};
    case DTypeKind::unsigned_integer:
      return nb::dlpack::dtype{static_cast<std::uint8_t>(dtype_code::UInt), bits, 1};
    case DTypeKind::floating:
      return nb::dlpack::dtype{static_cast<std::uint8_t>(dtype_code::Float), bits, 1};
    case DTypeKind::complex:
      return nb::dlpack::dtype{static_cast<std::uint8_t>(dtype_code::Complex), bits, 1};
    case DTypeKind::structure: return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace

nb::object to_numpy(const HostArray& host) {
  // The capsule owns a copy of the handle: the elements live as long as the numpy array.
  auto* owner = new HostArray(host);
  nb::capsule capsule(owner, [](void* p) noexcept { delete static_cast<HostArray*>(p); });
  const std::size_t itemsize = host.dtype().itemsize();
  std::vector<std::size_t> shape = host.shape();
  std::vector<std::int64_t> strides;
  bool elementwise = true;  // strides that are whole elements (always, for plinth's own)
  for (const auto stride : host.strides()) {
    if (stride % static_cast<std::ptrdiff_t>(itemsize) != 0) elementwise = false;
    strides.push_back(stride / static_cast<std::ptrdiff_t>(itemsize));
  }
  if (const auto dt = dlpack_dtype(host.dtype()); dt && elementwise) {
    return nb::ndarray<nb::numpy>(host.data(), shape.size(), shape.data(), capsule, strides.data(),
                                  *dt)
        .cast();
  }
  // Structs (and odd strides): the bytes, one more axis of itemsize, viewed as the dtype.
  for (std::size_t i = 0; i < strides.size(); ++i) strides[i] = host.strides()[i];
  shape.push_back(itemsize);
  strides.push_back(1);
  nb::object bytes = nb::ndarray<nb::numpy, std::uint8_t>(host.data(), shape.size(), shape.data(),
                                                          capsule, strides.data())
                         .cast();
  nb::object viewed = bytes.attr("view")(to_numpy_dtype(host.dtype()));
  // view() turned the last axis into one element: drop it (a view, not a copy).
  return viewed[nb::make_tuple(nb::ellipsis(), 0)];
}

}  // namespace plinth::python
