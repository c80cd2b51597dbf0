// The kernel families on MultiArrays over several devices of one context, with the whole
// array's meaning: reductions over the split axis and along the others (the conveniences and
// a user's ReductionKernel with two MultiArrays), scans along a split array (inclusive,
// exclusive, in place), and random numbers equal to those of one Array of the same shape.
// Each is compared with the same computation on one device or on the host.

#include "fixture.hpp"

#include <plinth/array_reductions.hpp>
#include <plinth/random.hpp>
#include <plinth/reduction.hpp>
#include <plinth/scan.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

namespace plinth::conformance {
namespace multi_kernels_test {
namespace {

using MultiKernelTest = MultiDeviceTest;

const DType f32 = DType::float32(), i32 = DType::int32(), i64 = DType::int64();

/// Values -37..37 in a scrambled order, so sums and extremes depend on every element.
std::vector<std::int32_t> scrambled(std::size_t n, std::uint32_t seed = 1) {
  std::vector<std::int32_t> values(n);
  for (std::size_t k = 0; k < n; ++k) {
    values[k] = static_cast<std::int32_t>((k * 2654435761u + seed * 40503u) % 75) - 37;
  }
  return values;
}

/// A splay giving device d of n the columns [d * cols / n, (d + 1) * cols / n): a split
/// along axis 1.
struct ColumnBlockSplay : BaseSplay {
  std::vector<std::vector<Index>> split(const std::vector<std::size_t>& shape,
                                        const BoundMultiDevice& devices) const override {
    const auto n = devices.size();
    std::vector<std::vector<Index>> parts;
    for (std::size_t d = 0; d < n; ++d) {
      parts.push_back({Slice::all(), Slice(static_cast<std::ptrdiff_t>(d * shape[1] / n),
                                           static_cast<std::ptrdiff_t>((d + 1) * shape[1] / n))});
    }
    return parts;
  }
};

/// The first row on the first device, every other row on the last one, none on the devices
/// between (uneven and empty parts).
struct FirstRowSplay : BaseSplay {
  std::vector<std::vector<Index>> split(const std::vector<std::size_t>& shape,
                                        const BoundMultiDevice& devices) const override {
    std::vector<std::vector<Index>> parts(devices.size(), {Slice(1, 1)});
    parts.front() = {Slice(0, 1)};
    parts.back() = {Slice(1, static_cast<std::ptrdiff_t>(shape.at(0)))};
    return parts;
  }
};

/// Host sums of a (rows, cols) matrix over `axis` (0: per column, 1: per row).
std::vector<std::int64_t> host_sums(const std::vector<std::int32_t>& m, std::size_t rows,
                                    std::size_t cols, std::size_t axis) {
  std::vector<std::int64_t> sums(axis == 0 ? cols : rows, 0);
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t c = 0; c < cols; ++c) sums[axis == 0 ? c : r] += m[r * cols + c];
  }
  return sums;
}

TEST_P(MultiKernelTest, ProdOverTheSplitAxisAndTheOtherAxis) {
  const auto devices = context().devices();
  const auto queues = MultiQueue::on_devices(devices);
  const std::size_t rows = 2 * devices.size() + 3, cols = 5;
  std::vector<std::int32_t> values(rows * cols);
  for (std::size_t k = 0; k < values.size(); ++k) values[k] = static_cast<std::int32_t>(k % 5) - 2;
  const auto host = HostArray::from_values(values, {rows, cols});
  const auto x = MultiArray::from_host(queues, host);
  const Queue& single = queues.queues().front();
  const auto one = Array::from_host(single, host);
  for (const std::optional<std::vector<std::ptrdiff_t>>& axis :
       {std::optional<std::vector<std::ptrdiff_t>>{},
        std::optional<std::vector<std::ptrdiff_t>>{{0}},
        std::optional<std::vector<std::ptrdiff_t>>{{-1}}}) {
    const auto got = prod(queues, x, {.axis = axis});
    EXPECT_EQ(got.get(queues).to_vector<std::int64_t>(),
              prod(single, one, {.axis = axis}).get(single).to_vector<std::int64_t>());
  }
  EXPECT_NE(logic_error_message([&] { prod(queues, x, {.keepdims = true}); }).find("keepdims"),
            std::string::npos);
}

TEST_P(MultiKernelTest, SumsOverTheSplitAxisAndTheOtherAxis) {
  const auto devices = context().devices();
  const auto queues = MultiQueue::on_devices(devices);
  const std::size_t rows = 2 * devices.size() + 3, cols = 37;
  const auto values = scrambled(rows * cols);
  const auto host = HostArray::from_values(values, {rows, cols});
  const auto x = MultiArray::from_host(queues, host);
  // The same sums on one device, of an Array with the same elements.
  const Queue& single = queues.queues().front();
  const auto one = Array::from_host(single, host);

  const auto total = sum(queues, x);  // over the split axis and the other
  EXPECT_EQ(total.shape(), std::vector<std::size_t>{});
  const auto expected_total = std::accumulate(values.begin(), values.end(), std::int64_t{0});
  for (const auto& device : devices) {  // every device holds the whole result
    EXPECT_EQ(total[device].get(queues[device]).to_vector<std::int64_t>(),
              std::vector<std::int64_t>{expected_total});
  }
  EXPECT_EQ(total.get(queues).to_vector<std::int64_t>(),
            sum(single, one).get(single).to_vector<std::int64_t>());

  const ReductionTarget over_rows{.axes = std::vector<std::size_t>{0}};
  const auto columns = sum(queues, x, over_rows);  // over the split axis only
  EXPECT_EQ(columns.shape(), std::vector<std::size_t>{cols});
  for (const auto& device : devices) {
    EXPECT_EQ(columns.shapes()[device], std::vector<std::size_t>{cols});
  }
  EXPECT_EQ(columns.get(queues).to_vector<std::int64_t>(), host_sums(values, rows, cols, 0));
  EXPECT_EQ(columns.get(queues).to_vector<std::int64_t>(),
            sum(single, one, over_rows).get(single).to_vector<std::int64_t>());

  const ReductionTarget over_columns{.axes = std::vector<std::size_t>{1}};
  const auto row_sums = sum(queues, x, over_columns);  // along the other axis: split like x
  EXPECT_EQ(row_sums.shape(), std::vector<std::size_t>{rows});
  for (const auto& device : devices) {
    EXPECT_EQ(row_sums.shapes()[device], std::vector<std::size_t>{x.shapes()[device][0]});
  }
  EXPECT_EQ(row_sums.get(queues).to_vector<std::int64_t>(), host_sums(values, rows, cols, 1));

  // Float sums agree with one device's within rounding.
  std::vector<float> floats(values.begin(), values.end());
  for (auto& v : floats) v *= 0.25f;
  const auto xf = MultiArray::from_host(queues, HostArray::from_values(floats, {rows, cols}));
  const auto onef = Array::from_host(single, HostArray::from_values(floats, {rows, cols}));
  const auto got = sum(queues, xf, over_rows).get(queues).to_vector<float>();
  const auto want = sum(single, onef, over_rows).get(single).to_vector<float>();
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t c = 0; c < cols; ++c) EXPECT_NEAR(got[c], want[c], 1e-4f) << c;
}

