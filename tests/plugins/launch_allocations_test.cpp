// Heap allocations of kernel calls and events inside plinth, counted by replacing the global
// operator new of this executable (libplinth and the plugin resolve theirs to it). Runs on the
// host test backend (host_backend.cpp, hostv12), whose launches allocate nothing themselves,
// so what is counted is plinth's own path: a Kernel call with a shape seen before, and a
// PreparedKernel call, make none; neither does recording an event once the queue has events
// that no handle holds. hostv11 (SDK 1.1, no record_event_again) shows the fallback.

#include <plinth/plinth.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <new>
#include <optional>
#include <vector>

namespace {

thread_local std::uint64_t allocation_count = 0;

void* allocate(std::size_t size) {
  ++allocation_count;
  if (void* memory = std::malloc(size == 0 ? 1 : size)) return memory;
  throw std::bad_alloc();
}

}  // namespace

// The replaced allocation functions: every form of new counts, every delete frees.
void* operator new(std::size_t size) { return allocate(size); }
void* operator new[](std::size_t size) { return allocate(size); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  ++allocation_count;
  return std::malloc(size == 0 ? 1 : size);
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  ++allocation_count;
  return std::malloc(size == 0 ? 1 : size);
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

namespace plinth {
namespace {

// Only the host backends (the plugin path comes from CMakeLists.txt).
[[maybe_unused]] const bool only_host_backend = [] {
  setenv("PLINTH_API", "hostv12,hostv11", 1);
  return true;
}();

const char* const source = R"(
KERNEL void scale(GLOBAL_MEM float* out, GLOBAL_MEM const float* in, float factor) {}
)";

/// Allocations made by `f` on this thread.
template <class F>
std::uint64_t allocations_of(F&& f) {
  const auto before = allocation_count;
  f();
  return allocation_count - before;
}

class LaunchAllocations : public testing::Test {
 protected:
  void SetUp() override {
    const auto api = API::from_api_id(APIID{"hostv12"});
    context_.emplace(Context::from_devices(Device::all(Platform::all(api).at(0))));
    queue_.emplace(context_->devices()[0]);
    program_.emplace(*context_, source);
    in_.emplace(Buffer::allocate(context_->devices()[0], 64 * sizeof(float)));
    out_.emplace(Buffer::allocate(context_->devices()[0], 64 * sizeof(float)));
    const std::vector<float> ones(64, 1.0f);
    in_->set(*queue_, std::as_bytes(std::span(ones)));
  }
  std::vector<float> read() const {
    std::vector<float> values(64);
    out_->get(*queue_, std::as_writable_bytes(std::span(values)));
    return values;
  }

  std::optional<Context> context_;
  std::optional<Queue> queue_;
  std::optional<Program> program_;
  std::optional<Buffer> in_, out_;
};

TEST_F(LaunchAllocations, CountingSeesPlinthsAllocations) {
  // The first call with a shape prepares it: plinth allocates, and the counter sees it.
  const auto kernel = program_->kernel("scale");
  EXPECT_GT(allocations_of([&] { kernel(*queue_, {64}, {}, *out_, *in_, 2.0f); }), 0u);
}

TEST_F(LaunchAllocations, KernelCallWithASeenShapeAllocatesNothing) {
  const auto kernel = program_->kernel("scale");
  kernel(*queue_, {64}, {}, *out_, *in_, 2.0f);  // prepares the shape
  for (int repeat = 0; repeat < 3; ++repeat) {
    EXPECT_EQ(allocations_of([&] { kernel(*queue_, {64}, {}, *out_, *in_, 3.0f); }), 0u);
  }
  EXPECT_EQ(read(), std::vector<float>(64, 3.0f));
  // An explicit local size, and sizes the caller keeps in vectors (built outside the count).
  const std::vector<std::size_t> global{32}, local{8};
  kernel(*queue_, global, local, *out_, *in_, 4.0f);
  EXPECT_EQ(allocations_of([&] { kernel(*queue_, global, local, *out_, *in_, 5.0f); }), 0u);
  // Back to the first shape (still remembered), and a copy of the Kernel shares it.
  EXPECT_EQ(allocations_of([&] { kernel(*queue_, {64}, {}, *out_, *in_, 6.0f); }), 0u);
  const auto copy = kernel;
  EXPECT_EQ(allocations_of([&] { copy(*queue_, {32}, {8}, *out_, *in_, 7.0f); }), 0u);
  const auto values = read();
  for (std::size_t i = 0; i < 64; ++i) EXPECT_EQ(values[i], i < 32 ? 7.0f : 6.0f) << i;
}

TEST_F(LaunchAllocations, ShapesBeyondTheRememberedOnesArePreparedAgain) {
  const auto kernel = program_->kernel("scale");
  for (std::size_t n = 1; n <= 40; ++n) kernel(*queue_, {n}, {}, *out_, *in_, 1.0f);
  // The last shape is remembered; the first was forgotten and is prepared again.
  EXPECT_EQ(allocations_of([&] { kernel(*queue_, {40}, {}, *out_, *in_, 2.0f); }), 0u);
  EXPECT_GT(allocations_of([&] { kernel(*queue_, {1}, {}, *out_, *in_, 2.0f); }), 0u);
  EXPECT_EQ(allocations_of([&] { kernel(*queue_, {1}, {}, *out_, *in_, 2.0f); }), 0u);
}

TEST_F(LaunchAllocations, PreparedKernelCallAllocatesNothing) {
  const auto prepared = program_->kernel("scale").prepare({64});
  prepared(*queue_, *out_, *in_, 1.0f);
  EXPECT_EQ(allocations_of([&] { prepared(*queue_, *out_, *in_, 2.0f); }), 0u);
  EXPECT_EQ(read(), std::vector<float>(64, 2.0f));
}

TEST_F(LaunchAllocations, RecordingAnEventReusesFreeOnesWithoutAllocating) {
  (void)queue_->record_event();  // makes one; the pool keeps it once the Event is gone
  for (int repeat = 0; repeat < 3; ++repeat) {
    EXPECT_EQ(allocations_of([&] { (void)queue_->record_event(); }), 0u);
  }
  // Events still held are never reused: each live one is a vendor event of its own.
  std::vector<Event> held;
  held.reserve(4);
  for (int i = 0; i < 4; ++i) held.push_back(queue_->record_event());
  for (std::size_t i = 0; i < held.size(); ++i)
    for (std::size_t j = i + 1; j < held.size(); ++j)
      EXPECT_NE(&detail::Access::adapter(held[i]), &detail::Access::adapter(held[j]))
          << i << " and " << j;
  held.clear();
  EXPECT_EQ(allocations_of([&] { (void)queue_->record_event(); }), 0u);
}

// A plugin of SDK 1.1 has no record_event_again(): every event is a new one, as before.
TEST(EventAllocations, SDK11PluginsGetANewEventEachTime) {
  const auto api = API::from_api_id(APIID{"hostv11"});
  const auto context = Context::from_devices(Device::all(Platform::all(api).at(0)));
  const Queue queue(context.devices()[0]);
  (void)queue.record_event();
  EXPECT_GT(allocations_of([&] { (void)queue.record_event(); }), 0u);
}

}  // namespace
}  // namespace plinth
