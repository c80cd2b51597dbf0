#pragma once

// Kernel launches that run one at a time: the workaround for PoCL's release of cached
// work-group functions before PoCL 7.0.
//
// PoCL's CPU drivers (pthread, basic) keep each kernel's compiled work-group function, opened
// with dlopen, in one cache for the whole process. A launch takes an entry that fits its
// kernel, local size and grid (one with a grid at least as wide; a wider launch adds an
// entry), and when it finishes, PoCL gives back the first entry whose kernel and local size
// match, whichever it took (pocl_release_dlhandle_cache, PoCL 1.x to 6.x). Launches of one
// kernel in flight together, on several queues of any devices and contexts, can then give back
// each other's entry, and the process aborts: "Assertion `found->ref_count > 0' failed". On
// 3.1 it takes three such launches in flight, on 5.0 two; PoCL 7.0 remembers the entry with
// the launch (commit c9ac4c0c3).
//
// On such a device each launch waits for the one before it in the process: in its wait list
// when both are of one context, on the host otherwise. PoCL's CPU devices share the host's
// cores, so little parallelism is lost; a launch's event completes only after PoCL has given
// its entry back, so the next one finds the cache as the previous one left it.

#include <plinth/backend/types.hpp>

#include <CL/cl.h>

#include <cstdlib>
#include <functional>
#include <string_view>

namespace plinth::opencl {

/// Whether launches on a device of the platform named `platform_name`, of version
/// `platform_version` (CL_PLATFORM_NAME and CL_PLATFORM_VERSION), must run one at a time: a
/// CPU device of PoCL before 7.0 ("OpenCL 3.0 PoCL 5.0+debian Linux, ..."). A PoCL version
/// that cannot be read counts as affected. Any thread may call it.
inline bool pocl_launches_race(std::string_view platform_name, std::string_view platform_version,
                               bool cpu_device) noexcept {
  if (!cpu_device || platform_name.find("Portable Computing Language") == std::string_view::npos)
    return false;
  const auto at = platform_version.find("PoCL ");
  if (at == std::string_view::npos) return true;
  int major = 0;
  bool digits = false;
  for (std::size_t i = at + 5; i < platform_version.size(); ++i) {
    const char c = platform_version[i];
    if (c < '0' || c > '9') break;
    digits = true;
    major = major * 10 + (c - '0');
    if (major > 1000) break;
  }
  return !digits || major < 7;
}

/// Whether launches on `device` must run one at a time (pocl_launches_race() of its platform).
/// Throws BackendError if the device cannot be queried. Any thread may call it.
bool launches_race(cl_device_id device);

/// Enqueues `kernel` (its arguments set) on `queue` with `shape`, after every earlier launch
/// through this function in the process has finished, and flushes `queue`. Throws
/// BackendError as clEnqueueNDRangeKernel fails; a launch that fails leaves the order as it
/// was. Any thread may call it; launches are serialised by a mutex.
void enqueue_in_launch_order(cl_command_queue queue, cl_kernel kernel,
                             const backend::LaunchShape& shape);

/// Runs `enqueue(queue)`, which enqueues work on `queue` (an in-order queue: a library's
/// kernels) and returns the event of its last command (one reference, handed over; null when
/// it enqueued nothing), after every earlier launch through the order has finished (a marker
/// waits for the last one), and flushes `queue`. Throws what `enqueue` throws, and
/// BackendError. Any thread may call it; launches are serialised by a mutex.
void enqueue_in_launch_order(cl_command_queue queue,
                             const std::function<cl_event(cl_command_queue)>& enqueue);

/// Drops the order's hold on the last launch when it belongs to `context`: called before
/// plinth's last reference to `context` goes, so that no event of it outlives it. Never throws.
void forget_launches_of(cl_context context) noexcept;

}  // namespace plinth::opencl
