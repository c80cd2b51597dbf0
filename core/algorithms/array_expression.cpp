// ArrayExpression: building the tree (leaves, operators) and running it as one cached
// ElementwiseKernel (evaluate, assign, fill, copy, astype). The math functions are built in
// array_math.cpp; the kernel's source in array_expression_codegen.cpp.

#include <plinth/array_expression.hpp>

#include "algorithms/array_expression_build.hpp"
#include "algorithms/array_expression_codegen.hpp"
#include "algorithms/array_expression_rules.hpp"
#include "algorithms/fill_pattern.hpp"
#include "algorithms/kit/recipe_cache.hpp"
#include "algorithms/tiled_copy.hpp"
#include "diagnostics/debug.hpp"
#include "dtypes/float16_rounding.hpp"
#include "dtypes/float32_rounding.hpp"
#include "runtime/buffer_fill.hpp"

#include <plinth/elementwise.hpp>
#include <plinth/errors.hpp>

#include <fmt/format.h>

#include <atomic>
#include <cmath>
#include <limits>

namespace plinth {

namespace detail {

void check_arithmetic_dtype(const DType& dtype, const char* what) {
  if (dtype.is_struct()) {
    throw LogicError(fmt::format(
        "array arithmetic: {} has dtype {}, which has no arithmetic (bool, integers, floats "
        "and complex numbers do; copy() copies any dtype)",
        what, dtype.name()));
  }
}

namespace {

/// Expression evaluations that found their kernel in the recipe cache, and that made one.
std::atomic<std::size_t> expression_hits{0}, expression_misses{0};

/// The ElementwiseKernel that runs `generated`, from the recipe cache.
ElementwiseKernel expression_kernel(const GeneratedExpression& generated) {
  bool hit = false;
  auto kernel = recipe_cache().get<ElementwiseKernel>(
      "expr", generated.key,
      [&] {
        return ElementwiseKernel(generated.args, generated.operation,
                                 {.name = "array_expression",
                                  .preamble = generated.preamble,
                                  .writes_every_element = true});
      },
      &hit);
  ++(hit ? expression_hits : expression_misses);
  return kernel;
}

void collect_arrays(const ExpressionNode& node, std::vector<Array>& arrays) {
  if (node.array) arrays.push_back(*node.array);
  for (const auto& operand : node.operands) collect_arrays(*operand, arrays);
}

std::string device_text(const BoundDevice& device) {
  return fmt::format("device {} ('{}')", device.index(), device.name());
}

void check_devices(const Queue& queue, const ExpressionNode& root, const Array* out) {
  std::vector<Array> arrays;
  if (out != nullptr) arrays.push_back(*out);
  collect_arrays(root, arrays);
  for (std::size_t k = 0; k < arrays.size(); ++k) {
    if (!(arrays[k].device() == queue.device())) {
      throw LogicError(fmt::format(
          "array arithmetic: {} of shape {} is on {}{}, the queue on {}",
          out != nullptr && k == 0 ? "the output array" : "an array of the expression",
          shape_text(arrays[k].shape()), device_text(arrays[k].device()),
          arrays[k].device().context() == queue.device().context() ? "" : " of another context",
          device_text(queue.device())));
    }
  }
}

/// Runs `root` into `out` (converted to out's dtype; the caller has checked the cast and the
/// shapes).
void run(const Queue& queue, const Array& out, const ExpressionNode& root) {
  auto generated = generate_expression(root, out.dtype());
  if (generated.needs_double && !queue.device().params().supports_double) {
    throw LogicError(
        fmt::format("array arithmetic: the expression computes in double precision, which {} lacks",
                    device_text(queue.device())));
  }
  const auto kernel = expression_kernel(generated);
  std::vector<ElementwiseValue> values;
  values.reserve(generated.args.size());
  values.emplace_back(kernel_view(out));
  std::size_t array = 0, scalar = 0;
  for (std::size_t k = 1; k < generated.args.size(); ++k) {
    if (generated.args[k].is_array()) {
      values.emplace_back(generated.arrays[array++]);
    } else {
      values.push_back(generated.scalars[scalar++]);
    }
  }
  kernel.launch(queue, values);
}

bool same_layout(const Array& a, const Array& b) {
  return a.base_buffer().overlaps(b.base_buffer()) &&
         a.base_buffer().offset() + a.first_element_offset() ==
             b.base_buffer().offset() + b.first_element_offset() &&
         a.shape() == b.shape() && a.strides() == b.strides();
}

/// Whether `out` shares memory with an array of `root` other than element for element.
bool overlaps(const Array& out, const ExpressionNode& root) {
  std::vector<Array> arrays;
  collect_arrays(root, arrays);
  for (const auto& array : arrays) {
    if (array.base_buffer().overlaps(out.base_buffer()) && !same_layout(array, out)) {
      return true;
    }
  }
  return false;
}

}  // namespace

NodePtr array_leaf(const Array& array) {
  check_arithmetic_dtype(array.dtype(), "an array");
  auto node = std::make_shared<ExpressionNode>();
  node->op = ExpressionOp::array;
  node->array = array;
  node->dtype = array.dtype();
  node->compute = array.dtype();
  node->shape = array.shape();
  return node;
}

NodePtr multi_array_leaf(const MultiArray& array) {
  check_arithmetic_dtype(array.dtype(), "a MultiArray");
  auto node = std::make_shared<ExpressionNode>();
  node->op = ExpressionOp::multi_array;
  node->multi_array = array;
  node->dtype = array.dtype();
  node->compute = array.dtype();
  node->shape = array.shape();
  return node;
}

/// `node` with every MultiArray replaced by its part on `device` (shapes recomputed).
NodePtr on_device(const NodePtr& node, const BoundDevice& device) {
  if (node->multi_array) return array_leaf((*node->multi_array)[device]);
  if (node->operands.empty()) return node;
  auto copy = std::make_shared<ExpressionNode>(*node);
  copy->shape.clear();
  for (auto& operand : copy->operands) {
    operand = on_device(operand, device);
    copy->shape = broadcast_shapes(copy->shape, operand->shape);
  }
  return copy;
}

NodePtr scalar_leaf(const ScalarValue& value) {
  auto node = std::make_shared<ExpressionNode>();
  node->op = ExpressionOp::scalar;
  node->scalar = value;
  node->dtype = scalar_default_dtype(value);
  node->compute = node->dtype;
  node->weak = true;
  return node;
}

NodePtr typed_scalar_leaf(const ScalarValue& value, const DType& dtype) {
  check_arithmetic_dtype(dtype, "the dtype of a typed scalar");
  const auto refuse = [&](const char* why) {
    return LogicError(fmt::format("typed_scalar: the value {} {} {} (convert with astype())",
                                  scalar_text(value), why, dtype.name()));
  };
  ScalarValue stored = value;
  switch (dtype.kind()) {
    case DTypeKind::boolean:
      if (!std::holds_alternative<bool>(value)) throw refuse("is not a bool, so it is not a");
      break;
    case DTypeKind::signed_integer:
    case DTypeKind::unsigned_integer:
      if (!integer_fits(value, dtype)) {
        throw refuse(std::holds_alternative<std::int64_t>(value) ||
                             std::holds_alternative<std::uint64_t>(value)
                         ? "is out of the range of"
                         : "is not an integer, so it is not an");
      }
      if (const auto* v = std::get_if<bool>(&value)) stored = std::int64_t{*v ? 1 : 0};
      break;
    case DTypeKind::floating:
    case DTypeKind::complex: {
      if (dtype.kind() == DTypeKind::floating &&
          std::holds_alternative<std::complex<double>>(value)) {
        throw refuse("is complex, so it is not a");
      }
      const auto round = [&](double v) {
        const auto itemsize =
            dtype.kind() == DTypeKind::complex ? dtype.itemsize() / 2 : dtype.itemsize();
        return itemsize == 2 ? round_to_float16(v) : itemsize == 4 ? round_to_float32(v) : v;
      };
      std::complex<double> c = std::visit(
          [](const auto& v) -> std::complex<double> {
            using V = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<V, bool>) {
              return v ? 1.0 : 0.0;
            } else if constexpr (std::is_same_v<V, std::complex<double>>) {
              return v;
            } else {
              return static_cast<double>(v);
            }
          },
          value);
      if (dtype.kind() == DTypeKind::floating) {
        stored = round(c.real());
      } else {
        stored = std::complex<double>(round(c.real()), round(c.imag()));
      }
      break;
    }
    case DTypeKind::structure: break;
  }
  auto node = std::make_shared<ExpressionNode>();
  node->op = ExpressionOp::scalar;
  node->scalar = stored;
  node->dtype = dtype;
  node->compute = dtype;
  return node;
}

OperandType operand_type(const NodePtr& node) { return {node->dtype, node->weak}; }

std::shared_ptr<ExpressionNode> make_node(ExpressionOp op, std::vector<NodePtr> operands,
                                          const DType& dtype, const DType& compute) {
  auto node = std::make_shared<ExpressionNode>();
  node->op = op;
  std::vector<std::size_t> shape;
  for (const auto& operand : operands) shape = broadcast_shapes(shape, operand->shape);
  node->operands = std::move(operands);
  node->dtype = dtype;
  node->compute = compute;
  node->shape = std::move(shape);
  return node;
}

}  // namespace detail

