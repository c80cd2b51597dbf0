#include "event.hpp"

#include "error.hpp"
#include "event_pool.hpp"

#include <cstdint>
#include <limits>

namespace plinth::level_zero {

void Event::wait() {
  PLINTH_CHECK(zeEventHostSynchronize(slot_->event(), std::numeric_limits<std::uint64_t>::max()));
}

double Event::elapsed_ms_since(backend::EventAdapter& start) {
  auto& begin = static_cast<Event&>(start);
  begin.wait();
  wait();
  // The timer counts up in its valid bits and wraps: the difference modulo 2^bits.
  const std::uint64_t ticks = (slot_->timestamp() - begin.slot_->timestamp()) & mask_;
  return static_cast<double>(ticks) * ns_per_tick_ / 1e6;
}

backend::NativeHandle Event::native_handle() const {
  return reinterpret_cast<backend::NativeHandle>(slot_->event());
}

}  // namespace plinth::level_zero
