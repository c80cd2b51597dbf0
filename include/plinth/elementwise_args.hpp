#pragma once

/// \file
/// C argument lists (PyCUDA's `"float a, float *x, const float *y"`) as the ElementwiseArgs
/// of ElementwiseKernel, ReductionKernel and the kernels built on them.

#include <plinth/elementwise.hpp>
#include <plinth/export.hpp>

#include <string_view>
#include <vector>

namespace plinth {

/// The arguments a C parameter list declares, as PyCUDA's ElementwiseKernel and ReductionKernel
/// take them: `"float a, float *x, const float *y"`, in order. A declaration with one `*` (or a
/// trailing `[]`) is an array argument: ElementwiseArg::input where the element type is
/// `const`, `pointer_kind` otherwise (inout by default, which is right whatever the operation
/// does with the array; output saves reading it where the operation only writes it); without
/// one it is a scalar. The qualifiers `const`, `volatile`, `restrict`, `__restrict__`,
/// `GLOBAL_MEM` and `__global` are ignored elsewhere. Element types are the dialect's scalar
/// C types as ctype() writes them and their usual spellings: `bool`; `char`, `signed char`,
/// `int8_t` (int8); `unsigned char`, `uchar`, `uint8_t`; `short`, `int16_t`; `unsigned short`,
/// `ushort`, `uint16_t`; `int`, `signed`, `int32_t`; `unsigned int`, `unsigned`, `uint`,
/// `uint32_t`; `long`, `long long`, `int64_t` (int64: the dialect's `long` is 64 bits);
/// `unsigned long`, `unsigned long long`, `ulong`, `uint64_t`, `size_t` (uint64); `half`
/// (float16); `float`; `double`; `plinth_complex64`, `plinth_complex128`. Empty declarations
/// (an empty string, a trailing comma) are skipped. Throws LogicError naming the declaration
/// for an unknown type, a missing or invalid name, or more than one `*`; and if `pointer_kind`
/// is scalar. Names and dtypes are checked by the kernels' constructors, as for any
/// ElementwiseArg.
PLINTH_EXPORT std::vector<ElementwiseArg> parse_elementwise_args(
    std::string_view declarations, ElementwiseArg::Kind pointer_kind = ElementwiseArg::Kind::inout);

}  // namespace plinth
