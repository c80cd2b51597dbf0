#pragma once

// One kernel that calls every function of the kernel dialect's atomics, fences, sub-groups
// and vector loads (docs/kernel-dialect.md) for every type and memory space, for the backends'
// compile tests (tests/backends/cuda, tests/backends/hip). The names are written out here
// from the doc, independently of the prelude's generator (core/sdk/dialect/), so that a
// function the generator leaves out fails to compile.

#include <array>
#include <string>
#include <string_view>

namespace plinth::dialect_test {

/// The dialect's scalar types: the suffix in function names and the C type.
struct DialectScalar {
  std::string_view suffix;
  std::string_view ctype;
  bool is_float;
};

inline constexpr std::array<DialectScalar, 6> dialect_scalars{{
    {"int", "int", false},
    {"uint", "unsigned int", false},
    {"long", "long", false},
    {"ulong", "unsigned long", false},
    {"float", "float", true},
    {"double", "double", true},
}};

/// The element types of vload/vstore: the C type and its vector types' prefix.
inline constexpr std::array<std::pair<std::string_view, std::string_view>, 10> dialect_elements{{
    {"char", "char"},
    {"unsigned char", "uchar"},
    {"short", "short"},
    {"unsigned short", "ushort"},
    {"int", "int"},
    {"unsigned int", "uint"},
    {"long", "long"},
    {"unsigned long", "ulong"},
    {"float", "float"},
    {"double", "double"},
}};

/// The source of the kernel `every_function`: for each scalar type, a global buffer
/// `g_<suffix>` and a local array `l_<suffix>` on which every atomic, ordered load and store
/// and sub-group operation is called, with the results summed into the global buffer (so
/// that nothing is optimised away); every fence and barrier; vload2/vload4/vstore2/vstore4
/// of every element type on global and local memory.
inline std::string dialect_kernel_source() {
  std::string params, body, locals;
  const auto add = [&](std::string& to, std::string_view text, std::string_view suffix,
                       std::string_view ctype, std::string_view space = "") {
    for (std::size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '@') {
        to += suffix;
      } else if (text[i] == '%') {
        to += ctype;
      } else if (text[i] == '!') {
        to += space;
      } else {
        to += text[i];
      }
    }
  };
  for (const auto& t : dialect_scalars) {
    add(params, ", GLOBAL_MEM % *g_@", t.suffix, t.ctype);
    add(locals, "    LOCAL_MEM % l_@[64];\n    l_@[get_local_id(0)] = (%)1;\n", t.suffix, t.ctype);
    add(body, "    {\n        % acc = (%)0;\n        const % v = (%)get_local_id(0);\n", t.suffix,
        t.ctype);
    for (std::string_view space : {"global", "local"}) {
      const std::string pointer =
          std::string(space == "global" ? "g_" : "l_") + std::string(t.suffix) + " + 1";
      std::string ops = t.is_float ? "add sub min max xchg" : "add sub min max and or xor xchg";
      std::size_t start = 0;
      while (start < ops.size()) {
        std::size_t end = ops.find(' ', start);
        if (end == std::string::npos) end = ops.size();
        body += "        acc += atomic_" + ops.substr(start, end - start) + "_";
        add(body, "!_@(" + pointer + ", v);\n", t.suffix, t.ctype, space);
        start = end + 1;
      }
      add(body, "        acc += atomic_cmpxchg_!_@(" + pointer + ", v, acc);\n", t.suffix, t.ctype,
          space);
      add(body,
          "        acc += atomic_load_!_@(" + pointer +
              ", MEM_ORDER_RELAXED);\n"
              "        acc += atomic_load_!_@(" +
              pointer +
              ", MEM_ORDER_ACQUIRE);\n"
              "        atomic_store_!_@(" +
              pointer +
              ", acc, MEM_ORDER_RELAXED);\n"
              "        atomic_store_!_@(" +
              pointer + ", acc, MEM_ORDER_RELEASE);\n",
          t.suffix, t.ctype, space);
    }
    for (std::string_view shuffle :
         {"broadcast", "shuffle", "shuffle_up", "shuffle_down", "shuffle_xor"})
      add(body, "        acc += sub_group_" + std::string(shuffle) + "_@(v, 1u);\n", t.suffix,
          t.ctype);
    for (std::string_view kind : {"reduce", "scan_inclusive", "scan_exclusive"})
      for (std::string_view op : {"add", "min", "max"})
        add(body,
            "        acc += sub_group_" + std::string(kind) + "_" + std::string(op) + "_@(v);\n",
            t.suffix, t.ctype);
    add(body, "        g_@[get_global_id(0)] = acc + l_@[get_local_id(0) ^ 1];\n    }\n", t.suffix,
        t.ctype);
  }
  for (const auto& [ctype, prefix] : dialect_elements) {
    add(params, ", GLOBAL_MEM % *v_@", prefix, ctype);
    add(locals, "    LOCAL_MEM % lv_@[64];\n", prefix, ctype);
    add(body,
        "    {\n"
        "        const @2 a = vload2(get_local_id(0), v_@);\n"
        "        const @4 b = vload4(1, (const GLOBAL_MEM % *)v_@);\n"
        "        vstore2(a, 3, lv_@);\n"
        "        vstore4(b, 2, lv_@);\n"
        "        LOCAL_BARRIER;\n"
        "        const @2 c = vload2(1, lv_@);\n"
        "        const @4 d = vload4(0, lv_@ + 1);\n"
        "        vstore2(c, get_global_id(0), v_@ + 1);\n"
        "        vstore4(d, get_global_id(0), v_@);\n"
        "    }\n",
        prefix, ctype);
  }
  std::string fences;
  for (std::string_view order :
       {"MEM_ORDER_RELAXED", "MEM_ORDER_ACQUIRE", "MEM_ORDER_RELEASE", "MEM_ORDER_ACQ_REL"})
    for (std::string_view scope : {"MEM_SCOPE_WORK_GROUP", "MEM_SCOPE_DEVICE"})
      fences += "    atomic_fence(" + std::string(order) + ", " + std::string(scope) + ");\n";
  return "KERNEL void every_function(GLOBAL_MEM unsigned long *info" + params + ")\n{\n" + locals +
         "    LOCAL_BARRIER;\n" + body + fences +
         "    LOCAL_GLOBAL_BARRIER;\n"
         "    SUB_GROUP_BARRIER;\n"
         "    info[get_global_id(0)] = get_sub_group_size() + get_max_sub_group_size() +\n"
         "        get_num_sub_groups() + get_sub_group_id() + get_sub_group_local_id() +\n"
         "        sub_group_ballot(get_local_id(0) & 1) + sub_group_any(get_local_id(0) == 3) +\n"
         "        sub_group_all(get_local_id(0) < 100);\n"
         "}\n";
}

}  // namespace plinth::dialect_test
