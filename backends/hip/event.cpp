#include "event.hpp"

#include "error.hpp"

namespace plinth::hip {

Event::~Event() { PLINTH_CHECK_IN_DESTRUCTOR(hipEventDestroy(event_)); }

void Event::wait() { PLINTH_CHECK(hipEventSynchronize(event_)); }

double Event::elapsed_ms_since(backend::EventAdapter& start) {
  const hipEvent_t begin = static_cast<Event&>(start).event();
  PLINTH_CHECK(hipEventSynchronize(begin));
  PLINTH_CHECK(hipEventSynchronize(event_));
  float ms = 0;
  PLINTH_CHECK(hipEventElapsedTime(&ms, begin, event_));
  return ms;
}

backend::NativeHandle Event::native_handle() const {
  return reinterpret_cast<backend::NativeHandle>(event_);
}

}  // namespace plinth::hip