TEST_P(MultiKernelTest, MaxAndMinMatchTheHost) {
  const auto devices = context().devices();
  const auto queues = MultiQueue::on_devices(devices);
  const std::size_t rows = devices.size() + 4, cols = 13;
  auto values = scrambled(rows * cols, 7);
  values[rows * cols - 3] = 1000;  // on the last device
  values[2] = -1000;               // on the first
  std::vector<float> floats(values.begin(), values.end());
  const auto host = HostArray::from_values(floats, {rows, cols});
  const auto x = MultiArray::from_host(queues, host);
  EXPECT_EQ(max(queues, x).get(queues).to_vector<float>(), std::vector<float>{1000.0f});
  EXPECT_EQ(min(queues, x).get(queues).to_vector<float>(), std::vector<float>{-1000.0f});
  // Per column (across the devices) and per row (on each device).
  std::vector<float> column_max(cols, -1e30f), row_min(rows, 1e30f);
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t c = 0; c < cols; ++c) {
      column_max[c] = std::max(column_max[c], floats[r * cols + c]);
      row_min[r] = std::min(row_min[r], floats[r * cols + c]);
    }
  }
  EXPECT_EQ(max(queues, x, {.axes = std::vector<std::size_t>{0}}).get(queues).to_vector<float>(),
            column_max);
  EXPECT_EQ(min(queues, x, {.axes = std::vector<std::size_t>{1}}).get(queues).to_vector<float>(),
            row_min);
}

