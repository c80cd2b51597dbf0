// Fuzzes the SPIR-V reader of the Level Zero backend: plinth::level_zero::reflect_kernels
// (backends/level_zero/spirv_reflection.hpp), which reads the kernels' parameters from a
// module that may come from the user (ProgramInputKind::spirv). Input: the module's bytes
// (libFuzzer's buffer is exactly that size, so AddressSanitizer sees any read beyond it).
// A LogicError is the answer to a malformed module; anything else escaping is a finding. Every
// kernel and parameter it returns comes from an instruction of the module, so there are fewer
// of them than words, and every size is one the module could describe.

#include "fuzz_common.hpp"

#include <plinth/errors.hpp>

#include "spirv_reflection.hpp"

#include <span>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<plinth::level_zero::KernelSignature> kernels;
  try {
    kernels = plinth::level_zero::reflect_kernels(std::as_bytes(std::span(data, size)));
  } catch (const plinth::LogicError&) {
    return 0;
  }
  const std::size_t words = size / 4;
  PLINTH_FUZZ_CHECK(kernels.size() <= words);
  for (const auto& kernel : kernels) {
    PLINTH_FUZZ_CHECK(kernel.name.size() < size);
    PLINTH_FUZZ_CHECK(kernel.parameters.size() <= words);
    for (const auto& param : kernel.parameters) {
      PLINTH_FUZZ_CHECK(param.name.size() < size);
      if (param.kind == plinth::backend::ParamKind::local_ptr ||
          param.kind == plinth::backend::ParamKind::unknown)
        PLINTH_FUZZ_CHECK(param.size == 0);
      else
        PLINTH_FUZZ_CHECK(param.size > 0);
    }
  }
  return 0;
}
