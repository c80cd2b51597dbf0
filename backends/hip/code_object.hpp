#pragma once

// AMD GPU code objects (what hiprtc makes and hipModuleLoadData takes): recognising one, and
// reading its kernels' parameters from the metadata the compiler puts in it (through comgr),
// since the HIP 5.2 runtime cannot introspect a kernel's parameters. No HIP runtime call: any
// thread may call these.

#include <plinth/backend/types.hpp>

#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace plinth::hip {

/// ELF e_machine of AMD GPU code objects.
inline constexpr unsigned em_amdgpu = 224;
/// ELF e_ident[EI_OSABI] of code objects for the HSA runtime (what HIP loads).
inline constexpr unsigned elfosabi_amdgpu_hsa = 64;

/// "" when `bytes` start like an AMD GPU code object for HSA (a 64-bit little-endian ELF file
/// of machine EM_AMDGPU, OS ABI AMDGPU_HSA); otherwise what they are not. Checks the header
/// only: binary_image_problem() checks the rest.
std::string code_object_problem(std::span<const std::byte> bytes);

/// A kernel of a code object, as its metadata describes it.
struct KernelInfo {
  std::string name;
  /// The parameters the source declares (not the hidden ones the compiler appends, which the
  /// runtime fills): ParamKind::unknown, since a pointer and a 64-bit scalar look alike there,
  /// with their size in bytes, and the name and type where the metadata has them.
  std::vector<backend::ParamInfo> parameters;
  std::size_t max_flat_workgroup_size = 0;  ///< 0 if the metadata does not say
};

/// The kernels of the code object `code` (metadata of code object version 3 and later).
/// Throws BackendError when comgr cannot read it, LogicError when it has no kernel metadata.
std::vector<KernelInfo> read_kernels(std::span<const std::byte> code);

}  // namespace plinth::hip
