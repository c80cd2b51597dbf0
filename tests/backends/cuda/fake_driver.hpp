#pragma once

// A stand-in CUDA driver for tests without a GPU: installs functions into the backend's
// driver table (backends/cuda/driver.hpp) for a test's lifetime, recording the calls that
// matter as lines of text. Contexts are made-up handles, never dereferenced.

#include <cuda.h>

#include <string>
#include <vector>

namespace plinth::cuda::test {

/// Installs the fake functions (and restores the previous table when destroyed). One at a
/// time, on the test's thread.
class FakeDriver {
 public:
  FakeDriver();
  ~FakeDriver();
  FakeDriver(const FakeDriver&) = delete;
  FakeDriver& operator=(const FakeDriver&) = delete;

  /// The made-up primary context of `device`.
  static CUcontext context(CUdevice device);
  /// The calls recorded so far ("cuCtxEnablePeerAccess current=dev0 peer=dev1").
  static std::vector<std::string>& calls();
  /// The context current on this thread, as the fake driver keeps it.
  static CUcontext current();
  /// What cuDeviceCanAccessPeer answers for (from, to); every pair 1 unless set.
  static void set_can_access(CUdevice from, CUdevice to, bool can);
  /// What the next cuCtxEnablePeerAccess returns (then CUDA_SUCCESS again).
  static void set_next_enable_result(CUresult result);
  /// What CU_DEVICE_ATTRIBUTE_MAX_PITCH reads (1 MiB unless set) for devices added after.
  static void set_max_pitch(int pitch);
  /// Host pointers in recorded rectangular copies are printed as "host+<offset from base>".
  static void set_host_base(const void* base);
  /// What cuDeviceGetAttribute answers for CU_DEVICE_ATTRIBUTE_IPC_EVENT_SUPPORTED (1 unless
  /// set). Interprocess memory: cuMemGetAddressRange gives 64 KiB-aligned allocations of 64
  /// KiB, a handle holds the allocation's base, cuIpcOpenMemHandle maps it at 0x900000 + base
  /// (and refuses base 0). Events are numbered from 0x7000, and a handle holds the number.
  static void set_ipc_supported(bool supported);
  /// What cuDeviceGetAttribute answers for `attribute` of `device`; 9 unless set.
  static void set_attribute(CUdevice_attribute attribute, CUdevice device, int value);

  /// What cuTexObjectCreate was given for a texture object: the array of its resource, its
  /// settings and whether it had a resource view. Images (cuArray3DCreate, cuTexObjectCreate,
  /// cuSurfObjectCreate) are recorded with their handles: arrays numbered from 0xa100 (by
  /// 0x100), surface objects from 0x5100 and texture objects from 0x3100.
  struct Texture {
    CUarray array = nullptr;
    CUDA_TEXTURE_DESC settings{};
    bool view = false;
  };
  /// The texture object `object`'s record, or null if the fake made none such.
  static const Texture* texture(unsigned long long object);
};

}  // namespace plinth::cuda::test
