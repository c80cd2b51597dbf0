#include "algorithms/kit/program_slot.hpp"

#include "runtime/program_build.hpp"

#include <array>

namespace plinth::detail {

Program build_for_store(const BoundDevice& device, const ProgramSource& source,
                        const ProgramOptions& options) {
  const std::array<std::size_t, 1> index{device.index()};
  const auto devices = unowned(device.context()).devices()[std::span<const std::size_t>(index)];
  return Program(devices, source, options);
}

Program program_for_user(const Program& program, const BoundDevice& device) {
  return with_owner(program, device.context());
}

}  // namespace plinth::detail
