#pragma once

#include "code_object.hpp"

#include <plinth/backend/program.hpp>

#include <hip/hip_runtime_api.h>

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace plinth::hip {

class ContextState;

/// The hipModule_t of a program on each program device (each loaded with its device current),
/// and the kernels' parameters read from the code objects' metadata; shared with the kernels
/// so that they keep their module loaded.
struct Modules {
  std::shared_ptr<ContextState> state;
  std::vector<std::size_t> devices;  // the context's index of each program device
  std::vector<hipModule_t> modules;
  std::vector<std::shared_ptr<const std::vector<KernelInfo>>> kernels;  // per program device

  Modules() = default;
  ~Modules();
  Modules(const Modules&) = delete;
  Modules& operator=(const Modules&) = delete;
};

/// hiprtc-compiled source: one code object per distinct architecture among the devices (the
/// exact target ID, gcnArchName); or code objects from Program::binary() loaded again.
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
  /// The code object of program device `device`.
  std::vector<std::byte> binary(std::size_t device) const override;

 private:
  std::shared_ptr<Modules> modules_;
  std::vector<std::shared_ptr<const std::vector<std::byte>>> images_;  // per program device
};

}  // namespace plinth::hip