TEST_P(MultiKernelTest, UserReductionOfTwoMultiArraysAndABroadcastClone) {
  const auto devices = context().devices();
  const auto queues = MultiQueue::on_devices(devices);
  const std::size_t rows = 3 * devices.size() + 1, cols = 9;
  const auto xs = scrambled(rows * cols, 3), ys = scrambled(rows * cols, 5);
  const auto ws = scrambled(cols, 11);
  const auto x = MultiArray::from_host(queues, HostArray::from_values(xs, {rows, cols}));
  const auto y = MultiArray::from_host(queues, HostArray::from_values(ys, {rows, cols}));
  // A row every device holds whole, broadcast along the split axis.
  const auto w = MultiArray::from_host(queues, HostArray::from_values(ws, {cols}),
                                       std::make_shared<CloneSplay>());
  const ReductionKernel kernel(
      {ElementwiseArg::input("x", i32), ElementwiseArg::input("y", i32),
       ElementwiseArg::input("w", i32), ElementwiseArg::scalar("bias", i32)},
      i64, "0", "a + b", "(long)x[i] * y[i] + w[i] * bias", {.name = "weighted"});
  std::vector<std::int64_t> per_column(cols, 0);
  std::int64_t total = 0;
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t c = 0; c < cols; ++c) {
      const auto term = std::int64_t{xs[r * cols + c]} * ys[r * cols + c] + ws[c] * 3;
      per_column[c] += term;
      total += term;
    }
  }
  EXPECT_EQ(kernel(queues, x, y, w, 3).get(queues).to_vector<std::int64_t>(),
            std::vector<std::int64_t>{total});
  const auto columns =
      kernel(queues, ReductionTarget{.axes = std::vector<std::size_t>{0}}, x, y, w, 3);
  EXPECT_EQ(columns.get(queues).to_vector<std::int64_t>(), per_column);
  // dot of two split 1-D MultiArrays.
  const auto a = MultiArray::from_host(queues, HostArray::from_values(xs, {rows * cols}));
  const auto b = MultiArray::from_host(queues, HostArray::from_values(ys, {rows * cols}));
  std::int64_t inner = 0;
  for (std::size_t k = 0; k < rows * cols; ++k) inner += std::int64_t{xs[k]} * ys[k];
  EXPECT_EQ(dot(queues, a, b).get(queues).to_vector<std::int32_t>(),
            std::vector<std::int32_t>{static_cast<std::int32_t>(inner)});
}

