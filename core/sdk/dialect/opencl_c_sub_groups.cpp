// The dialect's sub-groups in OpenCL C (docs/kernel-dialect.md, "Sub-groups"), one text for
// every device: where the compiler offers sub-groups with shuffles (PLINTH_CL_SUB_GROUPS, see
// opencl_c.cpp), cl_khr_subgroups' functions, Intel's shuffles (cl_intel_subgroups: what
// SPIR-V 1.2 has) or else Khronos' (cl_khr_subgroup_shuffle, _shuffle_relative), and a ballot
// made of a reduction (which needs no cl_khr_subgroup_ballot, a SPIR-V 1.3 operation);
// elsewhere every work-item is a sub-group of its own, of size 1. Some compilers declare
// cl_khr_subgroups' functions without the extension (PoCL): the size-1 forms of the names
// OpenCL has are function-like macros, which shadow them.

#include "dialect_tables.hpp"
#include "opencl_c_parts.hpp"

#include <string_view>

namespace plinth::backend::dialect {

namespace {

constexpr std::string_view native_common = R"(
// ---- sub-groups: the device's
// get_sub_group_size(), get_max_sub_group_size(), get_num_sub_groups(), get_sub_group_id(),
// get_sub_group_local_id(), sub_group_any() and sub_group_all() are OpenCL's own.
#define SUB_GROUP_BARRIER sub_group_barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)
#if defined(cl_intel_subgroups)
// Declared again: clang declares OpenCL's functions from its own table (for spir64 too), which
// lacks Intel's.
#define PLINTH_CL_INTEL_SHUFFLES(T)                                                            \
  T __attribute__((overloadable, convergent)) intel_sub_group_shuffle(T, uint);               \
  T __attribute__((overloadable, convergent)) intel_sub_group_shuffle_xor(T, uint);           \
  T __attribute__((overloadable, convergent)) intel_sub_group_shuffle_up(T, T, uint);         \
  T __attribute__((overloadable, convergent)) intel_sub_group_shuffle_down(T, T, uint);
PLINTH_CL_INTEL_SHUFFLES(int)
PLINTH_CL_INTEL_SHUFFLES(uint)
PLINTH_CL_INTEL_SHUFFLES(long)
PLINTH_CL_INTEL_SHUFFLES(ulong)
PLINTH_CL_INTEL_SHUFFLES(float)
#if defined(cl_khr_fp64)
PLINTH_CL_INTEL_SHUFFLES(double)
#endif
#define PLINTH_CL_SHUFFLE(x, lane) intel_sub_group_shuffle(x, lane)
#define PLINTH_CL_SHUFFLE_XOR(x, mask) intel_sub_group_shuffle_xor(x, mask)
#define PLINTH_CL_SHUFFLE_UP(x, delta) intel_sub_group_shuffle_up(x, x, delta)
#define PLINTH_CL_SHUFFLE_DOWN(x, delta) intel_sub_group_shuffle_down(x, x, delta)
#else
#define PLINTH_CL_SHUFFLE(x, lane) sub_group_shuffle(x, lane)
#define PLINTH_CL_SHUFFLE_XOR(x, mask) sub_group_shuffle_xor(x, mask)
#define PLINTH_CL_SHUFFLE_UP(x, delta) sub_group_shuffle_up(x, delta)
#define PLINTH_CL_SHUFFLE_DOWN(x, delta) sub_group_shuffle_down(x, delta)
#endif
// A sum of distinct bits is their union (sub-groups have at most 64 work-items).
PLINTH_CL_FN unsigned long plinth_sub_group_ballot(int predicate) {
  return sub_group_reduce_add(predicate != 0 ? (unsigned long)1 << get_sub_group_local_id()
                                             : (unsigned long)0);
}
#define sub_group_ballot(predicate) plinth_sub_group_ballot(predicate)
)";

// A source outside the sub-group gives the work-item's own x; the vendors' functions are
// asked only for sources inside (or for the work-item itself), with uniform arguments where
// they need them.
constexpr std::string_view native_typed =
    R"(PLINTH_CL_FN $TY sub_group_broadcast_$SFX($TY x, unsigned int lane) {
  return lane < get_sub_group_size() ? sub_group_broadcast(x, lane) : x;
}
PLINTH_CL_FN $TY sub_group_shuffle_$SFX($TY x, unsigned int lane) {
  return PLINTH_CL_SHUFFLE(x, lane < get_sub_group_size() ? lane : get_sub_group_local_id());
}
PLINTH_CL_FN $TY sub_group_shuffle_up_$SFX($TY x, unsigned int delta) {
  const $TY value = PLINTH_CL_SHUFFLE_UP(x, delta < get_sub_group_size() ? delta : 0u);
  return delta <= get_sub_group_local_id() ? value : x;
}
PLINTH_CL_FN $TY sub_group_shuffle_down_$SFX($TY x, unsigned int delta) {
  const $TY value = PLINTH_CL_SHUFFLE_DOWN(x, delta < get_sub_group_size() ? delta : 0u);
  return delta < get_sub_group_size() - get_sub_group_local_id() ? value : x;
}
PLINTH_CL_FN $TY sub_group_shuffle_xor_$SFX($TY x, unsigned int mask) {
  const $TY value = PLINTH_CL_SHUFFLE_XOR(x, mask < get_max_sub_group_size() ? mask : 0u);
  return (get_sub_group_local_id() ^ mask) < get_sub_group_size() ? value : x;
}
)";

