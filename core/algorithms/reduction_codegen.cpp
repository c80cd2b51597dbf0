#include "algorithms/reduction_codegen.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace plinth::detail {

namespace {

std::size_t ceil_div(std::size_t a, std::size_t b) { return a / b + (a % b != 0 ? 1 : 0); }

/// Per argument: whether it is strided in `signature`.
std::vector<bool> strided_flags(std::size_t count, const LayoutSignature& signature) {
  std::vector<bool> flags(count, false);
  for (std::size_t k = 0; k < count && k < signature.strided.size(); ++k) {
    flags[k] = signature.strided[k];
  }
  return flags;
}

/// Code adding to `<target><k>` (each strided argument k) the element offset of the index
/// `index` over `rank` dimensions with extents `<extent><d>` (d >= 1) and strides
/// `<stride><k>_<d>`, last dimension first, indented by `indent`.
std::string add_offsets_code(const std::vector<bool>& strided, std::size_t rank,
                             std::string_view index, std::string_view extent,
                             std::string_view stride, std::string_view target,
                             std::string_view indent) {
  std::string code;
  if (rank == 0) return code;
  if (rank > 1) code += fmt::format("{}VSIZE_T _elw_r = {};\n", indent, index);
  for (std::size_t d = rank - 1; d >= 1; --d) {
    code += fmt::format(
        "{0}{{\n"
        "{0}    const VSIZE_T _elw_q = _elw_r / {2}{1};\n"
        "{0}    const long _elw_j = (long)(_elw_r - _elw_q * {2}{1});\n"
        "{0}    _elw_r = _elw_q;\n",
        indent, d, extent);
    for (std::size_t k = 0; k < strided.size(); ++k) {
      if (strided[k]) {
        code += fmt::format("{}    {}{} += _elw_j * {}{}_{};\n", indent, target, k, stride, k, d);
      }
    }
    code += fmt::format("{}}}\n", indent);
  }
  const std::string outer = rank > 1 ? std::string("_elw_r") : std::string(index);
  for (std::size_t k = 0; k < strided.size(); ++k) {
    if (strided[k]) {
      code += fmt::format("{}{}{} += (long){} * {}{}_0;\n", indent, target, k, outer, stride, k);
    }
  }
  return code;
}

/// Declarations of the strided arrays' element offsets `_elw_o<k>` for the flat index `i`,
/// as elementwise_source computes them (last dimension first), indented by `indent`.
std::string offsets_code(std::span<const ElementwiseArg> args, const LayoutSignature& signature,
                         std::string_view indent) {
  const auto strided = strided_flags(args.size(), signature);
  std::string code;
  if (signature.rank == 0) return code;
  for (std::size_t k = 0; k < args.size(); ++k) {
    if (strided[k]) code += fmt::format("{}long {} = 0;\n", indent, elementwise_offset_name(k));
  }
  return code +
         add_offsets_code(strided, signature.rank, "i", "_elw_n", "_elw_s", "_elw_o", indent);
}

/// The kernel parameters of the arguments (a pointer and a base offset per array, the value
/// per scalar) into `params`, and the declarations of the arrays' element pointers.
std::string argument_params(std::span<const ElementwiseArg> args, const LayoutSignature& signature,
                            std::vector<std::string>& params) {
  const auto strided = strided_flags(args.size(), signature);
  std::string pointers;
  for (std::size_t k = 0; k < args.size(); ++k) {
    const auto& arg = args[k];
    const auto type = elementwise_type_text(arg, k);
    if (!arg.is_array()) {
      params.push_back(fmt::format("{} {}", type, arg.name()));
      continue;
    }
    params.push_back(fmt::format("GLOBAL_MEM const {} *{}_elw_p{}", type,
                                 signature.restrict_inputs ? "_elw_restrict " : "", k));
    params.push_back(fmt::format("long _elw_b{}", k));
    const auto pointer = strided[k] ? elementwise_strided_name(k) : arg.name();
    pointers += fmt::format("    GLOBAL_MEM const {} *const {} = _elw_p{} + _elw_b{};\n", type,
                            pointer, k, k);
  }
  return pointers;
}

std::string joined_params(const std::vector<std::string>& params) {
  std::string joined;
  for (std::size_t p = 0; p < params.size(); ++p) {
    joined += p == 0 ? "\n    " : ",\n    ";
    joined += params[p];
  }
  return joined;
}

/// The preamble and `_red_reduce`.
std::string reduce_function(const ReductionSourceParts& parts) {
  return fmt::format(
      "{restrict}"
      "{preamble}\n"
      "FUNCTION {out} _red_reduce({out} a, {out} b)\n"
      "{{\n"
      "    return ({reduce});\n"
      "}}\n"
      "\n",
      fmt::arg("restrict", restrict_definition), fmt::arg("preamble", parts.preamble),
      fmt::arg("out", parts.out_type), fmt::arg("reduce", parts.reduce));
}

/// The stage-2 kernel `kernel`: a group per output reduces its `parts` partial values.
std::string final_kernel(std::string_view kernel, const ReductionSourceParts& parts) {
  return fmt::format(
      "KERNEL void {kernel}(\n"
      "    GLOBAL_MEM const {out} *_red_in,\n"
      "    GLOBAL_MEM {out} *_red_out,\n"
      "    long _red_out_b,\n"
      "    unsigned long _red_outputs,\n"
      "    unsigned long _red_parts)\n"
      "{{\n"
      "    LOCAL_MEM {out} _red_local[{local}];\n"
      "    const VSIZE_T _red_lid = (VSIZE_T)get_local_id(0);\n"
      "    for (VSIZE_T _red_o = (VSIZE_T)get_group_id(0); _red_o < (VSIZE_T)_red_outputs;\n"
      "         _red_o += (VSIZE_T)get_num_groups(0))\n"
      "    {{\n"
      "        {out} _red_acc = {neutral};\n"
      "        for (VSIZE_T _red_r = _red_lid; _red_r < (VSIZE_T)_red_parts; _red_r += {local})\n"
      "            _red_acc = _red_reduce(_red_acc, _red_in[_red_o * (VSIZE_T)_red_parts + "
      "_red_r]);\n"
      "        _red_local[_red_lid] = _red_acc;\n"
      "        for (VSIZE_T _red_s = {local} / 2; _red_s > 0; _red_s /= 2)\n"
      "        {{\n"
      "            LOCAL_BARRIER;\n"
      "            if (_red_lid < _red_s)\n"
      "                _red_local[_red_lid] = _red_reduce(_red_local[_red_lid], "
      "_red_local[_red_lid + _red_s]);\n"
      "        }}\n"
      "        if (_red_lid == 0) _red_out[_red_out_b + (long)_red_o] = _red_local[0];\n"
      "        LOCAL_BARRIER;\n"
      "    }}\n"
      "}}\n",
      fmt::arg("kernel", kernel), fmt::arg("out", parts.out_type),
      fmt::arg("local", parts.local_size), fmt::arg("neutral", parts.neutral));
}

std::size_t sector_elements(std::int64_t stride) {
  const auto magnitude = stride < 0 ? std::size_t{0} - static_cast<std::size_t>(stride)
                                    : static_cast<std::size_t>(stride);
  return std::min<std::size_t>(magnitude, 8);
}

/// The segmented stage-1 kernel `kernel` (the flat and rows paths): `per_output` runs once
/// per output and task (after `_red_base`), `offsets` before each element's map (after `i`).
std::string segmented_stage1(const ReductionSourceParts& parts, std::string_view kernel,
                             std::string_view params, std::string_view pointers,
                             std::string_view per_output, std::string_view offsets,
                             std::string_view vector_loads = {}) {
  // One accumulation of the map's value at flat index `r + shift` (r runs from the output's
  // base index) into `acc`.
  const auto accumulate = [&](std::string_view shift, std::string_view acc) {
    return fmt::format(
        "                {{\n"
        "                    const VSIZE_T i = _red_r{shift};\n"
        "{offsets}"
        "                    {acc} = _red_reduce({acc}, ({map}));\n"
        "                }}\n",
        fmt::arg("shift", shift), fmt::arg("offsets", offsets), fmt::arg("acc", acc),
        fmt::arg("map", parts.map));
  };
  std::string unrolled = accumulate("", "_red_acc0") + accumulate(" + _red_step", "_red_acc1") +
                         accumulate(" + 2 * _red_step", "_red_acc2") +
                         accumulate(" + 3 * _red_step", "_red_acc3");
  std::string tail = accumulate("", "_red_acc0");
  // Vectors: `_red_r` counts whole vectors of the output's run, `_red_q` is one of them.
  std::string first = "_red_base", stop = "_red_base + (VSIZE_T)_red_extent";
  if (parts.vector_width > 1) {
    const auto vector_accumulate = [&](std::string_view shift, std::string_view acc) {
      std::string lanes;
      for (std::size_t lane = 0; lane < parts.vector_width; ++lane) {
        lanes += fmt::format(
            "                {{\n"
            "                    const int _elw_j = {lane};\n"
            "                    const VSIZE_T i = _red_q * {width} + {lane};\n"
            "                    {acc} = _red_reduce({acc}, ({map}));\n"
            "                }}\n",
            fmt::arg("lane", lane), fmt::arg("width", parts.vector_width), fmt::arg("acc", acc),
            fmt::arg("map", parts.vector_map));
      }
      return fmt::format(
          "            {{\n"
          "                const VSIZE_T _red_q = _red_r{shift};\n"
          "{loads}{lanes}"
          "            }}\n",
          fmt::arg("shift", shift), fmt::arg("loads", vector_loads), fmt::arg("lanes", lanes));
    };
    unrolled = vector_accumulate("", "_red_acc0") + vector_accumulate(" + _red_step", "_red_acc1") +
               vector_accumulate(" + 2 * _red_step", "_red_acc2") +
               vector_accumulate(" + 3 * _red_step", "_red_acc3");
    tail = vector_accumulate("", "_red_acc0");
    first = fmt::format("_red_base / {}", parts.vector_width);
    stop = fmt::format("(_red_base + (VSIZE_T)_red_extent) / {}", parts.vector_width);
  }

  return fmt::format(
      "KERNEL void {name}({params})\n"
      "{{\n"
      "{pointers}"
      "    LOCAL_MEM {out} _red_local[{local}];\n"
      "    const VSIZE_T _red_lid = (VSIZE_T)get_local_id(0);\n"
      "    const VSIZE_T _red_lane = _red_lid % (VSIZE_T)_red_segment;\n"
      "    const VSIZE_T _red_per_group = (VSIZE_T){local} / (VSIZE_T)_red_segment;\n"
      "    const VSIZE_T _red_slot = _red_lid / (VSIZE_T)_red_segment;\n"
      "    const VSIZE_T _red_step = (VSIZE_T)_red_segment * (VSIZE_T)_red_parts;\n"
      "    for (VSIZE_T _red_task = (VSIZE_T)get_group_id(0); _red_task < (VSIZE_T)_red_tasks;\n"
      "         _red_task += (VSIZE_T)get_num_groups(0))\n"
      "    {{\n"
      "        const VSIZE_T _red_block = _red_task / (VSIZE_T)_red_parts;\n"
      "        const VSIZE_T _red_part = _red_task - _red_block * (VSIZE_T)_red_parts;\n"
      "        const VSIZE_T _red_o = _red_block * _red_per_group + _red_slot;\n"
      "        {out} _red_acc0 = {neutral};\n"
      "        {out} _red_acc1 = {neutral};\n"
      "        {out} _red_acc2 = {neutral};\n"
      "        {out} _red_acc3 = {neutral};\n"
      "        if (_red_o < (VSIZE_T)_red_outputs)\n"
      "        {{\n"
      "            const VSIZE_T _red_base = _red_o * (VSIZE_T)_red_extent;\n"
      "{per_output}"
      "            const VSIZE_T _red_stop = {stop};\n"
      "            VSIZE_T _red_r = {first} + _red_part * (VSIZE_T)_red_segment + _red_lane;\n"
      "            for (; _red_r + 3 * _red_step < _red_stop; _red_r += 4 * _red_step)\n"
      "            {{\n"
      "{unrolled}"
      "            }}\n"
      "            for (; _red_r < _red_stop; _red_r += _red_step)\n"
      "            {{\n"
      "{tail}"
      "            }}\n"
      "        }}\n"
      "        _red_local[_red_lid] =\n"
      "            _red_reduce(_red_reduce(_red_acc0, _red_acc1), _red_reduce(_red_acc2, "
      "_red_acc3));\n"
      "        for (VSIZE_T _red_s = (VSIZE_T)_red_segment / 2; _red_s > 0; _red_s /= 2)\n"
      "        {{\n"
      "            LOCAL_BARRIER;\n"
      "            if (_red_lane < _red_s)\n"
      "                _red_local[_red_lid] = _red_reduce(_red_local[_red_lid], "
      "_red_local[_red_lid + _red_s]);\n"
      "        }}\n"
      "        if (_red_lane == 0 && _red_o < (VSIZE_T)_red_outputs)\n"
      "            _red_out[_red_out_b + (long)(_red_o * (VSIZE_T)_red_parts + _red_part)] =\n"
      "                _red_local[_red_lid];\n"
      "        LOCAL_BARRIER;\n"
      "    }}\n"
      "}}\n"
      "\n",
      fmt::arg("out", parts.out_type), fmt::arg("name", kernel), fmt::arg("params", params),
      fmt::arg("per_output", per_output), fmt::arg("pointers", pointers),
      fmt::arg("local", parts.local_size), fmt::arg("neutral", parts.neutral),
      fmt::arg("unrolled", unrolled), fmt::arg("tail", tail), fmt::arg("first", first),
      fmt::arg("stop", stop));
}

}  // namespace

