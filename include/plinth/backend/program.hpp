#pragma once

#include <plinth/backend/kernel.hpp>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace plinth::backend {

class BufferAdapter;
class QueueAdapter;

/// A program built for some devices of a context (ContextAdapter::create_program(), or
/// build_program() on 1.0 plugins).
///
/// Its `device` arguments are indices into the list the program was built for. Any thread
/// may call its methods, several at once. The core destroys its kernels first, and the
/// program before its context.
class ProgramAdapter {
 public:
  virtual ~ProgramAdapter() = default;
  /// A new, independent kernel object for the kernel `name` on the program's device
  /// `device`.
  ///
  /// The core calls it for every device of the program on each of these: Program::kernel(),
  /// every Kernel::prepare() and prepare_per_device(), a StaticKernel's creation, and a
  /// Kernel call while another thread is launching the same Kernel. Calls come from any
  /// thread, possibly at once, so it should be cheap. Throws LogicError if there is no such
  /// kernel (for a program from the compiled-program cache the core then builds the program
  /// from source again and retries). Since SDK 1.0; required.
  virtual std::unique_ptr<KernelAdapter> create_kernel(std::size_t device,
                                                       const std::string& name) = 0;
  /// Copies `size` bytes from `src` into the constant array `name` on device `device`, in
  /// `queue`'s order.
  ///
  /// Called by Program::set_constant_array(), on the thread using the queue. The core has
  /// checked that the program declares `name` (BuildOptions::constant_arrays), that `size` is
  /// the array's `length * itemsize` and `src`'s size, and that `src` and `queue` are on that
  /// device. Backends that pass constant arrays as kernel arguments throw LogicError. Throws
  /// BackendError. Since SDK 1.0; required.
  virtual void set_constant_array(std::size_t device, QueueAdapter& queue, const std::string& name,
                                  BufferAdapter& src, std::size_t size) = 0;
  /// cl_program, the CUmodule of device `device`, hipModule_t, ze_module_handle_t.
  ///
  /// Called by Program::native_handle(), from any thread. Since SDK 1.0; required.
  virtual NativeHandle native_handle(std::size_t device) const = 0;

  // ---- SDK 1.1: called only on plugins of ABI 1.1 or later --------------------------------

  /// What create_program() takes back as ProgramInputKind::binary to recreate this program
  /// on device `device` without compiling (a cubin, CL_PROGRAM_BINARIES, a code object).
  ///
  /// Called by Program::binary(), from any thread, and by the compiled-program cache
  /// (PLINTH_CACHE_DIR) after every build of a backend whose program_inputs() include
  /// `binary`. The cache later creates the program from these bytes instead of compiling, on
  /// a device with the same name, driver version and DeviceAdapter::compiler_identity(): the
  /// binary must therefore hold everything create_program() needs (every kernel, argument
  /// information), and create_program() must throw CompileError for an image it cannot load
  /// (the cache then removes the entry and compiles). The format is the backend's own; it
  /// should let create_program() recognise, and refuse, an image that is not its own or was
  /// built for another device, rather than hand it to the driver unchecked. Throws
  /// BackendError. Since SDK 1.1; optional: the default, an empty vector, means the backend
  /// cannot hand out binaries (Program::binary() then throws LogicError, and the program is
  /// simply not cached).
  virtual std::vector<std::byte> binary(std::size_t /*device*/) const { return {}; }
};

}  // namespace plinth::backend
