// The SDK's minor-version rule, end to end through the public API: the host test backend
// (host_backend.cpp) built against the frozen 1.0 SDK (hostv10), against the current one
// exported as 1.1 (hostv11) to 1.4 (hostv14), and against the current one (hostv15) all load
// and run their kernels; the core uses only what each one's version has.
// (hostv13 and hostv14 have two devices: these tests use the first; peer_copy_fallback_test.cpp
// copies between them.)
// PLINTH_PLUGIN_PATH points at the directory holding both (CMakeLists.txt).

#include <plinth/backend/abi_version.hpp>
#include <plinth/plinth.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <numeric>
#include <optional>
#include <sstream>
#include <vector>

#include "error_message.hpp"

namespace plinth {
namespace sdk_versions_test {
namespace {

namespace fs = std::filesystem;

// Only the host test backends are opened: the test must not depend on the machine's vendor
// stacks, whose own allocations LeakSanitizer cannot attribute once they are unloaded at exit
// (the clean-clone CI run under ASan failed every test here on 77 bytes from PoCL's stack).
// Set before the first test loads the plugins.
[[maybe_unused]] const bool only_host_backends = [] {
  setenv("PLINTH_API", "hostv10,hostv11,hostv12,hostv13,hostv14,hostv15,hostv16", 1);
  return true;
}();

const char* const source = R"(
KERNEL void scale(GLOBAL_MEM float* out, GLOBAL_MEM const float* in, float factor) {}
KERNEL void group_sums(GLOBAL_MEM float* out, GLOBAL_MEM const float* in,
                       LOCAL_MEM_DYNAMIC float* scratch) {}
KERNEL void opaque(a, b) {}
)";

using plinth::test::message_of;

std::string read_file(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// One host test backend: its context, queue, and helpers to move floats.
class SdkVersion : public testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    PluginInfo info;
    for (const auto& plugin : plugins())
      if (plugin.shortcut == GetParam()) info = plugin;
    ASSERT_EQ(info.state, PluginState::ready) << "plugin " << GetParam() << ": " << info.reason;
    api_ = API::from_api_id(APIID{GetParam()});
    context_ = Context::from_devices({Device::all(Platform::all(*api_).at(0)).at(0)});
    device_.emplace(context_->devices()[0]);
    queue_.emplace(*device_);
  }
  bool is_1_0() const { return std::string(GetParam()) == "hostv10"; }
  /// The plugin's SDK minor version: "hostv1<minor>".
  int minor() const { return std::string(GetParam()).back() - '0'; }
  const BoundDevice& device() const { return *device_; }

  Buffer floats(const std::vector<float>& values) const {
    auto buffer = Buffer::allocate(device(), values.size() * sizeof(float));
    buffer.set(*queue_, std::as_bytes(std::span(values)));
    return buffer;
  }
  std::vector<float> read(const Buffer& buffer) const {
    std::vector<float> values(buffer.size() / sizeof(float));
    buffer.get(*queue_, std::as_writable_bytes(std::span(values)));
    return values;
  }