AxesOrder reduction_axes_order(std::size_t ndim, std::span<const std::size_t> axes) {
  AxesOrder result;
  std::vector<bool> reduced(ndim, false);
  for (const auto axis : axes) {
    if (axis < ndim) reduced[axis] = true;
  }
  for (std::size_t d = 0; d < ndim; ++d) {
    if (!reduced[d]) result.order.push_back(d);
  }
  result.kept = result.order.size();
  for (std::size_t d = 0; d < ndim; ++d) {
    if (reduced[d]) result.order.push_back(d);
  }
  for (std::size_t d = 0; d < ndim; ++d) result.identity = result.identity && result.order[d] == d;
  return result;
}

ReductionPlan plan_reduction(std::size_t outputs, std::size_t extent, std::size_t local_size,
                             std::size_t max_groups) noexcept {
  ReductionPlan plan;
  local_size = std::max<std::size_t>(local_size, 1);
  max_groups = std::max<std::size_t>(max_groups, 1);
  if (extent >= local_size) {
    plan.segment = local_size;
  } else {
    while (plan.segment < extent) plan.segment *= 2;
  }
  // Many outputs: narrower segments (down to a warp of 32), fewer barriers per element,
  // while the outputs still fill max_groups groups.
  while (plan.segment > 32 && ceil_div(outputs, local_size / (plan.segment / 2)) >= max_groups) {
    plan.segment /= 2;
  }
  const std::size_t per_group = local_size / plan.segment;
  const std::size_t blocks = ceil_div(outputs, per_group);
  if (plan.segment == local_size && blocks > 0) {
    const std::size_t wanted = ceil_div(max_groups, blocks);
    const std::size_t most = std::max<std::size_t>(ceil_div(extent, 4 * local_size), 1);
    plan.parts = std::clamp<std::size_t>(wanted, 1, most);
  }
  plan.tasks = blocks * plan.parts;
  plan.groups = std::min(plan.tasks, max_groups);
  plan.final_groups = plan.parts > 1 ? std::min(outputs, max_groups) : 0;
  return plan;
}

