#pragma once

#include <plinth/backend/kernel.hpp>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace plinth::backend {

class BufferAdapter;
class QueueAdapter;

/// A program built for some devices of a context (ContextAdapter::build_program).
class ProgramAdapter {
 public:
  virtual ~ProgramAdapter() = default;
  /// A new kernel object for `name` on the program's device `device` (an index into the
  /// device list the program was built for). Throws LogicError if there is no such kernel.
  virtual std::unique_ptr<KernelAdapter> create_kernel(std::size_t device,
                                                       const std::string& name) = 0;
  /// Copies `size` bytes from `src` into the constant array `name` (declared through
  /// BuildOptions::constant_arrays) on device `device`, in `queue`'s order.
  /// Backends that pass constant arrays as kernel arguments throw LogicError.
  virtual void set_constant_array(std::size_t device, QueueAdapter& queue, const std::string& name,
                                  BufferAdapter& src, std::size_t size) = 0;
  /// cl_program, CUmodule (of device `device`), ...
  virtual NativeHandle native_handle(std::size_t device) const = 0;

  // ---- SDK 1.1: called only on plugins of ABI 1.1 or later --------------------------------

  /// What create_program() takes back as ProgramInputKind::binary to recreate this program
  /// on device `device` without compiling (a cubin, CL_PROGRAM_BINARIES, a code object), for
  /// Program::binary() (and the on-disk program cache planned on it). Optional: the default,
  /// an empty vector, means the backend cannot hand out binaries. Throws BackendError.
  virtual std::vector<std::byte> binary(std::size_t /*device*/) const { return {}; }
};

}  // namespace plinth::backend
