#include "event.hpp"

#include "error.hpp"

namespace plinth::cuda {

Event::~Event() { check_noexcept(cuEventDestroy(event_), "cuEventDestroy"); }

void Event::wait() { check(cuEventSynchronize(event_), "cuEventSynchronize"); }

double Event::elapsed_ms_since(backend::EventAdapter& start) {
  const CUevent begin = static_cast<Event&>(start).event();
  check(cuEventSynchronize(begin), "cuEventSynchronize");
  check(cuEventSynchronize(event_), "cuEventSynchronize");
  float ms = 0;
  check(cuEventElapsedTime(&ms, begin, event_), "cuEventElapsedTime");
  return ms;
}

backend::NativeHandle Event::native_handle() const {
  return reinterpret_cast<backend::NativeHandle>(event_);
}

}  // namespace plinth::cuda