std::string reduction_source(std::span<const ElementwiseArg> args,
                             const ReductionSourceParts& parts, const LayoutSignature& signature) {
  const auto strided = strided_flags(args.size(), signature);
  const auto out = parts.out_type;
  std::vector<std::string> params;
  const std::string pointers = argument_params(args, signature, params);
  params.push_back(fmt::format("GLOBAL_MEM {} *_red_out", out));
  params.emplace_back("long _red_out_b");
  for (const char* size : {"outputs", "extent", "segment", "parts", "tasks"}) {
    params.push_back(fmt::format("unsigned long _red_{}", size));
  }
  for (std::size_t d = 1; d < signature.rank; ++d) {
    params.push_back(fmt::format("unsigned long _elw_n{}", d));
  }
  for (std::size_t k = 0; k < args.size(); ++k) {
    if (!strided[k]) continue;
    for (std::size_t d = 0; d < signature.rank; ++d) {
      params.push_back(fmt::format("long _elw_s{}_{}", k, d));
    }
  }
  const std::string joined = joined_params(params);

  // With vectors: each array's vector `_red_q` loaded into a union its lanes read.
  std::string loads;
  if (parts.vector_width > 1) {
    for (std::size_t k = 0; k < args.size(); ++k) {
      const auto& arg = args[k];
      if (!arg.is_array()) continue;
      const auto raw = vector_type(parts.vector_width * arg.dtype().itemsize());
      loads += fmt::format(
          "                union {{ {0} v; {1} e[{2}]; }} _elw_u{3};\n"
          "                _elw_u{3}.v = *(GLOBAL_MEM const {0} *)({4} + _red_q * {2});\n",
          raw, elementwise_type_text(arg, k), parts.vector_width, k, arg.name());
    }
  }
  const std::string stage1 =
      segmented_stage1(parts, parts.name, joined, pointers, "",
                       offsets_code(args, signature, "                    "), loads);
  return (parts.vector_width > 1 ? std::string(vector_definitions()) : std::string()) +
         reduce_function(parts) + stage1 + final_kernel(fmt::format("{}_final", parts.name), parts);
}

