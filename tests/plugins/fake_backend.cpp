// A tiny in-memory backend, built several times with different compile definitions to make
// the loader tests' plugins (see CMakeLists.txt):
//   FAKE_SHORTCUT   the shortcut it exports (a bare token, e.g. fakea)
//   FAKE_TAG        a string unique to this build; appended to $PLINTH_TEST_OPENED when the
//                   file is opened, so a test can prove a plugin was never opened
//   FAKE_DEVICES    how many devices its one platform has (default 1)
//   FAKE_INIT       0 (default): initialize() works; 1: throws BackendError; 2: throws an int
//   FAKE_ABI_MAJOR, FAKE_ABI_MINOR   export under this ABI instead of the SDK's
//   FAKE_NEEDS_DEP  initialize() calls into libplinth-test-missing.so
//   FAKE_NULL_FACTORY  exports correct metadata whose value (the factory) is null
//   FAKE_HOSTILE_NAMES  names its API, platform and device (and gives its device's driver
//                   version, compute capability and compiler identity) with terminal escapes
//   FAKE_NULL_DEVICE  returns no device adapter (a null pointer) for device 0

#include <plinth/backend/sdk.hpp>

#include <cstdlib>
#include <memory>
#include <string>

#ifndef FAKE_DEVICES
#define FAKE_DEVICES 1
#endif
#ifndef FAKE_INIT
#define FAKE_INIT 0
#endif

#ifdef FAKE_NEEDS_DEP
extern "C" int plinth_test_missing_dependency();
#endif

namespace {

#ifdef FAKE_HOSTILE_NAMES
const std::string tag = FAKE_TAG "\x1b[2J\n  ready          fake";
#else
const std::string tag = FAKE_TAG;
#endif

struct MarkOpened {
  MarkOpened() {
    const char* old = std::getenv("PLINTH_TEST_OPENED");
    const std::string list = (old != nullptr ? std::string(old) : std::string()) + tag + ";";
    setenv("PLINTH_TEST_OPENED", list.c_str(), 1);
  }
};
[[maybe_unused]] const MarkOpened mark_opened;

[[noreturn]] void unsupported() { throw plinth::LogicError("fake backend"); }

class FakeDevice final : public plinth::backend::DeviceAdapter {
 public:
  explicit FakeDevice(std::size_t index) : index_(index) {}
  std::string name() const override {
    return "Fake device " + std::to_string(index_) + " (" + tag + ")";
  }
  plinth::DeviceParameters parameters() const override {
    plinth::DeviceParameters params;
    params.type = plinth::DeviceType::cpu;
    params.compute_units = 1;
    params.max_local_sizes = {1, 1, 1};
    params.max_num_groups = {1, 1, 1};
    params.global_mem_size = 1024;
#ifdef FAKE_HOSTILE_NAMES
    params.driver_version = tag;
    params.compute_capability = tag;
#endif
    return params;
  }
#ifdef FAKE_HOSTILE_NAMES
  std::string compiler_identity() const override { return tag; }
#endif
  plinth::backend::NativeHandle native_handle() const override { return index_ + 1; }

 private:
  std::size_t index_;
};

class FakePlatform final : public plinth::backend::PlatformAdapter {
 public:
  std::string name() const override { return "Fake platform (" + tag + ")"; }
  std::string vendor() const override { return "plinth tests"; }
  std::string version() const override { return "1.0"; }
  std::size_t device_count() const override { return FAKE_DEVICES; }
  std::unique_ptr<plinth::backend::DeviceAdapter> device(std::size_t index) const override {
    if (index >= device_count()) unsupported();
#ifdef FAKE_NULL_DEVICE
    return nullptr;
#endif
    return std::make_unique<FakeDevice>(index);
  }
  plinth::backend::NativeHandle native_handle() const override { return 0; }
};

class FakeApi final : public plinth::backend::ApiAdapter {
 public:
  std::string name() const override { return "Fake " + tag; }
  void initialize() override {
#if FAKE_INIT == 1
    throw plinth::BackendError("Fake", "fakeInit", 42, "FAKE_ERROR_INIT",
                               "deliberately broken for the loader tests");
#elif FAKE_INIT == 2
    throw 42;
#endif
#ifdef FAKE_NEEDS_DEP
    if (plinth_test_missing_dependency() != 42) unsupported();
#endif
  }
  std::size_t platform_count() const override { return 1; }
  std::unique_ptr<plinth::backend::PlatformAdapter> platform(std::size_t index) const override {
    if (index != 0) unsupported();
    return std::make_unique<FakePlatform>();
  }
  std::unique_ptr<plinth::backend::ContextAdapter> create_context(
      std::span<const plinth::backend::DeviceAdapter* const>) override {
    unsupported();
  }
  std::unique_ptr<plinth::backend::ContextAdapter> wrap_context(
      plinth::backend::NativeHandle, std::span<const plinth::backend::DeviceAdapter* const>,
      bool) override {
    unsupported();
  }
  std::string prelude(bool) const override { return "#define FAKE_PRELUDE\n"; }
};

[[maybe_unused]] std::unique_ptr<plinth::backend::ApiAdapter> create_fake() {
  return std::make_unique<FakeApi>();
}

}  // namespace

#if defined(FAKE_NULL_FACTORY)
namespace _autoaliases {
extern "C" BOOST_SYMBOL_EXPORT const void* PLINTH_DETAIL_BACKEND_SYMBOL(FAKE_SHORTCUT,
                                                                        PLINTH_ABI_MAJOR,
                                                                        PLINTH_ABI_MINOR);
BOOST_DLL_SECTION(plinth, read)
const void* PLINTH_DETAIL_BACKEND_SYMBOL(FAKE_SHORTCUT, PLINTH_ABI_MAJOR,
                                         PLINTH_ABI_MINOR) = nullptr;
}  // namespace _autoaliases
#elif defined(FAKE_ABI_MAJOR)
BOOST_DLL_ALIAS_SECTIONED(create_fake,
                          PLINTH_DETAIL_BACKEND_SYMBOL(FAKE_SHORTCUT, FAKE_ABI_MAJOR,
                                                       FAKE_ABI_MINOR),
                          plinth)
#else
PLINTH_BACKEND_PLUGIN(FAKE_SHORTCUT, create_fake)
#endif
