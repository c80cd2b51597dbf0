// allclose and array_equal: isclose / == over whole arrays, answered on the host by counting
// the elements that differ (count_nonzero, a ReductionKernel).

#include <plinth/array_expression.hpp>
#include <plinth/compaction.hpp>

#include <cstdint>
#include <cstring>

namespace plinth {

namespace {

/// True if `condition` (bool) holds for every element; waits for the queue.
bool all_true(const Queue& queue, const ArrayExpression& condition) {
  const auto failures = evaluate(queue, logical_not(condition));
  if (failures.size() == 0) return true;
  const auto host = count_nonzero(queue, failures).get(queue);
  std::int64_t count = 0;
  std::memcpy(&count, host.data(), sizeof count);
  return count == 0;
}

}  // namespace

bool allclose(const Queue& queue, const ArrayExpression& a, const ArrayExpression& b, double rtol,
              double atol, bool equal_nan) {
  return all_true(queue, isclose(a, b, rtol, atol, equal_nan));
}

bool array_equal(const Queue& queue, const ArrayExpression& a, const ArrayExpression& b,
                 bool equal_nan) {
  if (a.shape() != b.shape()) return false;
  auto equal = a == b;
  if (equal_nan) equal = equal | (isnan(a) & isnan(b));
  return all_true(queue, equal);
}

}  // namespace plinth
