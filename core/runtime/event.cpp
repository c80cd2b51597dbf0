#include <plinth/event.hpp>

#include <plinth/backend/event.hpp>
#include <plinth/errors.hpp>

#include "runtime/impl.hpp"

#include <fmt/format.h>

namespace plinth {

void Event::wait() const { adapter_->wait(); }
std::uintptr_t Event::native_handle() const { return adapter_->native_handle(); }

double elapsed_ms(const Event& start, const Event& end) {
  // Backends cast both events to their own type: an event of another context or API must
  // never reach them.
  if (!(start.device() == end.device())) {
    throw LogicError(fmt::format(
        "elapsed_ms: {}",
        detail::describe_mismatch("start event", start.device(), "end event", end.device())));
  }
  if (start.interprocess() || end.interprocess()) {
    throw LogicError(fmt::format(
        "elapsed_ms: the {} event is interprocess, and such events cannot time (CUDA makes "
        "them with CU_EVENT_DISABLE_TIMING, which CU_EVENT_INTERPROCESS requires); time with "
        "events from Queue::record_event()",
        start.interprocess() ? "start" : "end"));
  }
  // Both done, as the SDK promises the backend (start may be on another queue).
  start.wait();
  end.wait();
  return detail::Access::adapter(end).elapsed_ms_since(detail::Access::adapter(start));
}

}  // namespace plinth
