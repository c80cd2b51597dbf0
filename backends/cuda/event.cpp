#include "event.hpp"

#include "driver.hpp"

namespace plinth::cuda {

Event::~Event() { CU_CHECK_IN_DESTRUCTOR(cuEventDestroy(event_)); }

void Event::wait() { CU_CHECK(cuEventSynchronize(event_)); }

double Event::elapsed_ms_since(backend::EventAdapter& start) {
  const CUevent begin = static_cast<Event&>(start).event();
  CU_CHECK(cuEventSynchronize(begin));
  CU_CHECK(cuEventSynchronize(event_));
  float ms = 0;
  CU_CHECK(cuEventElapsedTime(&ms, begin, event_));
  return ms;
}

backend::NativeHandle Event::native_handle() const {
  return reinterpret_cast<backend::NativeHandle>(event_);
}

}  // namespace plinth::cuda