ReductionPath choose_reduction_path(std::span<const std::size_t> shape, std::size_t kept,
                                    std::span<const AlignedStrides> arrays,
                                    std::size_t contiguous_arrays) {
  ReductionPath path;
  kept = std::min(kept, shape.size());
  std::size_t outputs = 1, extent = 1;
  for (std::size_t d = 0; d < shape.size(); ++d) (d < kept ? outputs : extent) *= shape[d];
  if (outputs <= 1 || extent <= 1) return path;
  std::vector<AlignedStrides> kept_strides(arrays.size()), reduced_strides(arrays.size());
  bool any = false;
  for (std::size_t k = 0; k < arrays.size(); ++k) {
    if (!arrays[k] || arrays[k]->size() != shape.size()) continue;
    const auto split = arrays[k]->begin() + static_cast<std::ptrdiff_t>(kept);
    kept_strides[k].emplace(arrays[k]->begin(), split);
    reduced_strides[k].emplace(split, arrays[k]->end());
    any = true;
  }
  if (!any) return path;
  auto kept_layout = merge_layout(shape.first(kept), kept_strides);
  auto reduced_layout = merge_layout(shape.subspan(kept), reduced_strides);
  // An array on the fast path reads its reduced elements contiguously.
  std::size_t columns = contiguous_arrays * std::min<std::size_t>(extent, 8);
  std::size_t flat = contiguous_arrays;
  for (std::size_t k = 0; k < arrays.size(); ++k) {
    if (!kept_strides[k]) continue;
    columns += sector_elements(kept_layout.strides[k].back());
    flat += sector_elements(reduced_layout.strides[k].back());
  }
  path.kind = columns < flat ? ReductionPathKind::columns : ReductionPathKind::rows;
  path.kept = std::move(kept_layout);
  path.reduced = std::move(reduced_layout);
  return path;
}

