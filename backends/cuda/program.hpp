#pragma once

#include <plinth/backend/program.hpp>
#include <plinth/backend/types.hpp>

#include <cuda.h>

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace plinth::cuda {

class ContextState;

/// An architecture NVRTC compiles for: a CUBIN for sm_<arch>, or PTX for compute_<arch>
/// (arch 90: compute capability 9.0).
struct NvrtcTarget {
  int arch = 0;
  bool ptx = false;
};

/// The architectures NVRTC compiles for (nvrtcGetSupportedArchs), ascending. Throws
/// BackendError; any thread may call it.
const std::vector<int>& nvrtc_archs();

/// What a device of compute capability `capability` (e.g. 90) gets: a CUBIN for it when
/// NVRTC knows it, else PTX for the newest architecture it knows below it (arch 0: none).
NvrtcTarget nvrtc_target(int capability);

/// "sm_90" or "compute_90".
std::string target_name(NvrtcTarget target);

/// What NVRTC compiled: a CUBIN, or PTX text with NVRTC's terminating NUL.
struct CompiledImage {
  NvrtcTarget target;
  std::vector<char> data;
  std::vector<std::string> options;  // NVRTC's, for error messages
  std::string log;                   // NVRTC's log (warnings), without trailing NULs
};

/// The source NVRTC compiles: the prelude, `__constant__ <ctype> <name>[<length>];` for each
/// constant array (so that the prelude's types can be used in them), then the user's source.
/// Leaves it in `build.keep` as program.cu when that is set.
std::string full_source(const backend::ProgramInput& input, const backend::BuildOptions& build);

/// Compiles `source` (from full_source()) with NVRTC for `target`, with the build's fast-math
/// and compiler options; calls no driver function, so it needs no device or context. Leaves
/// program_<target>.log and .cubin/.ptx in `build.keep` when that is set. Throws CompileError
/// (naming `where`, a device or target) when NVRTC refuses the source, BackendError when NVRTC
/// fails otherwise. Any thread may call it, concurrently: every call has its own NVRTC program.
CompiledImage compile(const std::string& source, NvrtcTarget target,
                      const backend::BuildOptions& build, const std::string& where);

/// The CUmodules of a program, one per program device (each loaded in that device's
/// context); shared with its kernels so that they keep their module alive.
struct Modules {
  std::shared_ptr<ContextState> state;
  std::vector<std::size_t> devices;  // the context's index of each program device
  std::vector<CUmodule> modules;

  Modules() = default;
  ~Modules();
  Modules(const Modules&) = delete;
  Modules& operator=(const Modules&) = delete;
};

/// NVRTC-compiled source: one CUBIN per distinct compute capability among the devices (PTX
/// for the newest architecture NVRTC knows when it does not know the device's); or images
/// from Program::binary() loaded again.
class Program final : public backend::ProgramAdapter {
 public:
  /// Compiles `input` (source) or loads it (binary). Throws CompileError.
  Program(std::shared_ptr<ContextState> state, std::span<const std::size_t> devices,
          const backend::ProgramInput& input, const backend::BuildOptions& options);

  std::unique_ptr<backend::KernelAdapter> create_kernel(std::size_t device,
                                                        const std::string& name) override;
  void set_constant_array(std::size_t device, backend::QueueAdapter& queue, const std::string& name,
                          backend::BufferAdapter& src, std::size_t size) override;
  backend::NativeHandle native_handle(std::size_t device) const override;
  /// The CUBIN or PTX image of program device `device`.
  std::vector<std::byte> binary(std::size_t device) const override;

 private:
  std::shared_ptr<Modules> modules_;
  std::vector<std::shared_ptr<const std::vector<char>>> images_;  // per program device
};

}  // namespace plinth::cuda
