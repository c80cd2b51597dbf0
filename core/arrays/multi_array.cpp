#include <plinth/multi_array.hpp>

#include <plinth/errors.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace plinth {

namespace detail {

struct MultiArrayImpl {
  BoundMultiDevice devices;
  std::vector<std::size_t> shape;
  DType dtype;
  std::shared_ptr<const BaseSplay> splay;
  PerDevice<Array> subarrays;
  PerDevice<std::vector<std::size_t>> shapes;
};

}  // namespace detail

namespace {

std::shared_ptr<const BaseSplay> or_default(std::shared_ptr<const BaseSplay> splay) {
  return splay ? std::move(splay) : std::make_shared<const EqualSplay>();
}

std::vector<std::vector<Index>> split(const BaseSplay& splay, const std::vector<std::size_t>& shape,
                                      const BoundMultiDevice& devices) {
  auto parts = splay.split(shape, devices);
  if (parts.size() != devices.size()) {
    throw LogicError(fmt::format("MultiArray: the splay returned {} part(s) for {} device(s)",
                                 parts.size(), devices.size()));
  }
  return parts;
}

std::string device_list(const BoundMultiDevice& devices) {
  std::vector<std::size_t> indices;
  for (const auto& device : devices) indices.push_back(device.index());
  return fmt::format("{}", fmt::join(indices, ", "));
}

/// Looks up every device's queue first, so that a missing one fails before any transfer.
void check_queues(const MultiQueue& queues, const BoundMultiDevice& devices) {
  for (const auto& device : devices) static_cast<void>(queues[device]);
}

void check_match(const detail::MultiArrayImpl& array, const HostArray& host, const char* what) {
  if (host.shape() != array.shape || !(host.dtype() == array.dtype)) {
    throw LogicError(
        fmt::format("MultiArray::{}: the array has shape ({}) and dtype {}, the host "
                    "array shape ({}) and dtype {}",
                    what, fmt::join(array.shape, ", "), array.dtype.name(),
                    fmt::join(host.shape(), ", "), host.dtype().name()));
  }
}

}  // namespace

MultiArray MultiArray::empty(const BoundMultiDevice& devices, std::vector<std::size_t> shape,
                             const DType& dtype, const Allocator& allocator,
                             std::shared_ptr<const BaseSplay> splay) {
  splay = or_default(std::move(splay));
  const ArrayMetadata whole(shape, dtype);
  const auto parts = split(*splay, shape, devices);
  auto impl = std::make_shared<detail::MultiArrayImpl>(
      detail::MultiArrayImpl{devices, std::move(shape), dtype, std::move(splay), {}, {}});
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const auto part = whole.view(parts[i]);
    impl->subarrays.insert(devices[i], Array::empty(devices[i], part.shape(), dtype, std::nullopt,
                                                    std::nullopt, allocator));
    impl->shapes.insert(devices[i], part.shape());
  }
  return MultiArray(std::move(impl));
}

MultiArray MultiArray::from_host(const MultiQueue& queues, const HostArray& host,
                                 std::shared_ptr<const BaseSplay> splay) {
  auto array = empty(queues.devices(), host.shape(), host.dtype(), {}, std::move(splay));
  array.set(queues, host, true);
  return array;
}

HostArray MultiArray::get(const MultiQueue& queues, bool async) const {
  auto dest = HostArray::empty(shape(), dtype());
  get(queues, dest, async);
  return dest;
}

void MultiArray::get(const MultiQueue& queues, const HostArray& dest, bool async) const {
  check_match(*impl_, dest, "get");
  check_queues(queues, impl_->devices);
  const auto parts = split(*impl_->splay, impl_->shape, impl_->devices);
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const auto& device = impl_->devices[i];
    (*this)[device].get(queues[device], dest.view(parts[i]), async);
  }
}

void MultiArray::set(const MultiQueue& queues, const HostArray& src, bool no_async) const {
  check_match(*impl_, src, "set");
  check_queues(queues, impl_->devices);
  const auto parts = split(*impl_->splay, impl_->shape, impl_->devices);
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const auto& device = impl_->devices[i];
    (*this)[device].set(queues[device], src.view(parts[i]), no_async);
  }
}

void MultiArray::set(const MultiQueue& queues, const MultiArray& src, bool no_async) const {
  const auto same_devices = [&] {
    if (src.subarrays().size() != subarrays().size()) return false;
    for (const auto& [device, part] : subarrays()) {
      if (!src.subarrays().contains(device)) return false;
    }
    return true;
  };
  if (!same_devices()) {
    throw LogicError(
        fmt::format("MultiArray::set: the source is not on the same devices as "
                    "the destination (device(s) {} and {})",
                    device_list(src.devices()), device_list(devices())));
  }
  check_queues(queues, impl_->devices);
  for (const auto& [device, part] : subarrays()) part.set(queues[device], src[device], no_async);
}

const BoundMultiDevice& MultiArray::devices() const noexcept { return impl_->devices; }
const std::vector<std::size_t>& MultiArray::shape() const noexcept { return impl_->shape; }
const DType& MultiArray::dtype() const noexcept { return impl_->dtype; }
const PerDevice<std::vector<std::size_t>>& MultiArray::shapes() const noexcept {
  return impl_->shapes;
}
const PerDevice<Array>& MultiArray::subarrays() const noexcept { return impl_->subarrays; }
const BaseSplay& MultiArray::splay() const noexcept { return *impl_->splay; }

const Array& MultiArray::operator[](const BoundDevice& device) const {
  const Array* part = impl_->subarrays.find(device);
  if (part == nullptr) [[unlikely]] {
    throw LogicError(
        fmt::format("the MultiArray has no part on device {} ('{}'); it is on "
                    "device(s) {}",
                    device.index(), device.name(), device_list(impl_->devices)));
  }
  return *part;
}

}  // namespace plinth
