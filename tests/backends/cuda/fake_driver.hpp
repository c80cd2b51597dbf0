#pragma once

// A stand-in CUDA driver for tests without a GPU: installs functions into the backend's
// driver table (backends/cuda/driver.hpp) for a test's lifetime, recording the calls that
// matter as lines of text. Contexts are made-up handles, never dereferenced. cuGetErrorName
// names the results the tests use (CUDA_ERROR_INVALID_VALUE, _NO_DEVICE, ...).

#include <cuda.h>

#include <chrono>
#include <cstddef>
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
  /// Makes cuSurfObjectCreate and cuTexObjectCreate sleep `delay` first (0 unless set), so
  /// that callers on several threads overlap. Both may be called on several threads at once.
  static void set_object_create_delay(std::chrono::milliseconds delay);

  /// OpenGL interop (SDK 1.9): a registered GL object is a resource numbered from 0x6100 (by
  /// 0x100), recorded with its flags by name ("flags=write_discard|surface_ldst"). A mapped
  /// buffer lies at 0xc00000 + the resource, of gl_buffer_size bytes (4096 unless set); a
  /// mapped texture's array at level L is 0x100000 + the resource + L, its mipmapped array
  /// 0x200000 + the resource, whose level L is that + L. Mapping a mapped
  /// resource fails with CUDA_ERROR_ALREADY_MAPPED; getting a pointer or array of, or
  /// unmapping, one that is not mapped, with CUDA_ERROR_NOT_MAPPED.
  static void set_gl_buffer_size(std::size_t size);
  /// What cuGLGetDevices_v2 answers: `devices` (device 0 unless set) and `result`.
  static void set_gl_devices(std::vector<CUdevice> devices, CUresult result = CUDA_SUCCESS);
  /// Makes the next call of the graphics function `function` (named as recorded:
  /// "cuGraphicsResourceGetMappedPointer") fail with `result`, having done nothing.
  static void fail_next(const std::string& function, CUresult result);
  /// Removes the graphics interop functions from the table, as a driver without them.
  static void remove_gl_functions();
  /// Whether resource `resource` is registered and mapped.
  static bool gl_mapped(CUgraphicsResource resource);
  /// How many GL objects are registered (not yet unregistered).
  static std::size_t gl_registered();
};

}  // namespace plinth::cuda::test