using detail::ExpressionOp;
using detail::make_node;
using detail::operand_type;

ArrayExpression::ArrayExpression(const Array& array) : node_(detail::array_leaf(array)) {}
ArrayExpression::ArrayExpression(const MultiArray& array)
    : node_(detail::multi_array_leaf(array)) {}

const DType& ArrayExpression::dtype() const noexcept { return node_->dtype; }
const std::vector<std::size_t>& ArrayExpression::shape() const noexcept { return node_->shape; }
bool ArrayExpression::is_weak_scalar() const noexcept { return node_->weak; }

namespace {

ArrayExpression arithmetic(ExpressionOp op, const ArrayExpression& a, const ArrayExpression& b) {
  const auto type = op == ExpressionOp::divide
                        ? detail::true_divide_type(operand_type(detail::Access::impl(a)),
                                                   operand_type(detail::Access::impl(b)))
                        : detail::promote(operand_type(detail::Access::impl(a)),
                                          operand_type(detail::Access::impl(b)))
                              .dtype;
  if (op == ExpressionOp::subtract && type == DType::boolean()) {
    throw LogicError(
        "array arithmetic: subtracting bools is not supported (as numpy: use != for exclusive "
        "or)");
  }
  return detail::Access::make<ArrayExpression>(
      make_node(op, {detail::Access::impl(a), detail::Access::impl(b)}, type, type));
}

ArrayExpression comparison(ExpressionOp op, const ArrayExpression& a, const ArrayExpression& b) {
  const auto type = detail::comparison_type(operand_type(detail::Access::impl(a)),
                                            operand_type(detail::Access::impl(b)));
  return detail::Access::make<ArrayExpression>(
      make_node(op, {detail::Access::impl(a), detail::Access::impl(b)}, DType::boolean(), type));
}

}  // namespace