ColumnPlan plan_column_reduction(std::size_t outputs, std::size_t extent, std::size_t local_size,
                                 std::size_t max_groups, std::size_t max_local_y) noexcept {
  ColumnPlan plan;
  local_size = std::max<std::size_t>(local_size, 1);
  max_groups = std::max<std::size_t>(max_groups, 1);
  if (outputs == 0 || extent == 0) return plan;
  while (plan.local_x < outputs && plan.local_x * 2 <= local_size) plan.local_x *= 2;
  plan.groups_x = ceil_div(outputs, plan.local_x);
  // Parts a full group could hold.
  const std::size_t rows =
      std::min(local_size / plan.local_x, std::max<std::size_t>(max_local_y, 1));
  std::size_t parts = 1;
  if (plan.groups_x < max_groups) {
    const std::size_t most = std::max<std::size_t>(extent / 32, 1);
    // Whole groups of parts up to max_groups in all (no second, mostly idle wave).
    parts = std::min(std::max<std::size_t>(max_groups / plan.groups_x, 1) * rows, most);
  }
  while (plan.local_y * 2 <= std::min(rows, parts)) plan.local_y *= 2;
  plan.parts = ceil_div(parts, plan.local_y) * plan.local_y;
  plan.chunk = ceil_div(extent, plan.parts / plan.local_y);
  plan.final_groups = plan.parts > 1 ? std::min(outputs, max_groups) : 0;
  return plan;
}

