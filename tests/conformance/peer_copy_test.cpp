// Copies between devices of one context, between every ordered pair of them: Buffer::set and
// Array::set from another device's memory (the backend's peer copy, or the core's staging
// through the host), their ordering after work on the source's device, and MultiArray::resplay
// between splays over all the devices.

#include "fixture.hpp"

#include <algorithm>
#include <cstring>
#include <functional>
#include <numeric>
#include <utility>
#include <vector>

namespace plinth::conformance {
namespace peer_copy_test {
namespace {

using PeerCopy = MultiDeviceTest;

const char* const fill_source = R"(
KERNEL void fill(GLOBAL_MEM unsigned int *data, unsigned int n, unsigned int seed)
{
    const unsigned int i = get_global_id(0);
    if (i >= n) return;
    unsigned int v = seed ^ i;
    for (int k = 0; k < 64; ++k) v = v * 1103515245u + 12345u;
    data[i] = v;
}
)";

/// What `fill` writes at `i`.
unsigned int fill_value(unsigned int i, unsigned int seed) {
  unsigned int v = seed ^ i;
  for (int k = 0; k < 64; ++k) v = v * 1103515245u + 12345u;
  return v;
}

std::vector<std::byte> read(const Queue& queue, const Buffer& buffer) {
  std::vector<std::byte> bytes(buffer.size());
  buffer.get(queue, bytes);
  return bytes;
}

/// The bytes of a host array's elements in C order.
std::vector<std::byte> bytes_of(const HostArray& host) {
  const HostArray contiguous = host.is_contiguous() ? host : host.copy();
  return {contiguous.data(), contiguous.data() + contiguous.nbytes()};
}

/// Every ordered pair (from, to) of distinct device indices below `n`, in a fixed order.
std::vector<std::pair<std::size_t, std::size_t>> ordered_pairs(std::size_t n) {
  std::vector<std::pair<std::size_t, std::size_t>> pairs;
  for (std::size_t from = 0; from < n; ++from) {
    for (std::size_t to = 0; to < n; ++to) {
      if (to != from) pairs.emplace_back(from, to);
    }
  }
  return pairs;
}

TEST_P(PeerCopy, BuffersAreCopiedBetweenEveryPairOfDevices) {
  const auto devices = context().devices();
  const auto queues = MultiQueue::on_devices(devices);
  const std::size_t n = devices.size();
  // One byte, an odd size, and more than the core's 64 MiB staging chunk; every ordered pair,
  // synchronous one way and asynchronous (then read in the same queue) the other.
  for (const std::size_t size : {std::size_t{1}, std::size_t{4099}, (std::size_t{64} << 20) + 3}) {
    // A destination on every device, holding bytes no source has, so that each copy must
    // write: afterwards each holds the last source copied into it, which the next differs from.
    std::vector<Buffer> dst;
    const auto untouched = pattern(size, 1);
    for (std::size_t d = 0; d < n; ++d) {
      dst.push_back(Buffer::allocate(devices[d], size));
      dst.back().set(queues[devices[d]], untouched, true);
    }
    for (std::size_t from = 0; from < n; ++from) {
      const auto bytes = pattern(size, static_cast<unsigned>(3 + from));
      const auto src = Buffer::allocate(devices[from], size);
      src.set(queues[devices[from]], bytes, true);
      for (std::size_t to = 0; to < n; ++to) {
        if (to == from) continue;
        SCOPED_TRACE(::testing::Message()
                     << size << " bytes from device " << from << " to " << to << " of " << n);
        const auto& queue = queues[devices[to]];
        dst[to].set(queue, src, /*no_async=*/to > from);
        EXPECT_TRUE(read(queue, dst[to]) == bytes);
      }
    }
  }
  // Sub-regions at odd offsets: only the region changes.
  for (const auto& [from, to] : ordered_pairs(n)) {
    SCOPED_TRACE(::testing::Message() << "sub-regions from device " << from << " to " << to);
    const auto src_bytes = pattern(5000, static_cast<unsigned>(1 + from));
    auto dst_bytes = pattern(5000, static_cast<unsigned>(100 + to));
    const auto& queue = queues[devices[to]];
    const auto src = Buffer::allocate(devices[from], src_bytes.size());
    src.set(queues[devices[from]], src_bytes, true);
    const auto dst = Buffer::allocate(devices[to], dst_bytes.size());
    dst.set(queue, dst_bytes, true);
    const std::size_t at = 7 + from, count = 1333 + to;
    dst.get_sub_region(at, count).set(queue, src.get_sub_region(101, count), true);
    dst.get_sub_region(4999, 1).set(queue, src.get_sub_region(3, 1), true);
    std::copy_n(src_bytes.begin() + 101, count,
                dst_bytes.begin() + static_cast<std::ptrdiff_t>(at));
    dst_bytes[4999] = src_bytes[3];
    EXPECT_TRUE(read(queue, dst) == dst_bytes);
    // Sizes must still match.
    EXPECT_NE(logic_error_message([&] { dst.set(queue, src.get_sub_region(0, 10)); }),
              "(no LogicError)");
  }
}

TEST_P(PeerCopy, ArraysAreCopiedBetweenEveryPairOfDevices) {
  const auto devices = context().devices();
  const auto queues = MultiQueue::on_devices(devices);
  const auto zeros =
      HostArray::from_bytes(std::vector<std::byte>(6 * 5 * 8), {6, 5}, DType::complex64());
  for (const auto& [from, to] : ordered_pairs(devices.size())) {
    SCOPED_TRACE(::testing::Message() << "from device " << from << " to " << to);
    const auto& queue = queues[devices[to]];
    const auto host = HostArray::from_bytes(pattern(6 * 5 * 8, static_cast<unsigned>(7 + from)),
                                            {6, 5}, DType::complex64());
    const auto src = Array::from_host(queues[devices[from]], host);
    const auto dst = Array::from_host(queue, zeros);
    // Contiguous: rows 2 to 4 into rows 1 to 3 (the device-to-device path).
    dst.view({Slice(1, 4)}).set(queue, src.view({Slice(2, 5)}), true);
    auto expected = zeros.copy();
    expected.view({Slice(1, 4)}).assign(host.view({Slice(2, 5)}));
    EXPECT_TRUE(bytes_of(dst.get(queue)) == bytes_of(expected));
    // Not contiguous (a reversed column into a column): through the host.
    dst.view({Slice::all(), 0})
        .set(queue, src.view({Slice(std::nullopt, std::nullopt, -1), 3}), true);
    expected.view({Slice::all(), 0}).assign(host.view({Slice(std::nullopt, std::nullopt, -1), 3}));
    EXPECT_TRUE(bytes_of(dst.get(queue)) == bytes_of(expected));
    // Shapes must match.
    EXPECT_NE(logic_error_message([&] {
                dst.set(queue, src.view({Slice(0, 2)}));
              }).find("shape mismatch"),
              std::string::npos);
  }
}

TEST_P(PeerCopy, CopiesWaitForTheSourcesWrites) {
  const auto devices = context().devices();
  const auto queues = MultiQueue::on_devices(devices);
  const Program program(devices, fill_source);
  const unsigned int n = 1 << 20;
  // Every ordered pair; the first twice (the second copy overwrites the first's results).
  unsigned int seed = 1;
  bool first_pair = true;
  for (const auto& [from, to] : ordered_pairs(devices.size())) {
    const auto& source_queue = queues[devices[from]];
    const auto& queue = queues[devices[to]];
    const auto src = Buffer::allocate(devices[from], n * sizeof(unsigned int));
    const auto dst = Buffer::allocate(devices[to], n * sizeof(unsigned int));
    dst.set(queue, std::vector<std::byte>(dst.size()), true);
    const int rounds = first_pair ? 2 : 1;
    first_pair = false;
    for (int round = 0; round < rounds; ++round, ++seed) {
      program.kernel("fill")(source_queue, {n}, {}, src, n, seed);
      queue.wait_for(source_queue.record_event());
      dst.set(queue, src);
      std::vector<unsigned int> values(n);
      dst.get(queue, std::as_writable_bytes(std::span(values)));
      std::size_t wrong = 0;
      for (unsigned int i = 0; i < n; ++i) wrong += values[i] != fill_value(i, seed);
      EXPECT_EQ(wrong, 0U) << "from device " << from << " to " << to << ", seed " << seed;
    }
  }
}

/// The last row on the last device, the rest on the first (splay.hpp's example).
struct LastRowSplay : BaseSplay {
  std::vector<std::vector<Index>> split(const std::vector<std::size_t>& shape,
                                        const BoundMultiDevice& devices) const override {
    const auto rows = static_cast<std::ptrdiff_t>(shape.at(0));
    std::vector<std::vector<Index>> parts(devices.size(), {Slice(0, 0)});
    parts.front() = {Slice(0, rows - 1)};
    parts.back() = {Slice(rows - 1, rows)};
    return parts;
  }
};

/// The second dimension split evenly (parts that are not contiguous in the whole array), with
/// negative and open slice ends.
struct MiddleSplay : BaseSplay {
  std::vector<std::vector<Index>> split(const std::vector<std::size_t>& shape,
                                        const BoundMultiDevice& devices) const override {
    const auto counts = EqualSplay::row_counts(shape.at(1), devices.size());
    std::vector<std::vector<Index>> parts;
    std::ptrdiff_t start = 0;
    for (std::size_t d = 0; d < counts.size(); ++d) {
      const auto stop = start + static_cast<std::ptrdiff_t>(counts[d]);
      const auto last = d + 1 == counts.size();
      parts.push_back({Slice::all(), Slice(start - static_cast<std::ptrdiff_t>(shape[1]),
                                           last ? std::optional<std::ptrdiff_t>() : stop)});
      start = stop;
    }
    return parts;
  }
};

/// Every other row: views with a step (resplayed through the host).
struct StepSplay : BaseSplay {
  std::vector<std::vector<Index>> split(const std::vector<std::size_t>&,
                                        const BoundMultiDevice& devices) const override {
    std::vector<std::vector<Index>> parts;
    const auto n = static_cast<std::ptrdiff_t>(devices.size());
    for (std::ptrdiff_t d = 0; d < n; ++d) parts.push_back({Slice(d, std::nullopt, n)});
    return parts;
  }
};

std::vector<DType> resplay_dtypes() {
  return {DType::int8(), DType::float32(), DType::complex64(),
          DType::make_struct({{"x", DType::float64()}, {"y", DType::int8()}})};
}

using Splays = std::vector<std::shared_ptr<const BaseSplay>>;

/// Resplays a random array of `shape` and `dtype` through `splays` in turn, checking every
/// step's parts against the host array's views.
void check_resplays(const Context& context, const std::vector<std::size_t>& shape,
                    const DType& dtype, const Splays& splays, bool no_async) {
  const auto devices = context.devices();
  const auto queues = MultiQueue::on_devices(devices);
  const std::size_t n =
      std::accumulate(shape.begin(), shape.end(), std::size_t{1}, std::multiplies<>());
  const auto host = HostArray::from_bytes(pattern(n * dtype.itemsize(), 11), shape, dtype);
  auto array = MultiArray::from_host(queues, host, splays.front());
  for (std::size_t s = 1; s < splays.size(); ++s) {
    SCOPED_TRACE(::testing::Message() << "resplay " << s);
    array = array.resplay(queues, splays[s], no_async);
    if (!no_async) queues.synchronize();
    EXPECT_EQ(array.shape(), shape);
    EXPECT_EQ(array.dtype(), dtype);
    EXPECT_EQ(&array.splay(), splays[s].get());
    const auto parts = splays[s]->split(shape, devices);
    for (std::size_t d = 0; d < devices.size(); ++d) {
      const auto part = array[devices[d]].get(queues[devices[d]]);
      EXPECT_TRUE(bytes_of(part) == bytes_of(host.view(parts[d])))
          << "device " << d << " of " << devices.size();
    }
  }
}

TEST_P(PeerCopy, ResplayMovesElementsBetweenSplays) {
  const auto equal = std::make_shared<const EqualSplay>();
  const auto clone = std::make_shared<const CloneSplay>();
  const auto last_row = std::make_shared<const LastRowSplay>();
  // Sizes grow with the number of devices (EqualSplay and MiddleSplay need a row or a
  // column for each), uneven among them; on two devices, 7, 11, 5 x 4, 4 x 5 and 3.
  const std::size_t n = context().devices().size();
  for (const auto& dtype : resplay_dtypes()) {
    SCOPED_TRACE(dtype.name());
    check_resplays(context(), {2 * n + 3, 3}, dtype,
                   {equal, clone, equal, last_row, clone, last_row}, true);
    check_resplays(context(), {4 * n + 3}, dtype, {equal, clone, equal}, false);
  }
  const auto middle = std::make_shared<const MiddleSplay>();
  const auto step = std::make_shared<const StepSplay>();
  check_resplays(context(), {2 * n + 1, 2 * n, 3}, DType::float32(),
                 {equal, middle, clone, middle, step, equal, step, clone}, true);
  check_resplays(context(), {2 * n, 2 * n + 1, 6}, DType::int8(),
                 {clone, middle, last_row, middle, equal}, false);
  // No dimensions (one element), and no elements.
  check_resplays(context(), {}, DType::int32(), {clone, clone}, true);
  check_resplays(context(), {0, n + 1}, DType::int32(), {clone, middle, clone}, false);
}

TEST_P(PeerCopy, ResplayWaitsForWritesToTheOldParts) {
  const auto devices = context().devices();
  const auto queues = MultiQueue::on_devices(devices);
  const Program program(devices, fill_source);
  const unsigned int rows = 1 << 10, cols = 256;
  const auto array = MultiArray::empty(devices, {rows, cols}, DType::uint32());
  std::vector<unsigned int> expected(std::size_t{rows} * cols);
  std::size_t offset = 0;
  for (std::size_t d = 0; d < devices.size(); ++d) {
    const auto& part = array[devices[d]];
    const auto count = static_cast<unsigned int>(part.size());
    program.kernel("fill")(queues[devices[d]], {count}, {}, part, count,
                           static_cast<unsigned int>(d + 5));
    for (unsigned int i = 0; i < count; ++i) {
      expected[offset + i] = fill_value(i, static_cast<unsigned int>(d + 5));
    }
    offset += count;
  }
  // No synchronization: the resplay is ordered after the kernels.
  const auto clone = array.resplay(queues, std::make_shared<CloneSplay>());
  for (const auto& device : devices) {
    EXPECT_TRUE(clone[device].get(queues[device]).to_vector<unsigned int>() == expected)
        << "device " << device.index();
  }
}

TEST_P(PeerCopy, ResplayRefusesMissingQueuesAndImpossibleSplays) {
  const auto devices = context().devices();
  const auto queues = MultiQueue::on_devices(devices);
  const std::size_t rows = devices.size() + 1;  // one more than devices: EqualSplay splits it
  const auto array = MultiArray::from_host(
      queues, HostArray::from_bytes(pattern(rows * 4), {rows}, DType::int32()));
  const MultiQueue first_only({queues[devices[0]]});
  const auto missing =
      logic_error_message([&] { array.resplay(first_only, std::make_shared<CloneSplay>()); });
  EXPECT_NE(missing.find("MultiArray::resplay: the MultiQueue has no queue on device " +
                         std::to_string(devices[1].index())),
            std::string::npos)
      << missing;
  // EqualSplay of one row among several devices.
  const auto clone =
      MultiArray::from_host(queues, HostArray::from_bytes(pattern(4), {1}, DType::int32()),
                            std::make_shared<CloneSplay>());
  const auto impossible =
      logic_error_message([&] { clone.resplay(queues, std::make_shared<EqualSplay>()); });
  EXPECT_NE(impossible.find("more devices than rows"), std::string::npos) << impossible;
  // A null splay means the default, EqualSplay.
  const auto equal = array.resplay(queues, nullptr, true);
  EXPECT_NE(dynamic_cast<const EqualSplay*>(&equal.splay()), nullptr);
  EXPECT_TRUE(bytes_of(equal.get(queues)) == pattern(rows * 4));
}

PLINTH_INSTANTIATE_MULTI_DEVICE_TEST(PeerCopy);

}  // namespace
}  // namespace peer_copy_test
}  // namespace plinth::conformance
