#include <plinth/per_device.hpp>

#include <plinth/errors.hpp>

#include <fmt/format.h>

namespace plinth::detail {

void throw_no_value_for(const char* what, const BoundDevice& device) {
  throw LogicError(
      fmt::format("{} has no value for device {} ('{}')", what, device.index(), device.name()));
}

void throw_repeated_device(const BoundDevice& device) {
  throw LogicError(fmt::format("PerDevice: device {} ('{}') has a value already", device.index(),
                               device.name()));
}

}  // namespace plinth::detail
