// The dialect's atomics, ordered loads and stores, and fences in OpenCL C
// (docs/kernel-dialect.md, "Atomics", "Fences and barriers"), one text for every device:
// - read-modify-write atomics are OpenCL C 1.2's relaxed atomic_* (32 bits) and atom_*
//   (64 bits, cl_khr_int64_base_atomics and cl_khr_int64_extended_atomics), which OpenCL C 2.0
//   and 3.0 keep; float and double ones other than xchg are compare-and-swap loops on the bit
//   pattern;
// - ordered loads and stores and fences are atomic_load_explicit, atomic_store_explicit and
//   atomic_work_item_fence where the program is OpenCL C 2.0, or 3.0 with acquire/release and
//   device scope (PLINTH_CL_ORDERED_ATOMICS); otherwise volatile accesses and mem_fence at
//   work-group scope, and at device scope with acquire or release the identifier
//   plinth_unsupported__<operation>, which the build's error names.
// ORDER and SCOPE are pasted into the implementation's name, so that only the literal names
// compile.

#include "dialect_tables.hpp"
#include "opencl_c_parts.hpp"

#include <span>
#include <string_view>

namespace plinth::backend::dialect {

namespace {

/// What the OpenCL C text of one scalar type needs.
struct ClType {
  std::string_view condition;  ///< when the atomics exist (a preprocessor expression)
  std::string_view bits;       ///< the integer type the atomics work on
  std::string_view to_bits;    ///< a function from the type to `bits` ("" for integers)
  std::string_view from_bits;  ///< and back
  std::string_view rmw;        ///< the prefix of the read-modify-write built-ins
  std::string_view c11;        ///< the C11 atomic type of `bits`
};

ClType cl_type(const Scalar& scalar) {
  if (scalar.suffix == "float")
    return {"1", "uint", "as_uint", "as_float", "atomic_", "atomic_uint"};
  if (scalar.suffix == "double")
    return {"defined(PLINTH_CL_DOUBLE_ATOMICS)",
            "ulong",
            "as_ulong",
            "as_double",
            "atom_",
            "atomic_ulong"};
  if (scalar.bits == 64) {
    return {"defined(PLINTH_CL_INT64_ATOMICS)",
            scalar.suffix,
            "",
            "",
            "atom_",
            scalar.is_signed ? "atomic_long" : "atomic_ulong"};
  }
  return {"1", scalar.suffix, "", "", "atomic_", scalar.is_signed ? "atomic_int" : "atomic_uint"};
}

constexpr std::string_view integer_rmw =
    R"(PLINTH_CL_FN $TY atomic_$OP_$SP_$SFX($Q $TY *p, $TY value) {
  return $RMW$OP((volatile $Q $TY *)p, value);
}
)";

constexpr std::string_view cmpxchg =
    R"(PLINTH_CL_FN $TY atomic_cmpxchg_$SP_$SFX($Q $TY *p, $TY expected, $TY desired) {
  return $FROM($RMWcmpxchg((volatile $Q $BITS *)p, $TO(expected), $TO(desired)));
}
)";

constexpr std::string_view float_xchg =
    R"(PLINTH_CL_FN $TY atomic_xchg_$SP_$SFX($Q $TY *p, $TY value) {
  return $FROM($RMWxchg((volatile $Q $BITS *)p, $TO(value)));
}
)";

// add and sub: a new value from the old one until no other work-item came between.
constexpr std::string_view float_arithmetic =
    R"(PLINTH_CL_FN $TY atomic_$OP_$SP_$SFX($Q $TY *p, $TY value) {
  volatile $Q $BITS *bits = (volatile $Q $BITS *)p;
  $BITS old = *bits;
  for (;;) {
    const $BITS assumed = old;
    old = $RMWcmpxchg(bits, assumed, $TO($FROM(assumed) $SIGN value));
    if (old == assumed) return $FROM(old);
  }
}
)";

// min and max: store only while `value` is smaller (larger), so a NaN never replaces anything.
constexpr std::string_view float_extremum =
    R"(PLINTH_CL_FN $TY atomic_$OP_$SP_$SFX($Q $TY *p, $TY value) {
  volatile $Q $BITS *bits = (volatile $Q $BITS *)p;
  $BITS old = *bits;
  while (value $SIGN $FROM(old)) {
    const $BITS assumed = old;
    old = $RMWcmpxchg(bits, assumed, $TO(value));
    if (old == assumed) break;
  }
  return $FROM(old);
}
)";

constexpr std::string_view unsupported_rmw =
    "#define atomic_$OP_$SP_$SFX(p, value) plinth_unsupported__atomic_$OP_$SP_$SFX\n";