ArrayExpression operator+(const ArrayExpression& a, const ArrayExpression& b) {
  return arithmetic(ExpressionOp::add, a, b);
}
ArrayExpression operator-(const ArrayExpression& a, const ArrayExpression& b) {
  return arithmetic(ExpressionOp::subtract, a, b);
}
ArrayExpression operator*(const ArrayExpression& a, const ArrayExpression& b) {
  return arithmetic(ExpressionOp::multiply, a, b);
}
ArrayExpression operator/(const ArrayExpression& a, const ArrayExpression& b) {
  return arithmetic(ExpressionOp::divide, a, b);
}

ArrayExpression operator-(const ArrayExpression& a) {
  const auto& node = detail::Access::impl(a);
  if (node->op == ExpressionOp::scalar && node->weak) {  // folded: the negated value, still weak
    const auto negated = std::visit(
        [](const auto& v) -> detail::ScalarValue {
          using V = std::decay_t<decltype(v)>;
          if constexpr (std::is_same_v<V, bool>) {
            return static_cast<std::int64_t>(v ? -1 : 0);
          } else if constexpr (std::is_same_v<V, std::int64_t>) {
            if (v == std::numeric_limits<std::int64_t>::min()) {
              return static_cast<std::uint64_t>(v);
            }
            return -v;
          } else if constexpr (std::is_same_v<V, std::uint64_t>) {
            if (v > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) + 1) {
              throw LogicError(fmt::format(
                  "array arithmetic: -{} is below the range of every integer dtype", v));
            }
            return static_cast<std::int64_t>(0 - v);
          } else {
            return -v;
          }
        },
        node->scalar);
    if (std::holds_alternative<bool>(node->scalar)) {
      throw LogicError("array arithmetic: negating a bool is not supported (as numpy)");
    }
    return detail::Access::make<ArrayExpression>(detail::scalar_leaf(negated));
  }
  if (a.dtype() == DType::boolean()) {
    throw LogicError("array arithmetic: negating bools is not supported (as numpy: use == false)");
  }
  return detail::Access::make<ArrayExpression>(
      make_node(ExpressionOp::negative, {node}, a.dtype(), a.dtype()));
}

