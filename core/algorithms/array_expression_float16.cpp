#include "algorithms/array_expression_float16.hpp"

#include <fmt/format.h>

#include <string_view>

namespace plinth::detail {

namespace {

constexpr std::string_view load_call = "plinth_half_to_float(";

// True if `text` is one call of `name(...)`: the parenthesis after the name closes at the end.
bool is_one_call(const std::string& text, std::string_view name) {
  if (text.size() <= name.size() || text.compare(0, name.size(), name) != 0 || text.back() != ')') {
    return false;
  }
  int depth = 1;
  for (std::size_t k = name.size(); k + 1 < text.size(); ++k) {
    if (text[k] == '(') ++depth;
    if (text[k] == ')' && --depth == 0) return false;
  }
  return depth == 1;
}

}  // namespace

std::string float16_load(const std::string& bits) { return fmt::format("{}{})", load_call, bits); }

std::string float16_round(const std::string& value) {
  return float16_load(fmt::format("plinth_float_to_half_rte({})", value));
}

std::string float16_from(const std::string& value, const DType& from) {
  if (from == DType::float16()) return value;
  if (from == DType::float64()) {
    return float16_load(fmt::format("plinth_double_to_half_rte({})", value));
  }
  // bool and 8-bit integers are float16 values exactly; wider integers are exact in float32
  // up to 2^24, far beyond float16's range, so one rounding from float32 is numpy's.
  const auto as_float = fmt::format("((float)({}))", value);
  if (from.itemsize() == 1) return as_float;
  return float16_round(as_float);
}

std::string float16_store(const std::string& value) {
  if (is_one_call(value, load_call)) {
    return value.substr(load_call.size(), value.size() - load_call.size() - 1);
  }
  return fmt::format("plinth_float_to_half_rte({})", value);
}

bool float16_rounds(ExpressionOp op) noexcept {
  switch (op) {
    case ExpressionOp::add:
    case ExpressionOp::subtract:
    case ExpressionOp::multiply:
    case ExpressionOp::divide:
    case ExpressionOp::power:
    case ExpressionOp::fmod:
    case ExpressionOp::function:
    case ExpressionOp::ufunc: return true;
    default: return false;
  }
}

}  // namespace plinth::detail
