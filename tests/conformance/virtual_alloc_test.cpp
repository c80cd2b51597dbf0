// Virtual allocations (virtual_alloc.hpp) on every device: grunnur's ten-buffer sequence,
// the dependency contract before and after pack(), data moved by pack(), sub-regions that
// follow their buffer, every real allocation freed, MultiArray with an allocator, misuse.

#include "fixture.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <functional>
#include <map>
#include <numeric>
#include <optional>
#include <thread>
#include <vector>

namespace plinth::conformance {
namespace virtual_alloc_test {
namespace {

using VirtualAllocTest = DeviceTest;
using VirtualAllocMultiDeviceTest = MultiDeviceTest;

const char* const fill_source = R"(
KERNEL void fill(GLOBAL_MEM int *dest, int value)
{
    dest[get_global_id(0)] = value;
}
KERNEL void add_one(GLOBAL_MEM int *dest)
{
    dest[get_global_id(0)] += 1;
}
)";

struct Request {
  std::size_t size;
  std::vector<std::size_t> dependencies;
};

/// grunnur's tests/test_virtual_alloc.py: (id, size, dependencies).
const std::vector<Request> ten_buffers = {
    {2, {}}, {5, {0}}, {5, {0}},     {10, {1, 2}}, {8, {1, 3}},
    {5, {}}, {3, {3}}, {10, {2, 5}}, {5, {1, 6}},  {20, {2, 4, 8}},
};

/// The ten buffers, made by `make(allocator, size)`.
template <class T>
std::vector<T> allocate_ten(const VirtualManager& manager,
                            const std::function<T(const Allocator&, std::size_t)>& make) {
  std::vector<T> made;
  for (const auto& request : ten_buffers) {
    std::vector<T> deps;
    for (const auto d : request.dependencies) deps.push_back(made[d]);
    made.push_back(make(manager.allocator(deps), request.size));
  }
  return made;
}

TEST_P(VirtualAllocTest, TenBuffersZeroOffset) {
  ZeroOffsetManager manager(device());
  auto buffers = allocate_ten<Buffer>(
      manager, [&](const Allocator& a, std::size_t size) { return a(device(), size); });
  for (std::size_t i = 0; i < buffers.size(); ++i) {
    EXPECT_EQ(buffers[i].size(), ten_buffers[i].size);
    EXPECT_EQ(buffers[i].offset(), 0u);
    EXPECT_EQ(buffers[i].device(), device());
  }
  auto stats = manager.statistics();
  EXPECT_EQ(stats.virtual_num, 10u);
  EXPECT_EQ(stats.virtual_size_total, 73u);
  EXPECT_EQ(stats.real_num, 5u);
  EXPECT_EQ(stats.real_size_total, 45u);

  manager.pack(queue());
  stats = manager.statistics();
  EXPECT_EQ(stats.virtual_num, 10u);
  EXPECT_EQ(stats.virtual_size_total, 73u);
  EXPECT_EQ(stats.real_num, 3u);
  EXPECT_EQ(stats.real_size_total, 33u);
  EXPECT_EQ(stats.real_sizes, (std::map<std::size_t, std::size_t>{{5, 1}, {8, 1}, {20, 1}}));
  EXPECT_NE(stats.to_string().find("real: 3 allocs, total size 33b"), std::string::npos) << stats;

  buffers.clear();
  EXPECT_EQ(manager.statistics(), VirtualAllocationStatistics{});
}

TEST_P(VirtualAllocTest, TenBuffersTrivial) {
  TrivialManager manager(device());
  auto buffers = allocate_ten<Buffer>(
      manager, [&](const Allocator& a, std::size_t size) { return a(device(), size); });
  const auto stats = manager.statistics();
  EXPECT_EQ(stats.real_num, 10u);
  EXPECT_EQ(stats.real_size_total, 73u);
  EXPECT_EQ(stats.virtual_size_total, 73u);
  manager.pack(queue());
  EXPECT_EQ(manager.statistics(), stats);
  buffers.clear();
  EXPECT_EQ(manager.statistics(), VirtualAllocationStatistics{});
}

/// Fills each array in turn with its number + 1 + `base` and checks that no element of its
/// dependencies took that value (grunnur's test_contract).
void fill_and_check(const Queue& queue, const Kernel& fill, const std::vector<Array>& arrays,
                    int base) {
  for (const auto& array : arrays) fill(queue, {array.size()}, {}, array, 0);
  for (std::size_t i = 0; i < arrays.size(); ++i) {
    const int value = base + static_cast<int>(i) + 1;
    fill(queue, {arrays[i].size()}, {}, arrays[i], value);
    for (const auto d : ten_buffers[i].dependencies) {
      const auto got = arrays[d].get(queue).to_vector<int>();
      EXPECT_EQ(std::count(got.begin(), got.end(), value), 0)
          << "filling buffer " << i << " changed its dependency " << d;
    }
  }
}

void check_contract(const Context& context, const Queue& queue, const VirtualManager& manager) {
  const Program program(context, fill_source);
  const auto fill = program.kernel("fill");
  // Sizes times 100 elements, so that alignment cannot hide an overlap (grunnur's test).
  auto arrays = allocate_ten<Array>(manager, [&](const Allocator& a, std::size_t size) {
    return Array::empty(queue.device(), {size * 100}, DType::int32(), std::nullopt, std::nullopt,
                        a);
  });
  fill_and_check(queue, fill, arrays, 0);

  // Data moves with pack(): the buffers whose contents were intact and that are kept still
  // have them.
  std::vector<Array> intact;
  std::vector<std::size_t> intact_index;
  for (std::size_t i = 0; i < arrays.size(); ++i) {
    const auto got = arrays[i].get(queue).to_vector<int>();
    if (std::all_of(got.begin(), got.end(), [&](int v) { return v == static_cast<int>(i) + 1; })) {
      intact.push_back(arrays[i]);
      intact_index.push_back(i);
    }
  }
  EXPECT_FALSE(intact.empty());
  manager.pack(queue, intact);
  for (std::size_t k = 0; k < intact.size(); ++k) {
    const auto got = intact[k].get(queue).to_vector<int>();
    EXPECT_EQ(got, std::vector<int>(got.size(), static_cast<int>(intact_index[k]) + 1))
        << "buffer " << intact_index[k] << " lost its data in pack()";
  }
  fill_and_check(queue, fill, arrays, 100);

  // A plain pack (to the smallest layout), then the contract again.
  manager.pack(queue);
  fill_and_check(queue, fill, arrays, 200);

  arrays.clear();
  intact.clear();
  EXPECT_EQ(manager.statistics(), VirtualAllocationStatistics{});
}

TEST_P(VirtualAllocTest, ContractZeroOffset) {
  check_contract(context(), queue(), ZeroOffsetManager(device()));
}

TEST_P(VirtualAllocTest, ContractTrivial) {
  check_contract(context(), queue(), TrivialManager(device()));
}

TEST_P(VirtualAllocTest, PackMovesDataAndSubRegionsFollow) {
  ZeroOffsetManager manager(device());
  const Program program(context(), fill_source);
  // a first (1 KiB), then b (2 KiB, no dependency): two real allocations, which pack()
  // merges into one, moving a.
  auto a = Array::empty(device(), {256}, DType::int32(), std::nullopt, std::nullopt,
                        manager.allocator());
  auto b = Array::empty(device(), {512}, DType::int32(), std::nullopt, std::nullopt,
                        manager.allocator());
  EXPECT_EQ(manager.statistics().real_num, 2u);
  std::vector<int> values(256);
  std::iota(values.begin(), values.end(), 0);
  a.set(queue(), HostArray::from_values(values), true);
  // A view at an offset is a sub-region of the virtual buffer (32 ints: 128 bytes, aligned
  // for OpenCL sub-buffers on the devices we know; skip the kernel part otherwise).
  const auto view = a.view({Slice(32, std::nullopt)});
  const auto region = a.base_buffer().get_sub_region(64, 64);
  const void* old_adapter = &detail::Access::adapter(a.base_buffer());

  manager.pack(queue(), a);
  EXPECT_EQ(manager.statistics().real_num, 1u);
  EXPECT_EQ(manager.statistics().real_size_total, 2048u);
  EXPECT_NE(&detail::Access::adapter(a.base_buffer()), old_adapter) << "pack() did not move a";
  EXPECT_EQ(a.get(queue()).to_vector<int>(), values);
  EXPECT_EQ(view.get(queue()).to_vector<int>(),
            std::vector<int>(values.begin() + 32, values.end()));
  std::vector<std::byte> bytes(64);
  region.get(queue(), bytes);
  EXPECT_EQ(std::memcmp(bytes.data(), values.data() + 16, 64), 0);

  // Writes through the view and the region land in the new memory.
  if (128 % device().params().address_alignment == 0) {
    program.kernel("add_one")(queue(), {view.size()}, {}, view);
    for (std::size_t i = 32; i < values.size(); ++i) ++values[i];
    EXPECT_EQ(a.get(queue()).to_vector<int>(), values);
  }
  std::vector<int> ones(16, -1);
  region.set(queue(), std::as_bytes(std::span(ones)), true);
  std::copy(ones.begin(), ones.end(), values.begin() + 16);
  EXPECT_EQ(a.get(queue()).to_vector<int>(), values);
  (void)b;
}

TEST_P(VirtualAllocTest, RealAllocationsFreedAfterTheManagerIsGone) {
  std::optional<Array> kept;
  {
    ZeroOffsetManager manager(device());
    kept = Array::empty(device(), {64}, DType::int32(), std::nullopt, std::nullopt,
                        manager.allocator());
    auto other = manager.allocator(*kept)(device(), 100);
    EXPECT_EQ(manager.statistics().real_num, 2u);
  }
  // The manager and the other buffer are gone; this one still works (and its memory goes
  // with it: the sanitizer build checks that nothing leaks).
  std::vector<int> values(64, 7);
  kept->set(queue(), HostArray::from_values(values), true);
  EXPECT_EQ(kept->get(queue()).to_vector<int>(), values);
  kept.reset();
}

TEST_P(VirtualAllocTest, MultiArrayWithAnAllocator) {
  ZeroOffsetManager manager(device());
  const auto devices = context().devices();
  auto first = MultiArray::empty(devices, {8, 4}, DType::int32(), manager.allocator());
  auto second = MultiArray::empty(devices, {8, 4}, DType::int32(), manager.allocator(first));
  auto third = Array::empty(device(), {32}, DType::int32(), std::nullopt, std::nullopt,
                            manager.allocator({first, second}));
  const MultiQueue queues({queue()});
  std::vector<int> a(32), b(32, 5), c(32, 9);
  std::iota(a.begin(), a.end(), 0);
  first.set(queues, HostArray::from_values(a, {8, 4}), true);
  second.set(queues, HostArray::from_values(b, {8, 4}), true);
  third.set(queue(), HostArray::from_values(c), true);
  EXPECT_EQ(first.get(queues).to_vector<int>(), a);
  EXPECT_EQ(second.get(queues).to_vector<int>(), b);
  EXPECT_EQ(manager.statistics().real_num, 3u);
  EXPECT_EQ(manager.statistics().virtual_num, 3u);
}

TEST_P(VirtualAllocTest, AllocatorsFromSeveralThreads) {
  ZeroOffsetManager manager(device());
  const auto root = manager.allocator()(device(), 256);
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      try {
        std::vector<Buffer> mine;
        for (int i = 0; i < 25; ++i) {
          const auto allocator = manager.allocator(root);
          mine.push_back(allocator(device(), static_cast<std::size_t>(16 * (t + i % 3 + 1))));
          if (i % 4 == 3) mine.erase(mine.begin());
          (void)manager.statistics();
        }
      } catch (const Error&) {
        ++failures;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(failures.load(), 0);
  const auto stats = manager.statistics();
  EXPECT_EQ(stats.virtual_num, 1u);
  EXPECT_EQ(stats.real_num, 1u);
  EXPECT_EQ(stats.real_size_total, 256u);
}

TEST_P(VirtualAllocTest, Misuse) {
  ZeroOffsetManager manager(device());
  ZeroOffsetManager other(device());
  const auto plain = Buffer::allocate(device(), 64);
  auto message = logic_error_message([&] { (void)manager.allocator(plain); });
  EXPECT_NE(message.find("dependency 0 (a buffer of 64 bytes"), std::string::npos) << message;
  EXPECT_NE(message.find("not a live virtual buffer of this manager"), std::string::npos)
      << message;

  const auto foreign = other.allocator()(device(), 32);
  const auto mine = manager.allocator()(device(), 32);
  message = logic_error_message([&] { (void)manager.allocator({mine, foreign}); });
  EXPECT_NE(message.find("dependency 1 (a buffer of 32 bytes"), std::string::npos) << message;

  // A sub-region is not a virtual buffer of its own.
  message = logic_error_message([&] { (void)manager.allocator(mine.get_sub_region(16, 16)); });
  EXPECT_NE(message.find("sub-region"), std::string::npos) << message;

  // A dependency that died before the allocation: named by its number.
  std::optional<Buffer> doomed = manager.allocator()(device(), 16);
  const auto allocator = manager.allocator(*doomed);
  doomed.reset();
  message = logic_error_message([&] { (void)allocator(device(), 16); });
  EXPECT_NE(message.find("no longer exists"), std::string::npos) << message;

  message = logic_error_message([&] { (void)manager.allocator()(device(), 0); });
  EXPECT_NE(message.find("size must be greater than 0"), std::string::npos) << message;
  message = logic_error_message([&] { manager.pack(queue(), plain); });
  EXPECT_NE(message.find("keep item 0"), std::string::npos) << message;

  // Every failure left the managers usable.
  EXPECT_EQ(manager.statistics().virtual_num, 1u);
  EXPECT_EQ(other.statistics().virtual_num, 1u);
  EXPECT_EQ(manager.allocator(mine)(device(), 8).size(), 8u);
}

TEST_P(VirtualAllocMultiDeviceTest, AnotherDeviceIsAnErrorNamingBoth) {
  const auto devices = context().devices();
  ZeroOffsetManager manager(devices[0]);
  auto message = logic_error_message([&] { (void)manager.allocator()(devices[1], 16); });
  EXPECT_NE(message.find("device 0"), std::string::npos) << message;
  EXPECT_NE(message.find("device 1"), std::string::npos) << message;

  message = logic_error_message(
      [&] { (void)MultiArray::empty(devices, {8}, DType::int32(), manager.allocator()); });
  EXPECT_NE(message.find("device 1"), std::string::npos) << message;

  message = logic_error_message([&] { manager.pack(Queue(devices[1])); });
  EXPECT_NE(message.find("device 1"), std::string::npos) << message;
  EXPECT_EQ(manager.statistics().virtual_num, 0u);
  EXPECT_EQ(manager.statistics().real_num, 0u);

  // On its own device, the same manager is fine.
  auto part = MultiArray::empty(devices[{0}], {8}, DType::int32(), manager.allocator());
  EXPECT_EQ(manager.statistics().virtual_num, 1u);
}

PLINTH_INSTANTIATE_DEVICE_TEST(VirtualAllocTest);
PLINTH_INSTANTIATE_MULTI_DEVICE_TEST(VirtualAllocMultiDeviceTest);

}  // namespace
}  // namespace virtual_alloc_test
}  // namespace plinth::conformance