std::string reduction_split_source(std::span<const ElementwiseArg> args,
                                   const ReductionSourceParts& parts,
                                   const LayoutSignature& signature, std::size_t kept_rank,
                                   std::size_t reduced_rank) {
  const auto strided = strided_flags(args.size(), signature);
  const auto out = parts.out_type;
  std::vector<std::string> params, rows_params;
  const std::string pointers = argument_params(args, signature, params);
  params.push_back(fmt::format("GLOBAL_MEM {} *_red_out", out));
  params.emplace_back("long _red_out_b");
  rows_params = params;
  for (const char* size : {"outputs", "extent", "parts", "chunk"}) {
    params.push_back(fmt::format("unsigned long _red_{}", size));
  }
  for (const char* size : {"outputs", "extent", "segment", "parts", "tasks"}) {
    rows_params.push_back(fmt::format("unsigned long _red_{}", size));
  }
  // The layout's parameters, the same for both stage-1 kernels.
  std::vector<std::string> layout;
  for (std::size_t d = 1; d < kept_rank; ++d) {
    layout.push_back(fmt::format("unsigned long _red_m{}", d));
  }
  for (std::size_t d = 1; d < reduced_rank; ++d) {
    layout.push_back(fmt::format("unsigned long _red_e{}", d));
  }
  for (std::size_t k = 0; k < args.size(); ++k) {
    if (!strided[k]) continue;
    for (std::size_t d = 0; d < kept_rank; ++d) {
      layout.push_back(fmt::format("long _red_t{}_{}", k, d));
    }
    for (std::size_t d = 0; d < reduced_rank; ++d) {
      layout.push_back(fmt::format("long _red_u{}_{}", k, d));
    }
  }
  params.insert(params.end(), layout.begin(), layout.end());
  rows_params.insert(rows_params.end(), layout.begin(), layout.end());
  // The strided arrays' offsets `_red_k<k>` of output `_red_o`, and the offsets `_elw_o<k>`
  // of its reduced element `_red_j`.
  const auto kept_offsets_at = [&](const std::string& indent) {
    std::string code;
    for (std::size_t k = 0; k < args.size(); ++k) {
      if (strided[k]) code += fmt::format("{}long _red_k{} = 0;\n", indent, k);
    }
    return code + indent + "{\n" +
           add_offsets_code(strided, kept_rank, "_red_o", "_red_m", "_red_t", "_red_k",
                            indent + "    ") +
           indent + "}\n";
  };
  const auto reduced_offsets_at = [&](const std::string& indent) {
    std::string code;
    for (std::size_t k = 0; k < args.size(); ++k) {
      if (strided[k]) {
        code += fmt::format("{}long {} = _red_k{};\n", indent, elementwise_offset_name(k), k);
      }
    }
    return code +
           add_offsets_code(strided, reduced_rank, "_red_j", "_red_e", "_red_u", "_elw_o", indent);
  };
  const std::string kept_offsets = kept_offsets_at("    ");
  // One accumulation of the map's value at reduced index `_red_r + shift` into `acc`.
  const auto accumulate = [&](std::string_view shift, std::string_view acc) {
    const std::string offsets = reduced_offsets_at("            ");
    return fmt::format(
        "        {{\n"
        "            const VSIZE_T _red_j = _red_r{shift};\n"
        "            const VSIZE_T i = _red_base + _red_j;\n"
        "{offsets}"
        "            {acc} = _red_reduce({acc}, ({map}));\n"
        "        }}\n",
        fmt::arg("shift", shift), fmt::arg("offsets", offsets), fmt::arg("acc", acc),
        fmt::arg("map", parts.map));
  };
  const std::string unrolled = accumulate("", "_red_acc0") + accumulate(" + _red_ly", "_red_acc1") +
                               accumulate(" + 2 * _red_ly", "_red_acc2") +
                               accumulate(" + 3 * _red_ly", "_red_acc3");
  const std::string stage1 = fmt::format(
      "KERNEL void {name}_cols({params})\n"
      "{{\n"
      "{pointers}"
      "    const VSIZE_T _red_o = (VSIZE_T)get_global_id(0);\n"
      "    const VSIZE_T _red_part = (VSIZE_T)get_global_id(1);\n"
      "    if (_red_o >= (VSIZE_T)_red_outputs || _red_part >= (VSIZE_T)_red_parts) return;\n"
      "{kept_offsets}"
      "    const VSIZE_T _red_base = _red_o * (VSIZE_T)_red_extent;\n"
      "    // The group's rows of parts read its chunk's elements interleaved: neighbouring\n"
      "    // work items read neighbouring elements also where the outputs are few.\n"
      "    const VSIZE_T _red_ly = (VSIZE_T)get_local_size(1);\n"
      "    const VSIZE_T _red_first = (VSIZE_T)get_group_id(1) * (VSIZE_T)_red_chunk;\n"
      "    VSIZE_T _red_r = _red_first + (VSIZE_T)get_local_id(1);\n"
      "    VSIZE_T _red_stop = _red_first + (VSIZE_T)_red_chunk;\n"
      "    if (_red_stop > (VSIZE_T)_red_extent) _red_stop = (VSIZE_T)_red_extent;\n"
      "    {out} _red_acc0 = {neutral};\n"
      "    {out} _red_acc1 = {neutral};\n"
      "    {out} _red_acc2 = {neutral};\n"
      "    {out} _red_acc3 = {neutral};\n"
      "    for (; _red_r + 3 * _red_ly < _red_stop; _red_r += 4 * _red_ly)\n"
      "    {{\n"
      "{unrolled}"
      "    }}\n"
      "    for (; _red_r < _red_stop; _red_r += _red_ly)\n"
      "    {{\n"
      "{tail}"
      "    }}\n"
      "    _red_out[_red_out_b + (long)(_red_o * (VSIZE_T)_red_parts + _red_part)] =\n"
      "        _red_reduce(_red_reduce(_red_acc0, _red_acc1), _red_reduce(_red_acc2, "
      "_red_acc3));\n"
      "}}\n"
      "\n",
      fmt::arg("out", out), fmt::arg("name", parts.name), fmt::arg("params", joined_params(params)),
      fmt::arg("pointers", pointers), fmt::arg("kept_offsets", kept_offsets),
      fmt::arg("neutral", parts.neutral), fmt::arg("unrolled", unrolled),
      fmt::arg("tail", accumulate("", "_red_acc0")));
  const std::string rows =
      segmented_stage1(parts, fmt::format("{}_rows", parts.name), joined_params(rows_params),
                       pointers, kept_offsets_at("            "),
                       "                    const VSIZE_T _red_j = i - _red_base;\n" +
                           reduced_offsets_at("                    "));
  return reduce_function(parts) + stage1 + rows +
         final_kernel(fmt::format("{}_cols_final", parts.name), parts);
}

}  // namespace plinth::detail