ArrayExpression operator==(const ArrayExpression& a, const ArrayExpression& b) {
  return comparison(ExpressionOp::equal, a, b);
}
ArrayExpression operator!=(const ArrayExpression& a, const ArrayExpression& b) {
  return comparison(ExpressionOp::not_equal, a, b);
}
ArrayExpression operator<(const ArrayExpression& a, const ArrayExpression& b) {
  return comparison(ExpressionOp::less, a, b);
}
ArrayExpression operator<=(const ArrayExpression& a, const ArrayExpression& b) {
  return comparison(ExpressionOp::less_equal, a, b);
}
ArrayExpression operator>(const ArrayExpression& a, const ArrayExpression& b) {
  return comparison(ExpressionOp::greater, a, b);
}
ArrayExpression operator>=(const ArrayExpression& a, const ArrayExpression& b) {
  return comparison(ExpressionOp::greater_equal, a, b);
}

ArrayExpression astype(const ArrayExpression& a, const DType& dtype) {
  detail::check_arithmetic_dtype(dtype, "the target of astype");
  if (is_complex(a.dtype()) && !is_complex(dtype)) {
    throw LogicError(
        fmt::format("astype: converting {} to {} would drop the imaginary part (take real() first)",
                    a.dtype().name(), dtype.name()));
  }
  return detail::Access::make<ArrayExpression>(
      make_node(ExpressionOp::cast, {detail::Access::impl(a)}, dtype, a.dtype()));
}

Array evaluate(const Queue& queue, const ArrayExpression& expression) {
  detail::check_devices(queue, *detail::Access::impl(expression), nullptr);
  const auto out = Array::empty(queue, expression.shape(), expression.dtype());
  if (out.size() != 0) detail::run(queue, out, *detail::Access::impl(expression));
  return out;
}

namespace {

/// Checks an assign() of `expression` to `out` on `queue`. Throws as assign().
void check_assign(const Queue& queue, const Array& out, const ArrayExpression& expression) {
  detail::check_arithmetic_dtype(out.dtype(), "the output array");
  detail::check_devices(queue, *detail::Access::impl(expression), &out);
  const auto shape = [&] {
    try {
      return detail::broadcast_shapes(expression.shape(), out.shape());
    } catch (const LogicError&) {
      return std::vector<std::size_t>{};
    }
  }();
  if (shape != out.shape()) {
    throw LogicError(
        fmt::format("assign: the expression's shape {} does not broadcast to the output's shape {}",
                    detail::shape_text(expression.shape()), detail::shape_text(out.shape())));
  }
  const auto type =
      expression.is_weak_scalar()
          ? detail::promote(operand_type(detail::Access::impl(expression)), {out.dtype(), false})
                .dtype
          : expression.dtype();
  if (!detail::can_cast_same_kind(type, out.dtype())) {
    throw LogicError(fmt::format(
        "assign: cannot store the expression's {} in the output's {} (casting='same_kind'; "
        "use astype() to convert explicitly)",
        type.name(), out.dtype().name()));
  }
}

/// Runs a checked assign().
void run_assign(const Queue& queue, const Array& out, const ArrayExpression& expression) {
  if (out.size() == 0) return;
  if (detail::overlaps(out, *detail::Access::impl(expression))) {
    const auto temporary = evaluate(queue, expression);
    detail::run(queue, out, *detail::Access::impl(ArrayExpression(temporary)));
    return;
  }
  detail::run(queue, out, *detail::Access::impl(expression));
}

}  // namespace

void assign(const Queue& queue, const Array& out, const ArrayExpression& expression) {
  check_assign(queue, out, expression);
  run_assign(queue, out, expression);
}

