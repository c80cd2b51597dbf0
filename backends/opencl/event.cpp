#include "event.hpp"

#include "error.hpp"

#include <cstdint>

namespace plinth::opencl {

namespace {

cl_ulong end_time(cl_event event) {
  cl_ulong time = 0;
  PLINTH_CHECK(
      clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END, sizeof(time), &time, nullptr));
  return time;
}

}  // namespace

Event::~Event() { PLINTH_CHECK_IN_DESTRUCTOR(clReleaseEvent(event_)); }

void Event::replace(cl_event event) noexcept {
  PLINTH_CHECK_IN_DESTRUCTOR(clReleaseEvent(event_));
  event_ = event;
}

void Event::wait() { PLINTH_CHECK(clWaitForEvents(1, &event_)); }

double Event::elapsed_ms_since(backend::EventAdapter& start) {
  const cl_event events[] = {reinterpret_cast<cl_event>(start.native_handle()), event_};
  PLINTH_CHECK(clWaitForEvents(2, events));
  const auto ns = static_cast<std::int64_t>(end_time(events[1]) - end_time(events[0]));
  return static_cast<double>(ns) / 1e6;
}

backend::NativeHandle Event::native_handle() const {
  return reinterpret_cast<backend::NativeHandle>(event_);
}

}  // namespace plinth::opencl
