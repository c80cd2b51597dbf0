#pragma once

// The kernels of a SPIR-V module and their parameters, read from the module itself: Level
// Zero reports only a parameter count (zeKernelGetProperties), the module says the rest (the
// storage class of pointers, the size of values), so the core checks arguments as fully as on
// OpenCL. The module may come from the user (ProgramInputKind::spirv): every malformed input is
// a LogicError, never a crash or a read out of bounds (fuzz-spirv_reflection). No Level Zero
// call: any thread may call it.

#include <plinth/backend/types.hpp>

#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace plinth::level_zero {

/// One kernel (an OpEntryPoint of the Kernel execution model) and its parameters in order:
/// global_ptr (CrossWorkgroup), constant_ptr (UniformConstant), local_ptr (Workgroup), scalar
/// (values, structs passed ByVal, with their size), image (OpTypeImage; type_name "image2d_t",
/// "image1d_array_t"... from its Dim and Arrayed) and sampler (OpTypeSampler, "sampler_t"), both
/// the size of a Level Zero handle, unknown (size 0) for what cannot be sized.
struct KernelSignature {
  std::string name;
  std::vector<backend::ParamInfo> parameters;
};

/// Every kernel of `module` (the bytes of a SPIR-V module, either endianness). Throws
/// LogicError naming what is wrong for input that is not a well-formed SPIR-V module.
std::vector<KernelSignature> reflect_kernels(std::span<const std::byte> module);

}  // namespace plinth::level_zero