constexpr std::string_view unsupported_cmpxchg =
    "#define atomic_cmpxchg_$SP_$SFX(p, expected, desired) "
    "plinth_unsupported__atomic_cmpxchg_$SP_$SFX\n";

// Ordered loads and stores: the dialect's names paste the order into the implementation's.
constexpr std::string_view ordered_names =
    R"(#define atomic_load_$SP_$SFX(p, order) plinth_atomic_load_$SP_$SFX_##order(p)
#define atomic_store_$SP_$SFX(p, value, order) plinth_atomic_store_$SP_$SFX_##order(p, value)
)";

constexpr std::string_view c11_load =
    R"(PLINTH_CL_FN $TY plinth_atomic_load_$SP_$SFX_MEM_ORDER_$ORDER($Q $TY *p) {
  return $FROM(atomic_load_explicit((volatile $Q $C11 *)p, memory_order_$ord, $SCOPE));
}
)";
constexpr std::string_view c11_store =
    R"(PLINTH_CL_FN void plinth_atomic_store_$SP_$SFX_MEM_ORDER_$ORDER($Q $TY *p, $TY value) {
  atomic_store_explicit((volatile $Q $C11 *)p, $TO(value), memory_order_$ord, $SCOPE);
}
)";

// OpenCL C 1.2: an aligned volatile access is atomic on every device; mem_fence orders the
// work-item's accesses, which is acquire and release within the work-group.
constexpr std::string_view legacy_load =
    R"(PLINTH_CL_FN $TY plinth_atomic_load_$SP_$SFX_MEM_ORDER_$ORDER($Q $TY *p) {
  const $TY value = *(volatile $Q $TY *)p;$FENCE
  return value;
}
)";
constexpr std::string_view legacy_store =
    R"(PLINTH_CL_FN void plinth_atomic_store_$SP_$SFX_MEM_ORDER_$ORDER($Q $TY *p, $TY value) {$FENCE
  *(volatile $Q $TY *)p = value;
}
)";
constexpr std::string_view legacy_fence =
    "\n  mem_fence(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);";

constexpr std::string_view unsupported_load =
    "#define plinth_atomic_load_$SP_$SFX_MEM_ORDER_$ORDER(p) "
    "plinth_unsupported__atomic_load_$SP_$SFX$WHY\n";
constexpr std::string_view unsupported_store =
    "#define plinth_atomic_store_$SP_$SFX_MEM_ORDER_$ORDER(p, value) "
    "plinth_unsupported__atomic_store_$SP_$SFX$WHY\n";

constexpr std::string_view fences = R"(
#define atomic_fence(order, scope) plinth_atomic_fence_##order##_##scope()
#define plinth_atomic_fence_MEM_ORDER_RELAXED_MEM_SCOPE_WORK_GROUP() ((void)0)
#define plinth_atomic_fence_MEM_ORDER_RELAXED_MEM_SCOPE_DEVICE() ((void)0)
#if defined(PLINTH_CL_ORDERED_ATOMICS)
#define PLINTH_CL_FENCE(order, scope)                                                         \
  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE, memory_order_##order,  \
                         memory_scope_##scope)
#define plinth_atomic_fence_MEM_ORDER_ACQUIRE_MEM_SCOPE_WORK_GROUP() PLINTH_CL_FENCE(acquire, work_group)
#define plinth_atomic_fence_MEM_ORDER_RELEASE_MEM_SCOPE_WORK_GROUP() PLINTH_CL_FENCE(release, work_group)
#define plinth_atomic_fence_MEM_ORDER_ACQ_REL_MEM_SCOPE_WORK_GROUP() PLINTH_CL_FENCE(acq_rel, work_group)
#define plinth_atomic_fence_MEM_ORDER_ACQUIRE_MEM_SCOPE_DEVICE() PLINTH_CL_FENCE(acquire, device)
#define plinth_atomic_fence_MEM_ORDER_RELEASE_MEM_SCOPE_DEVICE() PLINTH_CL_FENCE(release, device)
#define plinth_atomic_fence_MEM_ORDER_ACQ_REL_MEM_SCOPE_DEVICE() PLINTH_CL_FENCE(acq_rel, device)
#else
#define PLINTH_CL_FENCE() mem_fence(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)
#define plinth_atomic_fence_MEM_ORDER_ACQUIRE_MEM_SCOPE_WORK_GROUP() PLINTH_CL_FENCE()
#define plinth_atomic_fence_MEM_ORDER_RELEASE_MEM_SCOPE_WORK_GROUP() PLINTH_CL_FENCE()
#define plinth_atomic_fence_MEM_ORDER_ACQ_REL_MEM_SCOPE_WORK_GROUP() PLINTH_CL_FENCE()
#define plinth_atomic_fence_MEM_ORDER_ACQUIRE_MEM_SCOPE_DEVICE() plinth_unsupported__atomic_fence_device_acquire
#define plinth_atomic_fence_MEM_ORDER_RELEASE_MEM_SCOPE_DEVICE() plinth_unsupported__atomic_fence_device_release
#define plinth_atomic_fence_MEM_ORDER_ACQ_REL_MEM_SCOPE_DEVICE() plinth_unsupported__atomic_fence_device_acq_rel
#endif
)";

