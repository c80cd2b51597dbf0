#include "algorithms/reduction_codegen.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace plinth::detail {

namespace {

std::size_t ceil_div(std::size_t a, std::size_t b) { return a / b + (a % b != 0 ? 1 : 0); }

/// Declarations of the strided arrays' element offsets `_elw_o<k>` for the flat index `i`,
/// as elementwise_source computes them (last dimension first), indented by `indent`.
std::string offsets_code(std::span<const ElementwiseArg> args, const LayoutSignature& signature,
                         std::string_view indent) {
  const auto strided = [&](std::size_t k) {
    return k < signature.strided.size() && signature.strided[k];
  };
  const std::size_t rank = signature.rank;
  std::string code;
  if (rank == 0) return code;
  for (std::size_t k = 0; k < args.size(); ++k) {
    if (strided(k)) code += fmt::format("{}long {} = 0;\n", indent, elementwise_offset_name(k));
  }
  if (rank > 1) code += fmt::format("{}VSIZE_T _elw_r = i;\n", indent);
  for (std::size_t d = rank - 1; d >= 1; --d) {
    code += fmt::format(
        "{0}{{\n"
        "{0}    const VSIZE_T _elw_q = _elw_r / _elw_n{1};\n"
        "{0}    const long _elw_j = (long)(_elw_r - _elw_q * _elw_n{1});\n"
        "{0}    _elw_r = _elw_q;\n",
        indent, d);
    for (std::size_t k = 0; k < args.size(); ++k) {
      if (strided(k)) {
        code += fmt::format("{}    {} += _elw_j * _elw_s{}_{};\n", indent,
                            elementwise_offset_name(k), k, d);
      }
    }
    code += fmt::format("{}}}\n", indent);
  }
  const char* outer = rank > 1 ? "_elw_r" : "i";
  for (std::size_t k = 0; k < args.size(); ++k) {
    if (strided(k)) {
      code += fmt::format("{}{} += (long){} * _elw_s{}_0;\n", indent, elementwise_offset_name(k),
                          outer, k);
    }
  }
  return code;
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
  const auto strided = [&](std::size_t k) {
    return k < signature.strided.size() && signature.strided[k];
  };
  const auto out = parts.out_type;
  std::vector<std::string> params;
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
    const auto pointer = strided(k) ? elementwise_strided_name(k) : arg.name();
    pointers += fmt::format("    GLOBAL_MEM const {} *const {} = _elw_p{} + _elw_b{};\n", type,
                            pointer, k, k);
  }
  params.push_back(fmt::format("GLOBAL_MEM {} *_red_out", out));
  params.emplace_back("long _red_out_b");
  for (const char* size : {"outputs", "extent", "segment", "parts", "tasks"}) {
    params.push_back(fmt::format("unsigned long _red_{}", size));
  }
  for (std::size_t d = 1; d < signature.rank; ++d) {
    params.push_back(fmt::format("unsigned long _elw_n{}", d));
  }
  for (std::size_t k = 0; k < args.size(); ++k) {
    if (!strided(k)) continue;
    for (std::size_t d = 0; d < signature.rank; ++d) {
      params.push_back(fmt::format("long _elw_s{}_{}", k, d));
    }
  }
  std::string joined;
  for (std::size_t p = 0; p < params.size(); ++p) {
    joined += p == 0 ? "\n    " : ",\n    ";
    joined += params[p];
  }

  const std::string offsets = offsets_code(args, signature, "                    ");
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
  const std::string unrolled =
      accumulate("", "_red_acc0") + accumulate(" + _red_step", "_red_acc1") +
      accumulate(" + 2 * _red_step", "_red_acc2") + accumulate(" + 3 * _red_step", "_red_acc3");
  const std::string tail = accumulate("", "_red_acc0");

  return fmt::format(
      "{restrict}"
      "{preamble}\n"
      "FUNCTION {out} _red_reduce({out} a, {out} b)\n"
      "{{\n"
      "    return ({reduce});\n"
      "}}\n"
      "\n"
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
      "            const VSIZE_T _red_stop = _red_base + (VSIZE_T)_red_extent;\n"
      "            VSIZE_T _red_r = _red_base + _red_part * (VSIZE_T)_red_segment + _red_lane;\n"
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
      "\n"
      "KERNEL void {name}_final(\n"
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
      fmt::arg("restrict", restrict_definition), fmt::arg("preamble", parts.preamble),
      fmt::arg("out", out), fmt::arg("reduce", parts.reduce), fmt::arg("name", parts.name),
      fmt::arg("params", joined), fmt::arg("pointers", pointers),
      fmt::arg("local", parts.local_size), fmt::arg("neutral", parts.neutral),
      fmt::arg("unrolled", unrolled), fmt::arg("tail", tail));
}

}  // namespace plinth::detail
