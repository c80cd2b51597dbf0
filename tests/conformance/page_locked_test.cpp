// Page-locked host memory (page_locked.hpp): HostArray::page_locked() round trips through
// Arrays (synchronous and asynchronous, empty to 64 MiB), outliving its context's handles, on
// every device of a context; HostRegistration where the backend has it (CUDA) and its clear
// refusal where it does not (OpenCL). A third-party backend without page-locked memory (an
// older SDK, or the SDK's defaults) is skipped; plinth's own backends must have it.

#include "fixture.hpp"
#include "page_locked_support.hpp"

#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace plinth::conformance {
namespace page_locked_test {
namespace {

using PageLockedTest = DeviceTest;
using PageLockedMultiDeviceTest = MultiDeviceTest;

bool is_own_backend(const Context& context) {
  const auto shortcut = context.api().shortcut();
  return shortcut == "cuda" || shortcut == "opencl";
}

#define PLINTH_SKIP_WITHOUT_PAGE_LOCKED(context)                                         \
  if (const auto reason = lacks_page_locked(context)) {                                  \
    if (is_own_backend(context)) FAIL() << "plinth's own backend lacks it: " << *reason; \
    GTEST_SKIP() << "the backend has no page-locked host memory: " << *reason;           \
  }

/// A page-locked array of `size` bytes holding pattern(size, seed).
HostArray page_locked_pattern(const Context& context, std::size_t size, unsigned seed) {
  auto host = HostArray::page_locked(context, {size}, DType::uint8());
  if (size > 0) {
    const auto bytes = pattern(size, seed);
    std::memcpy(host.data(), bytes.data(), size);
  }
  return host;
}

bool same(const HostArray& a, const HostArray& b) {
  return a.nbytes() == b.nbytes() &&
         (a.nbytes() == 0 || std::memcmp(a.data(), b.data(), a.nbytes()) == 0);
}

const std::vector<std::size_t> sizes = {0, 1, 4099, (std::size_t{1} << 20) + 5,
                                        std::size_t{64} << 20};

TEST_P(PageLockedTest, AlignedArraysStartAtTheAlignmentAndTransfer) {
  PLINTH_SKIP_WITHOUT_PAGE_LOCKED(context());
  for (const std::size_t alignment : {std::size_t{4}, std::size_t{256}, std::size_t{1} << 16}) {
    const auto host = HostArray::page_locked(context(), {1000}, DType::float32(), alignment);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(host.data()) % alignment, 0u) << alignment;
    EXPECT_TRUE(host.is_page_locked());
    for (std::size_t k = 0; k < 1000; ++k) host.values<float>()[k] = static_cast<float>(k);
    const auto array = Array::from_host(queue(), host);
    const auto back = HostArray::page_locked(context(), {1000}, DType::float32(), alignment);
    array.get(queue(), back, true);
    queue().synchronize();
    EXPECT_EQ(back.to_vector<float>(), host.to_vector<float>()) << alignment;
  }
  EXPECT_NE(logic_error_message([&] {
              static_cast<void>(HostArray::page_locked(context(), {4}, DType::float64(), 12));
            }).find("HostArray::page_locked: the alignment 12 is not a power of two"),
            std::string::npos);
}

TEST_P(PageLockedTest, ArraysAreZeroFilledAndKnowThemselves) {
  PLINTH_SKIP_WITHOUT_PAGE_LOCKED(context());
  const auto host = HostArray::page_locked(context(), {3, 5}, DType::float32());
  EXPECT_TRUE(host.is_page_locked());
  EXPECT_EQ(host.shape(), (std::vector<std::size_t>{3, 5}));
  EXPECT_EQ(host.to_vector<float>(), std::vector<float>(15, 0.0f));
  EXPECT_TRUE(host.view({1}).is_page_locked());  // views share the block
  EXPECT_FALSE(host.copy().is_page_locked());
  EXPECT_FALSE(HostArray::empty({3, 5}, DType::float32()).is_page_locked());
  const auto empty = HostArray::page_locked(context(), {0, 4}, DType::float64());
  EXPECT_TRUE(empty.is_page_locked());
  EXPECT_EQ(empty.size(), 0U);
  EXPECT_NE(empty.data(), nullptr);
  // A laid-out metadata: strides and a first element offset.
  const ArrayMetadata metadata({2, 2}, DType::int32(), std::vector<std::ptrdiff_t>{16, 4}, 8);
  const auto laid_out = HostArray::page_locked(context(), metadata);
  EXPECT_EQ(laid_out.block().size(), metadata.buffer_size());
  EXPECT_EQ(laid_out.data(), laid_out.block().data() + 8);
}

TEST_P(PageLockedTest, RoundTripsSynchronously) {
  PLINTH_SKIP_WITHOUT_PAGE_LOCKED(context());
  for (const auto size : sizes) {
    SCOPED_TRACE(size);
    const auto host = page_locked_pattern(context(), size, 1);
    const auto array = Array::empty(device(), {size}, DType::uint8());
    array.set(queue(), host, true);
    const auto back = HostArray::page_locked(context(), {size}, DType::uint8());
    array.get(queue(), back);
    EXPECT_TRUE(same(host, back));
  }
}

TEST_P(PageLockedTest, RoundTripsAsynchronously) {
  PLINTH_SKIP_WITHOUT_PAGE_LOCKED(context());
  std::vector<HostArray> backs;
  std::vector<HostArray> sources;
  for (const auto size : sizes) {
    const auto array = Array::empty(device(), {size}, DType::uint8());
    // A temporary source: the queue keeps it alive until the copy is done.
    array.set(queue(), page_locked_pattern(context(), size, 2));
    sources.push_back(page_locked_pattern(context(), size, 2));
    backs.push_back(HostArray::page_locked(context(), {size}, DType::uint8()));
    array.get(queue(), backs.back(), true);
  }
  queue().synchronize();
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    SCOPED_TRACE(sizes[i]);
    EXPECT_TRUE(same(sources[i], backs[i]));
  }
  // Page-locked to ordinary memory and back, and between Arrays.
  const std::size_t size = std::size_t{3} << 20;
  const auto ordinary = HostArray::from_bytes(pattern(size, 3), {size}, DType::uint8());
  const auto first = Array::from_host(queue(), ordinary);
  const auto second = Array::empty(device(), {size}, DType::uint8());
  second.set(queue(), first);
  const auto back = HostArray::page_locked(context(), {size}, DType::uint8());
  second.get(queue(), back, true);
  queue().synchronize();
  EXPECT_TRUE(same(ordinary, back));
}