TEST_P(MultiKernelTest, ReductionsOfOtherSplits) {
  const auto devices = context().devices();
  const auto queues = MultiQueue::on_devices(devices);
  const std::size_t rows = 5, cols = 4 * devices.size() + 2;
  const auto values = scrambled(rows * cols, 13);
  const auto host = HostArray::from_values(values, {rows, cols});
  const ReductionTarget over_rows{.axes = std::vector<std::size_t>{0}};
  const ReductionTarget over_columns{.axes = std::vector<std::size_t>{1}};
  // Split along axis 1: over axis 0 the result is split along its axis 0 like the columns.
  const auto by_columns = MultiArray::from_host(queues, host, std::make_shared<ColumnBlockSplay>());
  const auto column_sums = sum(queues, by_columns, over_rows);
  EXPECT_EQ(column_sums.get(queues).to_vector<std::int64_t>(), host_sums(values, rows, cols, 0));
  for (const auto& device : devices) {
    EXPECT_EQ(column_sums.shapes()[device],
              std::vector<std::size_t>{by_columns.shapes()[device][1]});
  }
  EXPECT_EQ(sum(queues, by_columns, over_columns).get(queues).to_vector<std::int64_t>(),
            host_sums(values, rows, cols, 1));
  // Uneven parts, some empty.
  const auto uneven = MultiArray::from_host(queues, host, std::make_shared<FirstRowSplay>());
  EXPECT_EQ(sum(queues, uneven, over_rows).get(queues).to_vector<std::int64_t>(),
            host_sums(values, rows, cols, 0));
  EXPECT_EQ(sum(queues, uneven, over_columns).get(queues).to_vector<std::int64_t>(),
            host_sums(values, rows, cols, 1));
  // Every device holding the whole array: each reduces its copy.
  const auto clone = MultiArray::from_host(queues, host, std::make_shared<CloneSplay>());
  const auto clone_sums = sum(queues, clone, over_rows);
  for (const auto& device : devices) {
    EXPECT_EQ(clone_sums[device].get(queues[device]).to_vector<std::int64_t>(),
              host_sums(values, rows, cols, 0));
  }
}

TEST_P(MultiKernelTest, ReductionMisuseIsALogicError) {
  const auto devices = context().devices();
  const auto queues = MultiQueue::on_devices(devices);
  const std::size_t rows = 2 * devices.size(), cols = 3;
  const auto host = HostArray::from_values(scrambled(rows * cols), {rows, cols});
  const auto x = MultiArray::from_host(queues, host);
  const ReductionKernel pair({ElementwiseArg::input("x", i32), ElementwiseArg::input("y", i32)},
                             i64, "0", "a + b", "x[i] + y[i]", {.name = "pair"});
  const Queue& first = queues.queues().front();
  const auto expect_message = [](const std::function<void()>& call, const std::string& part) {
    const auto message = logic_error_message(call);
    EXPECT_NE(message.find(part), std::string::npos) << message;
  };
  // A MultiArray on a single queue.
  expect_message([&] { pair(first, x, x); }, "call with a MultiQueue");
  // The first array argument must be a MultiArray.
  const auto plain = Array::from_host(first, host);
  expect_message([&] { pair(queues, plain, x); }, "argument 'x'");
  // Arrays split otherwise than the first.
  const auto cloned = MultiArray::from_host(queues, host, std::make_shared<CloneSplay>());
  expect_message([&] { pair(queues, x, cloned); }, "argument 'y'");
  // No output array, no missing queue, axes in range.
  expect_message([&] { pair(queues, ReductionTarget{.out = plain}, x, x); }, "out");
  expect_message([&] { pair(MultiQueue({first}), x, x); }, "no queue on device");
  expect_message([&] { pair(queues, ReductionTarget{.axes = std::vector<std::size_t>{2}}, x, x); },
                 "axis 2");
  // min of nothing.
  const auto empty = MultiArray::empty(devices, {rows, 0}, f32);
  expect_message([&] { min(queues, empty); }, "no identity");
}

/// Inclusive (or exclusive) prefix sums of `values` on the host, as int64.
std::vector<std::int64_t> host_prefix(const std::vector<std::int32_t>& values, bool exclusive) {
  std::vector<std::int64_t> sums;
  std::int64_t running = 0;
  for (const auto v : values) {
    if (exclusive) sums.push_back(running);
    running += v;
    if (!exclusive) sums.push_back(running);
  }
  return sums;
}

