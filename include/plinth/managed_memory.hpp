#pragma once

/// \file
/// Managed (unified, shared) memory: the choices Buffer::allocate_managed(), Buffer::attach(),
/// Buffer::prefetch() and Buffer::advise() take. Which backend offers what:
///
/// | backend | memory | attach | prefetch | advice |
/// | --- | --- | --- | --- | --- |
/// | CUDA | cuMemAllocManaged (devices with CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY) | global, host at
/// allocation; single through attach() | cuMemPrefetchAsync, where the device has concurrent
/// managed access | cuMemAdvise: all six | | HIP | hipMallocManaged (devices with
/// hipDeviceAttributeManagedMemory) | as CUDA | hipMemPrefetchAsync, as CUDA | hipMemAdvise: all
/// six | | Level Zero | zeMemAllocShared | global only | zeCommandListAppendMemoryPrefetch (to the
/// device only) | zeCommandListAppendMemAdvise: read-mostly and a preferred location on the device
/// | | OpenCL | clSVMAlloc with CL_MEM_SVM_FINE_GRAIN_BUFFER (devices with fine-grained buffer SVM;
/// coarse-grained SVM needs map/unmap and is refused) | global only | clEnqueueSVMMigrateMem
/// (OpenCL 2.1) | none |
///
/// Prefetches and advice are hints: they change where the memory lies and how fast it is
/// reached, never what a program computes. The calls say (by returning false) when the
/// backend or device has no such hint, rather than pretending to have given it.

#include <plinth/export.hpp>

namespace plinth {

/// Which queues may reach managed memory (PyCUDA's mem_attach_flags, CUDA's
/// CU_MEM_ATTACH_*).
enum class ManagedAttach {
  /// Any queue of any device (CU_MEM_ATTACH_GLOBAL). The default, and the only kind the
  /// Level Zero and OpenCL backends have.
  global,
  /// The host only, until attached to a queue with Buffer::attach() (CU_MEM_ATTACH_HOST);
  /// devices without concurrent managed access need this for the host to use the memory
  /// while kernels run.
  host,
  /// One queue only (CU_MEM_ATTACH_SINGLE): given to Buffer::attach() with that queue, never
  /// at allocation (CUDA has no such allocation).
  single,
};

/// Where a prefetch moves managed memory, or which processor a piece of advice names.
enum class ManagedLocation {
  /// The buffer's device.
  device,
  /// The host (system memory).
  host,
};

/// Advice about how managed memory will be used (CUDA's CU_MEM_ADVISE_*): a hint, see above.
enum class ManagedAdvice {
  /// Mostly read: processors may keep read-only copies (the location is ignored).
  set_read_mostly,
  /// Undoes set_read_mostly.
  unset_read_mostly,
  /// The memory should preferably lie at the location.
  set_preferred_location,
  /// Undoes set_preferred_location.
  unset_preferred_location,
  /// The location's processor will access the memory: keep it mapped there.
  set_accessed_by,
  /// Undoes set_accessed_by.
  unset_accessed_by,
};

/// "global", "host", "single".
PLINTH_EXPORT const char* to_string(ManagedAttach attach) noexcept;
/// "device", "host".
PLINTH_EXPORT const char* to_string(ManagedLocation location) noexcept;
/// "set_read_mostly", ... (the enumerator's name).
PLINTH_EXPORT const char* to_string(ManagedAdvice advice) noexcept;

}  // namespace plinth
