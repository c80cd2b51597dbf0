#include "event.hpp"

#include "error.hpp"

namespace plinth::cuda {

Event::~Event() { PLINTH_CHECK_IN_DESTRUCTOR(cuEventDestroy(event_)); }

void Event::wait() { PLINTH_CHECK(cuEventSynchronize(event_)); }

double Event::elapsed_ms_since(backend::EventAdapter& start) {
  const CUevent begin = static_cast<Event&>(start).event();
  PLINTH_CHECK(cuEventSynchronize(begin));
  PLINTH_CHECK(cuEventSynchronize(event_));
  float ms = 0;
  PLINTH_CHECK(cuEventElapsedTime(&ms, begin, event_));
  return ms;
}

backend::NativeHandle Event::native_handle() const {
  return reinterpret_cast<backend::NativeHandle>(event_);
}

}  // namespace plinth::cuda