struct Order {
  std::string_view name;  ///< as in MEM_ORDER_<name>
  std::string_view c11;   ///< as in memory_order_<c11>
  bool is_load;
};
constexpr std::array<Order, 4> orders{{
    {"RELAXED", "relaxed", true},
    {"ACQUIRE", "acquire", true},
    {"RELAXED", "relaxed", false},
    {"RELEASE", "release", false},
}};

// The read-modify-write atomics of one type and space.
void append_rmw(std::string& text, const Scalar& scalar, const ClType& type, std::string_view space,
                std::string_view qualifier, bool supported) {
  const auto sub = [&](std::string_view pattern, std::string_view op, std::string_view sign) {
    text += expand(pattern, {{"TY", scalar.ctype},
                             {"OP", op},
                             {"SP", space},
                             {"SFX", scalar.suffix},
                             {"Q", qualifier},
                             {"BITS", type.bits},
                             {"TO", type.to_bits},
                             {"FROM", type.from_bits},
                             {"RMW", type.rmw},
                             {"SIGN", sign}});
  };
  if (!supported) {
    for (const auto op : scalar.is_float ? std::span<const std::string_view>(float_atomic_ops)
                                         : std::span<const std::string_view>(integer_atomic_ops))
      sub(unsupported_rmw, op, "");
    sub(unsupported_cmpxchg, "", "");
    return;
  }
  if (scalar.is_float) {
    sub(float_arithmetic, "add", "+");
    sub(float_arithmetic, "sub", "-");
    sub(float_extremum, "min", "<");
    sub(float_extremum, "max", ">");
    sub(float_xchg, "xchg", "");
  } else {
    for (const auto op : integer_atomic_ops) sub(integer_rmw, op, "");
  }
  sub(cmpxchg, "", "");
}

// The ordered loads and stores of one type and space: `mode` 0 for C11, 1 for OpenCL C 1.2,
// 2 for none at all.
void append_ordered(std::string& text, const Scalar& scalar, const ClType& type,
                    std::string_view space, std::string_view qualifier, int mode) {
  const bool global = space == "global";
  for (const auto& order : orders) {
    const bool relaxed = order.name == "RELAXED";
    std::string_view pattern;
    std::string_view why;
    std::string_view fence;
    if (mode == 0) {
      pattern = order.is_load ? c11_load : c11_store;
    } else if (mode == 2) {
      pattern = order.is_load ? unsupported_load : unsupported_store;
    } else if (relaxed || !global) {
      pattern = order.is_load ? legacy_load : legacy_store;
      if (!relaxed) fence = legacy_fence;
    } else {
      pattern = order.is_load ? unsupported_load : unsupported_store;
      why = order.is_load ? "_acquire" : "_release";
    }
    text += expand(pattern, {{"TY", scalar.ctype},
                             {"SP", space},
                             {"SFX", scalar.suffix},
                             {"Q", qualifier},
                             {"ORDER", order.name},
                             {"ord", order.c11},
                             {"C11", type.c11},
                             {"TO", type.to_bits},
                             {"FROM", type.from_bits},
                             {"SCOPE", global ? "memory_scope_device" : "memory_scope_work_group"},
                             {"FENCE", fence},
                             {"WHY", why}});
  }
}

}  // namespace

std::string opencl_c_atomics() {
  std::string text = "\n// ---- atomics\n";
  for (const auto& scalar : scalars) {
    const auto type = cl_type(scalar);
    const bool conditional = type.condition != "1";
    for (const auto& [space, qualifier] : spaces) {
      text += expand(ordered_names, {{"SP", space}, {"SFX", scalar.suffix}});
      if (conditional) {
        text += "#if ";
        text += type.condition;
        text += '\n';
      }
      append_rmw(text, scalar, type, space, qualifier, true);
      text += "#if defined(PLINTH_CL_ORDERED_ATOMICS)\n";
      append_ordered(text, scalar, type, space, qualifier, 0);
      text += "#else\n";
      append_ordered(text, scalar, type, space, qualifier, 1);
      text += "#endif\n";
      if (conditional) {
        text += "#else\n";
        append_rmw(text, scalar, type, space, qualifier, false);
        append_ordered(text, scalar, type, space, qualifier, 2);
        text += "#endif\n";
      }
    }
  }
  text += fences;
  return text;
}

}  // namespace plinth::backend::dialect
