#include <plinth/virtual_alloc.hpp>

namespace plinth {

VirtualDependencies::VirtualDependencies(const Buffer& buffer) : buffers_{buffer} {}

VirtualDependencies::VirtualDependencies(const Array& array) : buffers_{array.base_buffer()} {}

VirtualDependencies::VirtualDependencies(const MultiArray& array) {
  for (const auto& [device, part] : array.subarrays()) buffers_.push_back(part.base_buffer());
}

VirtualDependencies::VirtualDependencies(std::initializer_list<VirtualDependencies> list) {
  for (const auto& item : list) add(item);
}

void VirtualDependencies::add(const VirtualDependencies& more) {
  buffers_.insert(buffers_.end(), more.buffers_.begin(), more.buffers_.end());
}

}  // namespace plinth
