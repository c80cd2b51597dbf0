#include <plinth/virtual_alloc.hpp>

#include <fmt/format.h>

#include <ostream>

namespace plinth {

namespace {

/// "1x5b, 2x8b": how many of each size, smallest first.
std::string histogram(const std::map<std::size_t, std::size_t>& sizes) {
  std::string text;
  for (const auto& [size, count] : sizes) {
    if (!text.empty()) text += ", ";
    text += fmt::format("{}x{}b", count, size);
  }
  return text;
}

}  // namespace

std::string VirtualAllocationStatistics::to_string() const {
  return fmt::format(
      "VirtualAllocationStatistics(real: {} allocs, total size {}b, buffers: {}; "
      "virtual: {} allocs, total size {}b, buffers: {})",
      real_num, real_size_total, histogram(real_sizes), virtual_num, virtual_size_total,
      histogram(virtual_sizes));
}

std::ostream& operator<<(std::ostream& os, const VirtualAllocationStatistics& statistics) {
  return os << statistics.to_string();
}

}  // namespace plinth