constexpr std::string_view native_group_op =
    R"(PLINTH_CL_FN $TY sub_group_reduce_$OP_$SFX($TY x) { return sub_group_reduce_$OP(x); }
PLINTH_CL_FN $TY sub_group_scan_inclusive_$OP_$SFX($TY x) { return sub_group_scan_inclusive_$OP(x); }
PLINTH_CL_FN $TY sub_group_scan_exclusive_$OP_$SFX($TY x) { return sub_group_scan_exclusive_$OP(x); }
)";

constexpr std::string_view emulated_common = R"(
// ---- sub-groups: every work-item is one, of size 1
#define get_sub_group_size() 1u
#define get_max_sub_group_size() 1u
#define get_num_sub_groups() \
  ((unsigned int)(get_local_size(0) * get_local_size(1) * get_local_size(2)))
#define get_sub_group_id()                                                              \
  ((unsigned int)(get_local_id(0) +                                                     \
                  get_local_size(0) * (get_local_id(1) + get_local_size(1) * get_local_id(2))))
#define get_sub_group_local_id() 0u
#define SUB_GROUP_BARRIER ((void)0)
#define sub_group_ballot(predicate) ((unsigned long)((predicate) != 0))
#define sub_group_any(predicate) ((int)((predicate) != 0))
#define sub_group_all(predicate) ((int)((predicate) != 0))
)";

constexpr std::string_view emulated_typed =
    R"(PLINTH_CL_FN $TY sub_group_broadcast_$SFX($TY x, unsigned int lane) { (void)lane; return x; }
PLINTH_CL_FN $TY sub_group_shuffle_$SFX($TY x, unsigned int lane) { (void)lane; return x; }
PLINTH_CL_FN $TY sub_group_shuffle_up_$SFX($TY x, unsigned int delta) { (void)delta; return x; }
PLINTH_CL_FN $TY sub_group_shuffle_down_$SFX($TY x, unsigned int delta) { (void)delta; return x; }
PLINTH_CL_FN $TY sub_group_shuffle_xor_$SFX($TY x, unsigned int mask) { (void)mask; return x; }
)";

constexpr std::string_view emulated_group_op =
    R"(PLINTH_CL_FN $TY sub_group_reduce_$OP_$SFX($TY x) { return x; }
PLINTH_CL_FN $TY sub_group_scan_inclusive_$OP_$SFX($TY x) { return x; }
PLINTH_CL_FN $TY sub_group_scan_exclusive_$OP_$SFX($TY x) { (void)x; return $IDENTITY; }
)";

/// The identity of `op` for `scalar`: what an exclusive scan gives the first work-item.
std::string_view identity(const Scalar& scalar, std::string_view op) {
  if (op == "add") return scalar.is_float ? (scalar.bits == 64 ? "0.0" : "0.0f") : "0";
  const bool min = op == "min";
  if (scalar.is_float) return min ? "INFINITY" : "-INFINITY";
  if (scalar.suffix == "int") return min ? "INT_MAX" : "INT_MIN";
  if (scalar.suffix == "uint") return min ? "UINT_MAX" : "0u";
  if (scalar.suffix == "long") return min ? "LONG_MAX" : "LONG_MIN";
  return min ? "ULONG_MAX" : "0ul";
}

void append_typed(std::string& text, bool native) {
  for (const auto& scalar : scalars) {
    const bool fp64 = scalar.suffix == "double";
    if (fp64) text += "#if defined(cl_khr_fp64)\n";
    text += expand(native ? native_typed : emulated_typed,
                   {{"TY", scalar.ctype}, {"SFX", scalar.suffix}});
    for (const auto op : group_ops) {
      text += expand(native ? native_group_op : emulated_group_op,
                     {{"TY", scalar.ctype},
                      {"SFX", scalar.suffix},
                      {"OP", op},
                      {"IDENTITY", identity(scalar, op)}});
    }
    if (fp64) text += "#endif\n";
  }
}

}  // namespace

std::string opencl_c_sub_groups() {
  std::string text = "#if defined(PLINTH_CL_SUB_GROUPS)\n";
  text += native_common;
  append_typed(text, true);
  text += "#else\n";
  text += emulated_common;
  append_typed(text, false);
  text += "#endif\n";
  return text;
}

}  // namespace plinth::backend::dialect