void assign(const MultiQueue& queues, const MultiArray& out, const ArrayExpression& expression) {
  std::vector<std::pair<Array, ArrayExpression>> parts;
  for (const auto& queue : queues.queues()) {
    const auto& device = queue.device();
    try {
      parts.emplace_back(out[device], detail::Access::make<ArrayExpression>(detail::on_device(
                                          detail::Access::impl(expression), device)));
    } catch (const LogicError& error) {
      throw LogicError(fmt::format("assign on device {} ('{}'): {}", device.index(), device.name(),
                                   error.what()));
    }
    check_assign(queue, parts.back().first, parts.back().second);
  }
  for (std::size_t k = 0; k < parts.size(); ++k) {
    run_assign(queues.queues()[k], parts[k].first, parts[k].second);
  }
}

Array astype(const Queue& queue, const Array& array, const DType& dtype) {
  if (array.dtype() == dtype) return copy(queue, array);
  const auto converted = astype(ArrayExpression(array), dtype);  // checks the conversion
  if (array.size() != 0 && array.device() == queue.device()) {
    // A view whose fastest dimension is not the result's converts through a tile.
    const auto result = Array::empty(queue, array.shape(), dtype);
    if (detail::tiled_copy(queue, result, array)) return result;
    assign(queue, result, converted);
    return result;
  }
  return evaluate(queue, converted);
}

namespace {

/// The value fill() stores: converted on the host to the array's kind, as astype() converts;
/// then it is a weak scalar of that kind, which the kernel receives as the array's dtype
/// exactly. Throws LogicError as fill().
detail::ScalarValue fill_value(const Array& array, const detail::ScalarValue& value) {
  detail::check_arithmetic_dtype(array.dtype(), "the array to fill");
  detail::ScalarValue converted = value;
  const auto kind = array.dtype().kind();
  const auto* complex = std::get_if<std::complex<double>>(&value);
  if (complex != nullptr && kind != DTypeKind::complex) {
    throw LogicError(
        fmt::format("fill: the complex value {} would lose its imaginary part in a {} array",
                    detail::scalar_text(value), array.dtype().name()));
  }
  if (kind == DTypeKind::boolean) {
    converted = std::visit([](const auto& v) { return v != std::decay_t<decltype(v)>(0); }, value);
  } else if (const auto* real = std::get_if<double>(&value);
             real != nullptr && is_integer(array.dtype())) {
    const double truncated = std::trunc(*real);
    if (!(truncated >= -9223372036854775808.0 && truncated < 18446744073709551616.0)) {
      throw LogicError(
          fmt::format("fill: the value {} does not fit {}", *real, array.dtype().name()));
    }
    if (truncated < 0) {
      converted = static_cast<std::int64_t>(truncated);
    } else {
      converted = static_cast<std::uint64_t>(truncated);
    }
  }
  return converted;
}

}  // namespace

void detail::fill(const Queue& queue, const Array& array, const ScalarValue& value) {
  const ScalarValue converted = fill_value(array, value);
  check_devices(queue, *scalar_leaf(converted), &array);
  const auto argument = scalar_argument(converted, array.dtype());  // the range check
  if (array.size() == 0) return;
  // A contiguous array (any order) is a byte range: the backend's fill where the value's
  // bytes repeat with a period it takes (fill_pattern.hpp).
  if (array.metadata().is_dense()) {
    if (const auto bytes = fill_value_bytes(argument, array.dtype())) {
      const auto period = shortest_period(*bytes);
      if (fill_natively(queue, array.base_buffer(), array.metadata().min_offset(),
                        array.metadata().span(), period)) {
        debug(DebugTopic::transfer,
              "fill of a {} array ({} bytes, a {}-byte pattern) on device {} ('{}'): the "
              "backend's fill",
              array.dtype().name(), array.metadata().span(), period.size(), array.device().index(),
              array.device().name());
        return;
      }
    }
  }
  run(queue, array, *scalar_leaf(converted));
}

void detail::fill_by_kernel(const Queue& queue, const Array& array, const ScalarValue& value) {
  const ScalarValue converted = fill_value(array, value);
  check_devices(queue, *scalar_leaf(converted), &array);
  static_cast<void>(scalar_argument(converted, array.dtype()));  // the range check
  if (array.size() == 0) return;
  run(queue, array, *scalar_leaf(converted));
}

ExpressionCacheInfo expression_cache_info() noexcept {
  try {
    return {detail::recipe_cache().size(), detail::RecipeCache::capacity,
            detail::expression_hits.load(), detail::expression_misses.load()};
  } catch (...) {
    return {};
  }
}

}  // namespace plinth
