#include "launch_order.hpp"

#include "device.hpp"
#include "error.hpp"
#include "platform.hpp"

#include <mutex>

namespace plinth::opencl {

namespace {

/// The last launch made in order, and what guards it. Its destructor makes no OpenCL call:
/// forget_launches_of() has dropped the event before the context went.
struct LaunchOrder {
  std::mutex mutex;
  cl_event last = nullptr;  ///< one reference owned; null when none may still run
  cl_context context = nullptr;
};

LaunchOrder& launch_order() {
  static LaunchOrder order;
  return order;
}

/// Whether `event` has finished (or failed: then nothing waits for it either).
bool finished(cl_event event) {
  cl_int status = CL_COMPLETE;
  PLINTH_CHECK(
      clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status, nullptr));
  return status == CL_COMPLETE || status < 0;
}

/// Under the order's lock: the event the next launch on `context` must wait for (null when
/// none may still run), the host having waited for one of another context.
cl_event last_to_wait_for(LaunchOrder& order, cl_context context) {
  if (order.last && finished(order.last)) {
    PLINTH_CHECK_IN_DESTRUCTOR(clReleaseEvent(order.last));
    order.last = nullptr;
  }
  // An event of another context cannot be in a wait list: the host waits for it instead.
  if (order.last && order.context != context) {
    // A launch that failed there is its own queue's error, not this one's.
    const cl_int waited = clWaitForEvents(1, &order.last);
    if (waited != CL_SUCCESS && waited != CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST) {
      throw_error(waited, "clWaitForEvents");
    }
    PLINTH_CHECK_IN_DESTRUCTOR(clReleaseEvent(order.last));
    order.last = nullptr;
  }
  return order.last;
}

/// Under the order's lock: `launched` (its reference handed over) becomes the last launch.
void record_launch(LaunchOrder& order, cl_context context, cl_event launched) {
  if (launched == nullptr) return;
  if (order.last) PLINTH_CHECK_IN_DESTRUCTOR(clReleaseEvent(order.last));
  order.last = launched;
  order.context = context;
}

cl_context context_of(cl_command_queue queue) {
  cl_context context = nullptr;
  PLINTH_CHECK(clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof(context), &context, nullptr));
  return context;
}

}  // namespace

bool launches_race(cl_device_id device) {
  const auto platform = device_value<cl_platform_id>(device, CL_DEVICE_PLATFORM);
  const auto type = device_value<cl_device_type>(device, CL_DEVICE_TYPE);
  return pocl_launches_race(platform_string(platform, CL_PLATFORM_NAME),
                            platform_string(platform, CL_PLATFORM_VERSION),
                            (type & CL_DEVICE_TYPE_CPU) != 0);
}

void enqueue_in_launch_order(cl_command_queue queue, cl_kernel kernel,
                             const backend::LaunchShape& shape) {
  const cl_context context = context_of(queue);
  auto& order = launch_order();
  const std::lock_guard lock(order.mutex);
  const cl_event wait = last_to_wait_for(order, context);
  const cl_uint waits = wait != nullptr ? 1 : 0;
  cl_event launched = nullptr;
  PLINTH_CHECK(clEnqueueNDRangeKernel(queue, kernel, shape.dims, nullptr, shape.global.data(),
                                      shape.local.data(), waits, waits ? &wait : nullptr,
                                      &launched));
  record_launch(order, context, launched);
  // The next launch may wait for this one from another queue: this queue must be flushed.
  PLINTH_CHECK(clFlush(queue));
}

void enqueue_in_launch_order(cl_command_queue queue,
                             const std::function<cl_event(cl_command_queue)>& enqueue) {
  const cl_context context = context_of(queue);
  auto& order = launch_order();
  const std::lock_guard lock(order.mutex);
  if (const cl_event wait = last_to_wait_for(order, context)) {
    PLINTH_CHECK(clEnqueueMarkerWithWaitList(queue, 1, &wait, nullptr));
  }
  record_launch(order, context, enqueue(queue));
  PLINTH_CHECK(clFlush(queue));
}

void forget_launches_of(cl_context context) noexcept {
  auto& order = launch_order();
  const std::lock_guard lock(order.mutex);
  if (order.last && order.context == context) {
    PLINTH_CHECK_IN_DESTRUCTOR(clReleaseEvent(order.last));
    order.last = nullptr;
    order.context = nullptr;
  }
}

}  // namespace plinth::opencl