TEST_P(MultiKernelTest, ScansCarryEachPartsTotalIntoTheNext) {
  const auto devices = context().devices();
  const auto queues = MultiQueue::on_devices(devices);
  const Queue& single = queues.queues().front();
  const std::size_t n = 5000 * devices.size() + 3;
  const auto values = scrambled(n, 17);
  const auto host = HostArray::from_values(values, {n});
  const auto x = MultiArray::from_host(queues, host);

  // Inclusive, int32 read as int64 (cumsum's kernel), against the host and one device.
  const ScanKernel inclusive(i64, "a + b", "0", ScanKind::inclusive,
                             {.name = "sum64", .input_dtype = i32});
  const auto out = MultiArray::empty(devices, {n}, i64);
  inclusive(queues, x, out);
  EXPECT_EQ(out.get(queues).to_vector<std::int64_t>(), host_prefix(values, false));
  const auto one_out = Array::empty(single, {n}, i64);
  inclusive(single, Array::from_host(single, host), one_out);
  EXPECT_EQ(out.get(queues).to_vector<std::int64_t>(),
            one_out.get(single).to_vector<std::int64_t>());

  // Exclusive, converting: each carry combines the last output and the last input.
  const ScanKernel exclusive(i64, "a + b", "0", ScanKind::exclusive,
                             {.name = "esum64", .input_dtype = i32});
  exclusive(queues, x, out);
  EXPECT_EQ(out.get(queues).to_vector<std::int64_t>(), host_prefix(values, true));

  // Exclusive in place: the last inputs are kept before the scan overwrites them.
  const ScanKernel in_place(i32, "a + b", "0", ScanKind::exclusive, {.name = "esum32"});
  const auto y = MultiArray::from_host(queues, host);
  in_place(queues, y);
  std::vector<std::int32_t> expected;
  for (const auto v : host_prefix(values, true)) expected.push_back(static_cast<std::int32_t>(v));
  EXPECT_EQ(y.get(queues).to_vector<std::int32_t>(), expected);

  // A running maximum (not a sum): the carry is combined by the operator.
  const ScanKernel running_max(i32, "a > b ? a : b", "-2147483647 - 1", ScanKind::inclusive,
                               {.name = "running_max"});
  auto peaks = values;
  peaks[3] = 500;  // on the first device: carried through all the others
  const auto z = MultiArray::from_host(queues, HostArray::from_values(peaks, {n}));
  running_max(queues, z);
  std::vector<std::int32_t> maxima;
  std::int32_t best = std::numeric_limits<std::int32_t>::min();
  for (const auto v : peaks) maxima.push_back(best = std::max(best, v));
  EXPECT_EQ(z.get(queues).to_vector<std::int32_t>(), maxima);
}

TEST_P(MultiKernelTest, ScansOfRowsUnevenPartsAndClones) {
  const auto devices = context().devices();
  const auto queues = MultiQueue::on_devices(devices);
  const std::size_t rows = 2 * devices.size() + 1, cols = 301;
  const auto values = scrambled(rows * cols, 19);
  const auto host = HostArray::from_values(values, {rows, cols});
  // cumsum of a split matrix: one flat sequence in C order, split like the rows.
  const auto x = MultiArray::from_host(queues, host);
  const auto sums = cumsum(queues, x);
  EXPECT_EQ(sums.shape(), std::vector<std::size_t>{rows * cols});
  for (const auto& device : devices) {
    EXPECT_EQ(sums.shapes()[device], std::vector<std::size_t>{x.shapes()[device][0] * cols});
  }
  EXPECT_EQ(sums.get(queues).to_vector<std::int64_t>(), host_prefix(values, false));
  // Uneven parts (some empty).
  const auto uneven = MultiArray::from_host(queues, host, std::make_shared<FirstRowSplay>());
  EXPECT_EQ(cumsum(queues, uneven).get(queues).to_vector<std::int64_t>(),
            host_prefix(values, false));
  // Every device holding the whole array scans its own copy.
  const auto clone = MultiArray::from_host(queues, host, std::make_shared<CloneSplay>());
  const auto clone_sums = cumsum(queues, clone);
  for (const auto& device : devices) {
    EXPECT_EQ(clone_sums[device].get(queues[device]).to_vector<std::int64_t>(),
              host_prefix(values, false));
  }
}