  std::optional<API> api_;
  std::optional<Context> context_;
  std::optional<BoundDevice> device_;
  std::optional<Queue> queue_;
};

TEST_P(SdkVersion, ReportsItsOwnMinorVersion) {
  for (const auto& plugin : plugins()) {
    if (plugin.shortcut != GetParam()) continue;
    EXPECT_EQ(plugin.abi_major, PLINTH_ABI_MAJOR);
    EXPECT_EQ(plugin.abi_minor, minor());
  }
}

TEST_P(SdkVersion, RunsKernelsWithCheckedArguments) {
  const Program program(*context_, source);
  const auto in = floats({1, 2, 3, 4});
  const auto out = floats({0, 0, 0, 0});
  program.kernel("scale")(*queue_, {4}, {}, out, in, 2.5f);
  EXPECT_EQ(read(out), (std::vector<float>{2.5f, 5, 7.5f, 10}));
  // The introspected parameters are checked: a double where a float is declared.
  EXPECT_NE(message_of([&] {
              program.kernel("scale")(*queue_, {4}, {}, out, in, 2.5);
            }).find("the parameter has 4 bytes, the argument 8"),
            std::string::npos);
  EXPECT_NE(message_of([&] { program.kernel("nowhere"); }).find("no kernel 'nowhere'"),
            std::string::npos);
}

TEST_P(SdkVersion, BackendBindsTheTrailingDynamicLocalParameter) {
  // 1.0: inferred from the trailing local pointer; 1.1: declared by the kernel adapter.
  const Program program(*context_, source);
  std::vector<float> values(16);
  std::iota(values.begin(), values.end(), 1.0f);
  const auto in = floats(values);
  const auto out = floats({0, 0, 0, 0});
  program.kernel("group_sums").prepare({16}, {4}, 4 * sizeof(float))(*queue_, out, in);
  EXPECT_EQ(read(out), (std::vector<float>{10, 26, 42, 58}));
  // Without dynamic local memory: refused when prepared, naming the parameter.
  const auto message =
      message_of([&] { program.kernel("group_sums")(*queue_, {16}, {4}, out, in); });
  EXPECT_NE(message.find("ends in a LOCAL_MEM_DYNAMIC parameter (scratch): prepare it with"),
            std::string::npos)
      << message;
}

TEST_P(SdkVersion, ParametersThatCannotBeIntrospectedAreCountedOnly) {
  const Program program(*context_, source);
  const auto target = Buffer::allocate(device(), sizeof(int));
  program.kernel("opaque")(*queue_, {1}, {}, target, 42);
  int value = 0;
  target.get(*queue_, std::as_writable_bytes(std::span(&value, 1)));
  EXPECT_EQ(value, 42);
  EXPECT_NE(message_of([&] {
              program.kernel("opaque")(*queue_, {1}, {}, target);
            }).find("takes 2 argument(s), 1 given"),
            std::string::npos);
}

TEST_P(SdkVersion, KeptFilesHoldTheSourceAsBuilt) {
  ProgramOptions options;
  options.keep = true;
  const Program program(*context_, source, options);
  ASSERT_FALSE(program.kept_directory().empty());
  const auto kept = read_file(fs::path(program.kept_directory()) / "program.host");
  // 1.0 got the joined source and wrote it itself; 1.1 got the parts (and put its
  // declarations between them) and the core wrote what it was given.
  EXPECT_NE(kept.find("KERNEL void scale("), std::string::npos);
  EXPECT_EQ(kept.find("// declarations") != std::string::npos, !is_1_0());
  EXPECT_EQ(fs::status(program.kept_directory()).permissions() & fs::perms::all,
            fs::perms::owner_all);
  fs::remove_all(program.kept_directory());
}

TEST_P(SdkVersion, BinariesAndIdentityAreOnlyFrom1_1) {
  const Program program(*context_, source);
  if (is_1_0()) {
    EXPECT_EQ(device().device().compiler_identity(), "");
    EXPECT_NE(message_of([&] { program.binary(device()); }).find("implements SDK 1.0"),
              std::string::npos);
    EXPECT_NE(message_of([&] {
                Program::from_binaries(context_->devices(), {{std::byte{1}}});
              }).find("SDK 1.0, which builds from source only"),
              std::string::npos);
    return;
  }
  EXPECT_EQ(device().device().compiler_identity(), "host test kernels 1");
  const auto binary = program.binary(device());
  const auto reloaded = Program::from_binaries(context_->devices(), {binary});
  const auto in = floats({1, 2});
  const auto out = floats({0, 0});
  reloaded.kernel("scale")(*queue_, {2}, {}, out, in, 3.0f);
  EXPECT_EQ(read(out), (std::vector<float>{3, 6}));
  // Refused before the backend sees them: the wrong count, an empty binary, SPIR-V.
  EXPECT_NE(message_of([&] {
              Program::from_binaries(context_->devices(), {binary, binary});
            }).find("2 binaries for 1 device(s)"),
            std::string::npos);
  EXPECT_NE(message_of([&] {
              Program::from_binaries(context_->devices(), {{}});
            }).find("binary 0 is empty"),
            std::string::npos);
  const std::vector<std::byte> spirv(20, std::byte{3});
  EXPECT_NE(message_of([&] {
              Program::from_spirv(context_->devices(), spirv);
            }).find("cannot create programs from SPIR-V"),
            std::string::npos);
  // The backend's own refusal of a foreign binary reaches the user.
  EXPECT_THROW(Program::from_binaries(context_->devices(), {spirv}), CompileError);
}

// DeviceFeatures cross the boundary only from 1.5 on (features() fills the core's value);
// older plugins' devices promise nothing, and templates see the same in device_params.
TEST_P(SdkVersion, FeaturesAreOnlyFrom1_5) {
  const auto& features = device().features();
  EXPECT_EQ(features.atomics, minor() >= 5);
  EXPECT_EQ(features.int64_atomics, minor() >= 5);
  EXPECT_FALSE(features.double_atomics);
  EXPECT_FALSE(features.native_sub_groups);
  const std::vector<std::size_t> sizes =
      minor() >= 5 ? std::vector<std::size_t>{1, 4} : std::vector<std::size_t>{};
  EXPECT_EQ(features.sub_group_sizes, sizes);
  ProgramOptions options;
  options.keep = true;
  const Program program(*context_,
                        std::string(source) +
                            "// ${device_params.atomics} ${device_params.int64_atomics} "
                            "${device_params.native_sub_groups} ${device_params.warp_size}\n",
                        options);
  const auto kept = read_file(fs::path(program.kept_directory()) / "program.host");
  fs::remove_all(program.kept_directory());
  EXPECT_NE(kept.find(minor() >= 5 ? "// true true false 1" : "// false false false 1"),
            std::string::npos)
      << kept;
}

TEST_P(SdkVersion, DynamicLocalMemoryAKernelCannotTakeIsRefusedAtPrepare) {
  const Program program(*context_, source);
  const auto message = message_of([&] { program.kernel("scale").prepare({4}, {}, 16); });
  if (is_1_0()) {
    // 1.0 kernels declare nothing; the backend is trusted with the size (as before).
    EXPECT_EQ(message, "(no exception of the expected type)");
  } else {
    EXPECT_NE(message.find("kernel 'scale' cannot take dynamic local memory"), std::string::npos)
        << message;
  }
}

TEST_P(SdkVersion, EventsAreDestroyedBeforeTheirContext) {
  // The event holds the last reference to its context: its adapter must still go first.
  std::optional<Event> event;
  {
    const auto context = Context::from_devices(Device::all(Platform::all(*api_).at(0)));
    const Queue queue(context.devices()[0]);
    event = queue.record_event();
  }
  context_.reset();
  device_.reset();
  queue_.reset();
  unsetenv("PLINTH_TEST_LIFETIME");
  event.reset();
  const char* violation = std::getenv("PLINTH_TEST_LIFETIME");
  EXPECT_EQ(violation, nullptr) << violation;
}

TEST_P(SdkVersion, PageLockedMemoryIsOnlyFrom1_2) {
  std::vector<float> mine(8);
  const auto mine_bytes = std::as_writable_bytes(std::span(mine));
  if (minor() < 2) {
    // Refused before the backend is asked: its vtable ends before allocate_host().
    const std::string expected = "its plugin implements SDK 1." + std::to_string(minor()) +
                                 ", and page-locked host memory needs SDK 1.2";
    const auto allocating =
        message_of([&] { HostArray::page_locked(*context_, {4}, DType::float32()); });
    EXPECT_NE(allocating.find("cannot allocate page-locked host memory: " + expected),
              std::string::npos)
        << allocating;
    const auto registering =
        message_of([&] { const HostRegistration registration(*context_, mine_bytes); });
    EXPECT_NE(registering.find("cannot page-lock existing host memory: " + expected),
              std::string::npos)
        << registering;
    return;
  }
  unsetenv("PLINTH_TEST_HOST_MEMORY");
  {
    const auto host = HostArray::page_locked(*context_, {4}, DType::float32());
    EXPECT_TRUE(host.is_page_locked());
    EXPECT_TRUE(host.view({Slice(1, 3)}).is_page_locked());
    EXPECT_FALSE(host.copy().is_page_locked());
    EXPECT_EQ(host.to_vector<float>(), (std::vector<float>{0, 0, 0, 0}));  // zero-filled
    std::iota(host.values<float>().begin(), host.values<float>().end(), 1.0f);
    const auto on_device = floats({0, 0, 0, 0});
    on_device.set(*queue_, host.block());
    EXPECT_EQ(read(on_device), (std::vector<float>{1, 2, 3, 4}));
    // No elements: still a valid array.
    const auto empty = HostArray::page_locked(*context_, {0}, DType::float32());
    EXPECT_TRUE(empty.is_page_locked());
    EXPECT_EQ(empty.nbytes(), 0U);

    // Registered memory: arrays over it, refusals, and its end.
    std::optional<HostArray> wrapped;
    {
      HostRegistration registration(*context_, mine_bytes);
      EXPECT_EQ(registration.memory().data(), mine_bytes.data());
      wrapped = registration.wrap<float>({2, 2}, sizeof(float) * 4);
      EXPECT_TRUE(wrapped->is_page_locked());
      EXPECT_EQ(wrapped->data(), mine_bytes.data() + sizeof(float) * 4);
      EXPECT_NE(message_of([&] { registration.wrap<float>({9}); }).find("the layout needs 36"),
                std::string::npos);
      // The backend refuses a range that overlaps (CUDA: already registered).
      EXPECT_THROW(static_cast<void>(HostRegistration(*context_, mine_bytes.subspan(4))),
                   LogicError);
      EXPECT_NE(message_of([&] {
                  const HostRegistration none(*context_, {});
                }).find("the memory to page-lock is empty"),
                std::string::npos);
      HostRegistration moved(std::move(registration));
      EXPECT_FALSE(registration);  // NOLINT(bugprone-use-after-move): moved-from is empty
      EXPECT_TRUE(moved);
      EXPECT_TRUE(registration.memory().empty());
    }
    // The array keeps the memory registered: registering it again is refused until it goes.
    EXPECT_THROW(static_cast<void>(HostRegistration(*context_, mine_bytes)), LogicError);
    wrapped.reset();
    const HostRegistration again(*context_, mine_bytes);
    EXPECT_TRUE(again);

    // The array outlives every other handle to its context, and frees its memory first.
    context_.reset();
    device_.reset();
    queue_.reset();
    host.values<float>()[0] = 5;
    EXPECT_EQ(host.to_vector<float>()[0], 5.0f);
  }
  const char* violation = std::getenv("PLINTH_TEST_HOST_MEMORY");
  EXPECT_EQ(violation, nullptr) << violation;
}

// The device pool over a device that runs out of memory (the host backend's budget): an
// allocation that fails gives back the cached segments and tries again, then with a segment of
// just the request's size; past that, OutOfMemoryError. Plugins of every SDK version.
TEST_P(SdkVersion, ThePoolGivesBackCachedMemoryWhenTheDeviceRunsOut) {
  constexpr std::size_t mib = std::size_t{1} << 20;
  setenv("PLINTH_TEST_HOST_DEVICE_MEMORY", std::to_string(5 * mib).c_str(), 1);
  const auto pool = MemoryPool::of(*context_);
  pool.free_all_blocks();
  { const auto small = pool.allocate(*queue_, 1000); }  // a 2 MiB segment, cached
  EXPECT_EQ(pool.stats().bytes_held, 2 * mib);
  const auto before = pool.stats();
  // 4 MiB: a shared 20 MiB segment does not fit, nor does 4 MiB beside the cached 2 MiB.
  std::optional<Buffer> big;
  EXPECT_NO_THROW(big = pool.allocate(*queue_, 4 * mib));
  const auto after = pool.stats();
  EXPECT_EQ(after.segments_freed, before.segments_freed + 1) << "the cached segment went back";
  EXPECT_EQ(after.bytes_held, 4 * mib) << "a segment of just the request";
  // Nothing cached is left to give back: the device is out of memory.
  EXPECT_THROW(pool.allocate(*queue_, 2 * mib), OutOfMemoryError);
  // The block works.
  if (big) {
    const std::vector<float> values(16, 2.5f);
    const auto region = big->get_sub_region(0, values.size() * sizeof(float));
    region.set(*queue_, std::as_bytes(std::span(values)));
    EXPECT_EQ(read(region), values);
  }
  big.reset();
  unsetenv("PLINTH_TEST_HOST_DEVICE_MEMORY");
}

INSTANTIATE_TEST_SUITE_P(, SdkVersion,
                         testing::Values("hostv10", "hostv11", "hostv12", "hostv13", "hostv14",
                                         "hostv15"),
                         [](const auto& param) { return std::string(param.param); });

}  // namespace
}  // namespace sdk_versions_test
}  // namespace plinth
