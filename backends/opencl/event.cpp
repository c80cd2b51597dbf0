#include "event.hpp"

#include "error.hpp"

#include <cstdint>

namespace plinth::opencl {

namespace {

cl_ulong end_time(cl_event event) {
  cl_ulong time = 0;
  check(clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END, sizeof(time), &time, nullptr),
        "clGetEventProfilingInfo");
  return time;
}

}  // namespace

Event::~Event() { check_release(clReleaseEvent(event_), "clReleaseEvent"); }

void Event::wait() { check(clWaitForEvents(1, &event_), "clWaitForEvents"); }

double Event::elapsed_ms_since(backend::EventAdapter& start) {
  const cl_event events[] = {reinterpret_cast<cl_event>(start.native_handle()), event_};
  check(clWaitForEvents(2, events), "clWaitForEvents");
  const auto ns = static_cast<std::int64_t>(end_time(events[1]) - end_time(events[0]));
  return static_cast<double>(ns) / 1e6;
}

backend::NativeHandle Event::native_handle() const {
  return reinterpret_cast<backend::NativeHandle>(event_);
}

}  // namespace plinth::opencl
