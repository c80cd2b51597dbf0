// MultiArrays over several devices of one context: EqualSplay, CloneSplay, a custom splay,
// kernels run on every device at once with MultiArray and per-device arguments, misuse.

#include "fixture.hpp"

#include <functional>
#include <numeric>

namespace plinth::conformance {
namespace multi_array_test {
namespace {

using MultiArrayTest = MultiDeviceTest;

const char* const multi_source = R"(
KERNEL void add_rows(GLOBAL_MEM int *data, int cols, int bias)
{
    const int j = get_global_id(0), i = get_global_id(1);
    data[i * cols + j] += bias + i;
}
)";

HostArray iota_host(std::vector<std::size_t> shape, int start = 0) {
  const std::size_t n =
      std::accumulate(shape.begin(), shape.end(), std::size_t{1}, std::multiplies<>());
  std::vector<int> values(n);
  std::iota(values.begin(), values.end(), start);
  return HostArray::from_values(values, std::move(shape));
}

TEST(EqualSplayRows, FirstDevicesTakeTheRemainder) {
  EXPECT_EQ(EqualSplay::row_counts(10, 3), (std::vector<std::size_t>{4, 3, 3}));
  EXPECT_EQ(EqualSplay::row_counts(10, 4), (std::vector<std::size_t>{3, 3, 2, 2}));
  EXPECT_EQ(EqualSplay::row_counts(10, 2), (std::vector<std::size_t>{5, 5}));
  EXPECT_EQ(EqualSplay::row_counts(11, 2), (std::vector<std::size_t>{6, 5}));
  EXPECT_EQ(EqualSplay::row_counts(7, 5), (std::vector<std::size_t>{2, 2, 1, 1, 1}));
  EXPECT_EQ(EqualSplay::row_counts(3, 3), (std::vector<std::size_t>{1, 1, 1}));
  EXPECT_THROW(EqualSplay::row_counts(2, 3), LogicError);
  EXPECT_THROW(EqualSplay::row_counts(5, 0), LogicError);
}

TEST_P(MultiArrayTest, EqualSplayGivesEachDeviceItsRows) {
  const auto devices = context().devices();
  const std::size_t n = devices.size();
  for (const std::size_t rows : {std::size_t{10}, std::size_t{11}, n}) {
    SCOPED_TRACE(::testing::Message() << rows << " rows on " << n << " devices");
    const auto expected = EqualSplay::row_counts(rows, n);
    const auto array = MultiArray::empty(devices, {rows, 3}, DType::float32());
    EXPECT_EQ(array.shape(), (std::vector<std::size_t>{rows, 3}));
    ASSERT_EQ(array.shapes().size(), n);
    for (std::size_t d = 0; d < n; ++d) {
      EXPECT_EQ(array.shapes()[devices[d]], (std::vector<std::size_t>{expected[d], 3}));
      EXPECT_EQ(array[devices[d]].device(), devices[d]);
    }
    std::size_t total = 0;
    for (std::size_t d = 0; d < n; ++d) {
      if (d > 0) {
        EXPECT_LE(expected[d], expected[d - 1]);
      }
      EXPECT_LE(expected.front() - expected[d], 1u);
      total += expected[d];
    }
    EXPECT_EQ(total, rows);
  }
  // Subsets of 3 and 4 devices, where there are that many.
  if (n >= 3) {
    const auto three = MultiArray::empty(devices[{0, 1, 2}], {10}, DType::int32());
    EXPECT_EQ(three.shapes()[devices[0]], std::vector<std::size_t>{4});
    EXPECT_EQ(three.shapes()[devices[2]], std::vector<std::size_t>{3});
  }
  if (n >= 4) {
    const auto four = MultiArray::empty(devices[{0, 1, 2, 3}], {10}, DType::int32());
    EXPECT_EQ(four.shapes()[devices[1]], std::vector<std::size_t>{3});
    EXPECT_EQ(four.shapes()[devices[2]], std::vector<std::size_t>{2});
  }
  // More devices than rows.
  try {
    MultiArray::empty(devices, {n - 1, 4}, DType::int32());
    FAIL() << "split " << n - 1 << " rows among " << n << " devices";
  } catch (const LogicError& e) {
    EXPECT_NE(std::string(e.what()).find("more devices than rows"), std::string::npos) << e.what();
  }
  EXPECT_THROW(MultiArray::empty(devices, {}, DType::int32()), LogicError);
}

TEST_P(MultiArrayTest, EqualSplayRoundTrip) {
  const auto devices = context().devices();
  auto queues = MultiQueue::on_devices(devices);
  const auto host = iota_host({11, 4});
  const auto array = MultiArray::from_host(queues, host);
  EXPECT_EQ(array.get(queues).to_vector<int>(), host.to_vector<int>());
  // Each device holds its block of rows.
  std::size_t row = 0;
  for (const auto& device : devices) {
    const auto part = array[device].get(queues[device]);
    const auto rows = part.shape()[0];
    EXPECT_EQ(part.to_vector<int>(), host.view({Slice(static_cast<std::ptrdiff_t>(row),
                                                      static_cast<std::ptrdiff_t>(row + rows))})
                                         .to_vector<int>());
    row += rows;
  }
  EXPECT_EQ(row, 11u);
  // Asynchronous set and get, and a copy between MultiArrays.
  const auto other = iota_host({11, 4}, 1000);
  array.set(queues, other);
  const auto dest = HostArray::empty({11, 4}, DType::int32());
  array.get(queues, dest, true);
  queues.synchronize();
  EXPECT_EQ(dest.to_vector<int>(), other.to_vector<int>());
  const auto copy = MultiArray::empty(devices, {11, 4}, DType::int32());
  copy.set(queues, array, true);
  EXPECT_EQ(copy.get(queues).to_vector<int>(), other.to_vector<int>());
}

TEST_P(MultiArrayTest, CloneSplayCopiesEverything) {
  const auto devices = context().devices();
  auto queues = MultiQueue::on_devices(devices);
  const auto host = iota_host({3, 5});
  const auto clone = std::make_shared<CloneSplay>();
  const auto array = MultiArray::from_host(queues, host, clone);
  for (const auto& device : devices) {
    EXPECT_EQ(array.shapes()[device], (std::vector<std::size_t>{3, 5}));
    EXPECT_EQ(array[device].get(queues[device]).to_vector<int>(), host.to_vector<int>());
  }
  EXPECT_EQ(array.get(queues).to_vector<int>(), host.to_vector<int>());
  // Fewer rows than devices is fine for clones.
  const auto small = MultiArray::empty(devices, {1}, DType::int32(), {}, clone);
  EXPECT_EQ(small.shapes()[devices[1]], std::vector<std::size_t>{1});
}

/// A custom splay: device d of n gets the columns d, d + n, d + 2n... (strided host views).
struct ColumnSplay : BaseSplay {
  std::vector<std::vector<Index>> split(const std::vector<std::size_t>& shape,
                                        const BoundMultiDevice& devices) const override {
    if (shape.size() != 2) throw LogicError("ColumnSplay: two dimensions only");
    std::vector<std::vector<Index>> parts;
    const auto n = static_cast<std::ptrdiff_t>(devices.size());
    for (std::ptrdiff_t d = 0; d < n; ++d)
      parts.push_back({Slice::all(), Slice(d, std::nullopt, n)});
    return parts;
  }
};

TEST_P(MultiArrayTest, CustomSplay) {
  const auto devices = context().devices();
  auto queues = MultiQueue::on_devices(devices);
  const std::size_t n = devices.size();
  const auto host = iota_host({3, 2 * n + 1});
  const auto array = MultiArray::from_host(queues, host, std::make_shared<ColumnSplay>());
  EXPECT_EQ(array.shapes()[devices[0]], (std::vector<std::size_t>{3, 3}));
  EXPECT_EQ(array.shapes()[devices[1]], (std::vector<std::size_t>{3, 2}));
  for (std::size_t d = 0; d < n; ++d) {
    const auto part = array[devices[d]].get(queues[devices[d]]);
    const auto expected =
        host.view({Slice::all(), Slice(static_cast<std::ptrdiff_t>(d), std::nullopt,
                                       static_cast<std::ptrdiff_t>(n))});
    EXPECT_EQ(part.to_vector<int>(), expected.to_vector<int>());
  }
  EXPECT_EQ(array.get(queues).to_vector<int>(), host.to_vector<int>());
  EXPECT_THROW(MultiArray::empty(devices, {4}, DType::int32(), {}, std::make_shared<ColumnSplay>()),
               LogicError);
}

TEST_P(MultiArrayTest, AllocatorIsUsedForEveryPart) {
  const auto devices = context().devices();
  std::vector<std::pair<std::size_t, std::size_t>> requests;  // device index, bytes
  const Allocator counting = [&](const BoundDevice& device, std::size_t size) {
    requests.emplace_back(device.index(), size);
    return Buffer::allocate(device, size);
  };
  const auto array = MultiArray::empty(devices, {devices.size() * 2 + 1}, DType::int64(), counting);
  ASSERT_EQ(requests.size(), devices.size());
  EXPECT_EQ(requests[0], (std::pair<std::size_t, std::size_t>{devices[0].index(), 24}));
  EXPECT_EQ(requests[1], (std::pair<std::size_t, std::size_t>{devices[1].index(), 16}));
}

TEST_P(MultiArrayTest, KernelRunsOnEveryDeviceAtOnce) {
  const auto devices = context().devices();
  auto queues = MultiQueue::on_devices(devices);
  Program program(devices, multi_source);
  const std::size_t rows = 2 * devices.size() + 1, cols = 8;
  const auto host = iota_host({rows, cols});
  const auto array = MultiArray::from_host(queues, host);

  // Per-device global sizes (columns, this device's rows) and a per-device scalar.
  PerDevice<std::vector<std::size_t>> global;
  PerDevice<int> bias;
  for (std::size_t d = 0; d < devices.size(); ++d) {
    global.insert(devices[d], {cols, array.shapes()[devices[d]][0]});
    bias.insert(devices[d], static_cast<int>(d) * 1000);
  }
  const auto prepared = program.kernel("add_rows").prepare_per_device(global);
  prepared(queues, array, static_cast<int>(cols), bias);
  // And once more through Kernel::operator().
  program.kernel("add_rows")(queues, global, {}, array, static_cast<int>(cols), bias);
  queues.synchronize();

  const auto result = array.get(queues);
  std::size_t first_row = 0;
  for (std::size_t d = 0; d < devices.size(); ++d) {
    const std::size_t part_rows = array.shapes()[devices[d]][0];
    for (std::size_t i = 0; i < part_rows; ++i) {
      for (std::size_t j = 0; j < cols; ++j) {
        const int original = static_cast<int>((first_row + i) * cols + j);
        EXPECT_EQ(result.at<int>({first_row + i, j}),
                  original + 2 * (static_cast<int>(d) * 1000 + static_cast<int>(i)))
            << "device " << d << ", row " << i << ", column " << j;
      }
    }
    first_row += part_rows;
  }

  // The same global size everywhere, with clones.
  const auto clones =
      MultiArray::from_host(queues, iota_host({2, cols}), std::make_shared<CloneSplay>());
  program.kernel("add_rows")(queues, {cols, 2}, {}, clones, static_cast<int>(cols), 5);
  for (const auto& device : devices) {
    const auto part = clones[device].get(queues[device]);
    EXPECT_EQ(part.at<int>({1, 3}), 11 + 5 + 1);
  }
}

TEST_P(MultiArrayTest, MisuseIsALogicError) {
  const auto devices = context().devices();
  auto queues = MultiQueue::on_devices(devices);
  Program program(devices, multi_source);
  const auto expect_error = [](auto&& call, const std::string& needle) {
    try {
      call();
      ADD_FAILURE() << "accepted; expected an error mentioning '" << needle << "'";
    } catch (const LogicError& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  // A MultiArray missing a device of the queue.
  const auto on_first = MultiArray::empty(devices[{0}], {4, 8}, DType::int32());
  expect_error(
      [&] {
        program.kernel("add_rows")(queues, {8, 4}, {}, on_first, 8, 0);
      },
      "no part on device " + std::to_string(devices[1].index()));
  // A PerDevice missing one.
  const auto array = MultiArray::empty(devices, {devices.size() * 2, 8}, DType::int32());
  const PerDevice<int> partial{{devices[0], 1}};
  expect_error(
      [&] {
        program.kernel("add_rows")(queues, {8, 2}, {}, array, 8, partial);
      },
      "no value for device " + std::to_string(devices[1].index()));
  // A prepared kernel without a global size for a device.
  const auto prepared =
      program.kernel("add_rows")
          .prepare_per_device(PerDevice<std::vector<std::size_t>>{{devices[0], {8, 2}}});
  expect_error([&] { prepared(queues, array, 8, 0); }, "no global size for device");
  // An Array of one device passed to a kernel on another.
  const auto single = Array::empty(devices[0], {2, 8}, DType::int32());
  expect_error(
      [&] {
        program.kernel("add_rows")(queues[devices[1]], {8, 2}, {}, single, 8, 0);
      },
      "the Array is on device " + std::to_string(devices[0].index()));
  expect_error(
      [&] {
        program.kernel("add_rows")(queues, {8, 2}, {}, single, 8, 0);
      },
      "the Array is on device");
  // Transfers with a MultiQueue that lacks a device of the array, or mismatched arrays.
  const MultiQueue first_only({queues.queues()[0]});
  expect_error([&] { array.get(first_only); }, "no queue on device");
  expect_error([&] { array.set(first_only, HostArray::empty(array.shape(), DType::int32())); },
               "no queue on device");
  expect_error([&] { array.set(queues, HostArray::empty({1, 8}, DType::int32())); }, "shape");
  expect_error([&] { array.set(queues, on_first); }, "not on the same devices");
  // Still usable.
  const auto host = iota_host(array.shape());
  array.set(queues, host, true);
  EXPECT_EQ(array.get(queues).to_vector<int>(), host.to_vector<int>());
}

PLINTH_INSTANTIATE_MULTI_DEVICE_TEST(MultiArrayTest);

}  // namespace
}  // namespace multi_array_test
}  // namespace plinth::conformance