TEST_P(MultiKernelTest, ScanMisuseIsALogicError) {
  const auto devices = context().devices();
  const auto queues = MultiQueue::on_devices(devices);
  const std::size_t rows = devices.size() + 2, cols = 4 * devices.size();  // a row for each
  const auto host = HostArray::from_values(scrambled(rows * cols), {rows, cols});
  const ScanKernel scan(i32, "a + b", "0");
  const auto expect_message = [](const std::function<void()>& call, const std::string& part) {
    const auto message = logic_error_message(call);
    EXPECT_NE(message.find(part), std::string::npos) << message;
  };
  // Columns are not runs of the flat sequence.
  const auto by_columns = MultiArray::from_host(queues, host, std::make_shared<ColumnBlockSplay>());
  expect_message([&] { scan(queues, by_columns); }, "not a run of consecutive elements");
  // The output split otherwise than the input.
  const auto x = MultiArray::from_host(queues, host);
  const auto cloned =
      MultiArray::empty(devices, {rows, cols}, i32, {}, std::make_shared<CloneSplay>());
  expect_message([&] { scan(queues, x, cloned); }, "argument 'output'");
  expect_message([&] { scan(MultiQueue({queues.queues().front()}), x); }, "no queue on device");
}

TEST_P(MultiKernelTest, RandomNumbersAreThoseOfOneArray) {
  const auto devices = context().devices();
  const auto queues = MultiQueue::on_devices(devices);
  const Queue& single = queues.queues().front();
  const std::size_t rows = 3 * devices.size() + 2, cols = 129;
  const std::vector<std::size_t> shape{rows, cols};
  RandomGenerator multi_rng(2024, 7), one_rng(2024, 7);
  const auto run = [&](const auto& fill, const DType& dtype,
                       std::shared_ptr<const BaseSplay> splay) {
    const auto x = MultiArray::empty(devices, shape, dtype, {}, std::move(splay));
    const auto y = Array::empty(single, shape, dtype);
    fill(multi_rng, queues, x);
    fill(one_rng, single, y);
    EXPECT_EQ(multi_rng.offset(), one_rng.offset());
    const auto a = x.get(queues), b = y.get(single);
    EXPECT_EQ(a.nbytes(), b.nbytes());
    EXPECT_EQ(std::memcmp(a.data(), b.data(), a.nbytes()), 0) << dtype.name();
    return x;
  };
  const auto uniform = [](RandomGenerator& rng, const auto& q, const auto& a) {
    rng.uniform(q, a, -1.0, 2.0);
  };
  const auto normal = [](RandomGenerator& rng, const auto& q, const auto& a) {
    rng.normal(q, a, 3.0, 0.5);
  };
  const auto bits = [](RandomGenerator& rng, const auto& q, const auto& a) { rng.bits(q, a); };
  run(uniform, f32, nullptr);
  run(uniform, f32, nullptr);  // the next offset: fresh numbers, still equal
  run(normal, DType::complex64(), nullptr);
  run(bits, DType::uint32(), nullptr);
  run(bits, DType::int64(), std::make_shared<FirstRowSplay>());
  EXPECT_EQ(multi_rng.offset(), 7u + 5u);
  // Clones: every device gets the whole array's numbers.
  const auto clone = run(uniform, f32, std::make_shared<CloneSplay>());
  const auto first = clone[devices[0]].get(queues[devices[0]]);
  for (const auto& device : devices) {
    const auto copy = clone[device].get(queues[device]);
    EXPECT_EQ(std::memcmp(copy.data(), first.data(), first.nbytes()), 0);
  }
  // Parts that are not runs of the flat order are refused; the offset stays.
  const auto by_columns =
      MultiArray::empty(devices, shape, f32, {}, std::make_shared<ColumnBlockSplay>());
  const auto message = logic_error_message([&] { multi_rng.uniform(queues, by_columns); });
  EXPECT_NE(message.find("not a run of consecutive elements"), std::string::npos) << message;
  EXPECT_EQ(multi_rng.offset(), 7u + 6u);
}

}  // namespace

PLINTH_INSTANTIATE_MULTI_DEVICE_TEST(MultiKernelTest);

}  // namespace multi_kernels_test
}  // namespace plinth::conformance