TEST_P(PageLockedTest, ArraysOutliveTheirContextsHandles) {
  PLINTH_SKIP_WITHOUT_PAGE_LOCKED(context());
  const std::size_t size = (std::size_t{1} << 20) + 17;
  std::optional<HostArray> host;
  {
    const auto local = Context::from_devices({GetParam()});
    host = HostArray::page_locked(local, {size}, DType::uint8());
    const Queue local_queue(local.devices()[0]);
    const auto array = Array::from_host(local_queue, page_locked_pattern(local, size, 4));
    array.get(local_queue, *host);
  }
  // The context's last handle is the array's: its memory is still there and page-locked.
  EXPECT_TRUE(host->is_page_locked());
  const auto expected = pattern(size, 4);
  EXPECT_EQ(std::memcmp(host->data(), expected.data(), size), 0);
  // Any queue can use it (another context of the same device here).
  const auto array = Array::from_host(queue(), *host);
  const auto back = HostArray::empty({size}, DType::uint8());
  array.get(queue(), back);
  EXPECT_TRUE(same(*host, back));
  host.reset();  // frees it, then the context goes
}

TEST_P(PageLockedTest, RegisteredMemoryRoundTripsOrIsRefusedClearly) {
  const std::size_t size = (std::size_t{4} << 20) + 8;
  std::vector<std::byte> mine(size);
  const std::span<std::byte> memory(mine);
  std::optional<HostRegistration> registration;
  try {
    registration.emplace(context(), memory);
  } catch (const LogicError& e) {
    const std::string message = e.what();
    if (context().api().shortcut() == "opencl") {
      EXPECT_NE(message.find("OpenCL cannot page-lock existing host memory"), std::string::npos)
          << message;
      EXPECT_NE(message.find("HostArray::page_locked()"), std::string::npos) << message;
      return;
    }
    if (is_own_backend(context())) FAIL() << "plinth's own backend cannot register: " << message;
    GTEST_SKIP() << "the backend cannot page-lock existing memory: " << message;
  }
  ASSERT_NE(context().api().shortcut(), "opencl") << "OpenCL registered memory";
  EXPECT_EQ(registration->memory().data(), mine.data());
  const auto source = pattern(size, 5);
  std::memcpy(mine.data(), source.data(), size);

  const auto host = registration->wrap<std::uint8_t>({size});
  EXPECT_TRUE(host.is_page_locked());
  EXPECT_EQ(host.data(), mine.data());
  const auto array = Array::from_host(queue(), host);
  const auto back = HostArray::empty({size}, DType::uint8());
  array.get(queue(), back);
  EXPECT_TRUE(same(host, back));

  // Asynchronously into the registered memory, at an offset.
  const auto tail = registration->wrap<std::uint8_t>({size / 2}, size / 2);
  EXPECT_EQ(tail.data(), mine.data() + size / 2);
  const auto zeros = Array::from_host(queue(), HostArray::empty({size / 2}, DType::uint8()));
  zeros.get(queue(), tail, true);
  queue().synchronize();
  EXPECT_EQ(std::memcmp(mine.data(), source.data(), size / 2), 0);
  EXPECT_EQ(
      std::vector<std::byte>(mine.begin() + static_cast<std::ptrdiff_t>(size / 2), mine.end()),
      std::vector<std::byte>(size / 2));

  // Registering it twice is the vendor's error; the first registration is unharmed.
  EXPECT_THROW(static_cast<void>(HostRegistration(context(), memory.subspan(4096))), Error);
  EXPECT_NE(logic_error_message([&] {
              registration->wrap<std::uint8_t>({size + 1});
            }).find("the layout needs"),
            std::string::npos);
  EXPECT_NE(logic_error_message([&] {
              const HostRegistration none(context(), {});
            }).find("the memory to page-lock is empty"),
            std::string::npos);

  // Ended while arrays live: the memory stays registered until they go.
  registration.reset();
  EXPECT_TRUE(host.is_page_locked());
  EXPECT_THROW(static_cast<void>(HostRegistration(context(), memory)), Error);
  array.set(queue(), host, true);
}

TEST_P(PageLockedMultiDeviceTest, ServesEveryDeviceOfTheContext) {
  PLINTH_SKIP_WITHOUT_PAGE_LOCKED(context());
  const std::size_t size = (std::size_t{2} << 20) + 3;
  const auto host = page_locked_pattern(context(), size, 6);
  for (const auto& device : context().devices()) {
    SCOPED_TRACE(device.index());
    const Queue queue(device);
    const auto array = Array::empty(device, {size}, DType::uint8());
    array.set(queue, host);
    const auto back = HostArray::page_locked(context(), {size}, DType::uint8());
    array.get(queue, back, true);
    queue.synchronize();
    EXPECT_TRUE(same(host, back));
  }
}

PLINTH_INSTANTIATE_DEVICE_TEST(PageLockedTest);
PLINTH_INSTANTIATE_MULTI_DEVICE_TEST(PageLockedMultiDeviceTest);

}  // namespace
}  // namespace page_locked_test
}  // namespace plinth::conformance
