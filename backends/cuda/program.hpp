#pragma once

#include <plinth/backend/program.hpp>

#include <cuda.h>

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace plinth::cuda {

class ContextState;

/// What NVRTC compiles for compute capability `capability` (e.g. 90): a CUBIN for it when
/// NVRTC knows it, else PTX for the newest architecture it knows below it (arch 0: none).
struct NvrtcTarget {
  int arch = 0;
  bool ptx = false;
};
NvrtcTarget nvrtc_target(int capability);

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
