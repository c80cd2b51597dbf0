// The plugin loader against deliberately good and broken plugins (built by CMakeLists.txt,
// one directory per scenario under PLINTH_TEST_PLUGIN_DIR). Each test runs the loader with
// its own LoaderSettings; the process-wide registry is never touched.

#include "detail/loader.hpp"

#include <plinth/errors.hpp>
#include <plinth/version.hpp>

#include <gtest/gtest.h>

#include <dlfcn.h>
#include <elf.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <string>
#include <vector>

namespace plinth {
void PrintTo(PluginState state, std::ostream* os) { *os << to_string(state); }
}  // namespace plinth

namespace {

namespace fs = std::filesystem;
using plinth::PluginState;
using plinth::detail::LoadedPlugin;
using plinth::detail::load_plugins;
using plinth::detail::LoaderSettings;

const fs::path scenarios = PLINTH_TEST_PLUGIN_DIR;

fs::path dir(const std::string& scenario) { return scenarios / scenario; }

std::string plugin(const std::string& scenario, const std::string& shortcut) {
  return (dir(scenario) / ("libplinth-backend-" + shortcut + ".so")).string();
}

std::vector<LoadedPlugin> load_from(const std::vector<std::string>& plugin_path) {
  LoaderSettings settings;
  for (const auto& scenario : plugin_path) settings.plugin_path.push_back(dir(scenario));
  return load_plugins(settings);
}

/// The tags of the fake plugins opened since the last call (fake_backend.cpp appends its tag
/// to PLINTH_TEST_OPENED when the file is loaded), and starts a new list.
std::string take_opened() {
  const char* opened = std::getenv("PLINTH_TEST_OPENED");
  std::string tags = opened != nullptr ? opened : "";
  unsetenv("PLINTH_TEST_OPENED");
  return tags;
}

/// A copy of a fake plugin, corrupt/libplinth-backend-<name>.so, whose symbol tables claim
/// to be 2^62 bytes long.
std::string corrupt_copy(const std::string& name) {
  fs::create_directories(dir("corrupt"));
  const std::string path = plugin("corrupt", name);
  fs::copy_file(plugin("ready", "fakea"), path, fs::copy_options::overwrite_existing);
  std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
  Elf64_Ehdr header{};
  file.read(reinterpret_cast<char*>(&header), sizeof header);
  for (unsigned i = 0; i < header.e_shnum; ++i) {
    const auto offset = static_cast<std::streamoff>(header.e_shoff + i * header.e_shentsize);
    Elf64_Shdr section{};
    file.seekg(offset);
    file.read(reinterpret_cast<char*>(&section), sizeof section);
    if (section.sh_type != SHT_SYMTAB && section.sh_type != SHT_DYNSYM) continue;
    section.sh_size = std::uint64_t{1} << 62;
    file.seekp(offset);
    file.write(reinterpret_cast<const char*>(&section), sizeof section);
  }
  return path;
}

testing::AssertionResult contains(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) return testing::AssertionSuccess();
  return testing::AssertionFailure() << "'" << text << "' does not contain '" << part << "'";
}

// ---------------------------------------------------------------------------------------

TEST(LoaderStates, ReadyPluginHasItsPlatformAndDevices) {
  take_opened();
  const auto plugins = load_from({"ready"});
  ASSERT_EQ(plugins.size(), 1u);
  const auto& info = plugins[0].info;
  EXPECT_EQ(info.state, PluginState::ready);
  EXPECT_EQ(info.path, plugin("ready", "fakea"));
  EXPECT_EQ(info.found_by, "PLINTH_PLUGIN_PATH");
  EXPECT_EQ(info.kind, "backend");
  EXPECT_EQ(info.shortcut, "fakea");
  EXPECT_EQ(info.reason, "");
  EXPECT_TRUE(contains(take_opened(), "ready/fakea;"));

  const auto& api = plugins[0].api;
  ASSERT_NE(api, nullptr);
  EXPECT_EQ(api->id.shortcut, "fakea");
  EXPECT_EQ(api->name, "Fake ready/fakea");
  ASSERT_EQ(api->platforms.size(), 1u);
  EXPECT_EQ(api->platforms[0].name, "Fake platform (ready/fakea)");
  EXPECT_EQ(api->platforms[0].vendor, "plinth tests");
  ASSERT_EQ(api->platforms[0].devices.size(), 2u);
  EXPECT_EQ(api->platforms[0].devices[0].name, "Fake device 0 (ready/fakea)");
  EXPECT_EQ(api->platforms[0].devices[1].name, "Fake device 1 (ready/fakea)");
  EXPECT_EQ(api->platforms[0].devices[1].params.type, plinth::DeviceType::cpu);
  EXPECT_EQ(api->platforms[0].devices[1].adapter->native_handle(), 2u);
}

TEST(LoaderStates, NoDevicesIsExplained) {
  const auto plugins = load_from({"nodevices"});
  ASSERT_EQ(plugins.size(), 1u);
  const auto& info = plugins[0].info;
  EXPECT_EQ(info.state, PluginState::no_devices);
  EXPECT_EQ(info.shortcut, "fakenone");
  EXPECT_TRUE(contains(info.reason, "Fake nodevices/fakenone found no devices (1 platform(s))"));
  ASSERT_NE(plugins[0].api, nullptr);
  EXPECT_EQ(plugins[0].api->platforms.size(), 1u);
}

TEST(LoaderStates, InitFailedCarriesTheBackendsError) {
  const auto plugins = load_from({"initfail"});
  ASSERT_EQ(plugins.size(), 2u);
  const auto& error = plugins[0].info;  // sorted by file name: fakeinit, fakethrow
  EXPECT_EQ(error.state, PluginState::init_failed);
  EXPECT_EQ(error.shortcut, "fakeinit");
  EXPECT_TRUE(contains(error.reason, "Fake: fakeInit failed: FAKE_ERROR_INIT (42)"));
  EXPECT_TRUE(contains(error.reason, "deliberately broken for the loader tests"));
  EXPECT_EQ(plugins[0].api, nullptr);

  const auto& other = plugins[1].info;
  EXPECT_EQ(other.state, PluginState::init_failed);
  EXPECT_EQ(other.shortcut, "fakethrow");
  EXPECT_TRUE(contains(other.reason, "not a std::exception"));
  EXPECT_EQ(plugins[1].api, nullptr);
}

TEST(LoaderStates, MissingDependencyFailsToLoadWithTheLoadersText) {
  const auto plugins = load_from({"missingdep"});
  ASSERT_EQ(plugins.size(), 1u);
  const auto& info = plugins[0].info;
  EXPECT_EQ(info.state, PluginState::failed_to_load);
  EXPECT_EQ(info.shortcut, "missingdep");  // read from the file without loading it
  EXPECT_TRUE(contains(info.reason, "libplinth-test-missing.so"));
  EXPECT_TRUE(contains(info.reason, "cannot open shared object file"));
  EXPECT_EQ(plugins[0].api, nullptr);
}

TEST(LoaderStates, FilesThatAreNotPluginsFailToLoad) {
  const auto plugins = load_from({"broken"});
  ASSERT_EQ(plugins.size(), 4u);
  const std::vector<std::string> names{"empty", "garbage", "nometa", "truncated"};
  for (std::size_t i = 0; i < names.size(); ++i) {
    SCOPED_TRACE(names[i]);
    const auto& info = plugins[i].info;
    EXPECT_EQ(info.path, plugin("broken", names[i]));
    EXPECT_EQ(info.state, PluginState::failed_to_load);
    EXPECT_EQ(info.shortcut, "");
    EXPECT_EQ(info.abi_major, -1);
    EXPECT_NE(info.reason, "");
    EXPECT_EQ(plugins[i].api, nullptr);
  }
  EXPECT_TRUE(contains(plugins[2].info.reason, "no plinth plugin metadata"));
}

// Disabled: a file that does not exist, is empty, is text or is a truncated ELF all get the
// same reason, "cannot read the file's symbols: basic_ios::clear: iostream error" (the stream
// exception boost::dll::library_info throws), which does not say what is wrong.
TEST(LoaderStates, UnreadableFilesSayWhy) {
  for (const auto& p : load_from({"broken"})) {
    EXPECT_FALSE(contains(p.info.reason, "iostream error")) << p.info.path;
  }
  LoaderSettings settings;
  settings.manifest_dirs = {dir("manifests-bad")};
  const auto plugins = load_plugins(settings);
  ASSERT_EQ(plugins.size(), 3u);
  EXPECT_EQ(plugins[1].info.path, plugin("manifests-bad", "nowhere"));
  EXPECT_TRUE(contains(plugins[1].info.reason, "No such file or directory"));
}

// Disabled: boost::dll::library_info (Boost 1.74) reads only .symtab, which strip removes;
// the exported metadata symbol is still in .dynsym (`nm -D`), yet the loader reports "no
// plinth plugin metadata", so every stripped (packaged) plugin fails to load.
TEST(LoaderStates, StrippedPluginIsReady) {
  const auto plugins = load_from({"stripped"});
  ASSERT_EQ(plugins.size(), 1u);
  EXPECT_EQ(plugins[0].info.state, PluginState::ready) << plugins[0].info.reason;
  EXPECT_EQ(plugins[0].info.shortcut, "fakestrip");
}

// Disabled: library_info trusts the section sizes in the file: here it asks for 2^62 bytes
// (std::bad_alloc; under AddressSanitizer the process aborts), and a 2^31 bytes claim makes
// it allocate and zero 2 GiB for a 15 kB file. A corrupt file must get a reason, nothing more.
TEST(LoaderStates, CorruptSectionSizesAreNotTrusted) {
  const std::string path = corrupt_copy("hugesymtab");
  const auto plugins = load_from({"corrupt"});
  ASSERT_EQ(plugins.size(), 1u);
  EXPECT_EQ(plugins[0].info.path, path);
  EXPECT_EQ(plugins[0].info.state, PluginState::failed_to_load);
  EXPECT_NE(plugins[0].info.reason, "");
  EXPECT_FALSE(contains(plugins[0].info.reason, "bad_alloc"));
}

TEST(LoaderStates, EveryScenarioInOnePass) {
  const auto plugins =
      load_from({"ready", "nodevices", "initfail", "missingdep", "broken", "badabi", "filter"});
  std::vector<std::string> seen;
  for (const auto& p : plugins) {
    seen.push_back(std::string(to_string(p.info.state)) + " " + p.info.shortcut);
  }
  const std::vector<std::string> expected{
      "ready fakea",           "no devices fakenone",
      "init failed fakeinit",  "init failed fakethrow",
      "failed to load missingdep",
      "failed to load ",       "failed to load ",  // broken: empty, garbage
      "failed to load ",       "failed to load ",  // broken: nometa, truncated
      "refused badabi",        "shadowed fakea",  // filter/fakea: ready/fakea came first
      "ready fakeb"};
  EXPECT_EQ(seen, expected);
}

// ---------------------------------------------------------------------------------------

TEST(LoaderAbi, RefusesAnotherMajorVersionWithoutOpeningIt) {
  take_opened();
  const auto plugins = load_from({"badabi"});
  ASSERT_EQ(plugins.size(), 1u);
  const auto& info = plugins[0].info;
  EXPECT_EQ(info.state, PluginState::refused);
  EXPECT_EQ(info.shortcut, "badabi");
  EXPECT_EQ(info.abi_major, 99);
  EXPECT_EQ(info.abi_minor, 0);
  EXPECT_TRUE(contains(info.reason, plugin("badabi", "badabi")));
  EXPECT_TRUE(contains(info.reason, "99.0"));
  const std::string core_abi =
      std::to_string(PLINTH_ABI_MAJOR) + "." + std::to_string(PLINTH_ABI_MINOR);
  EXPECT_TRUE(contains(info.reason, core_abi));
  EXPECT_EQ(plugins[0].api, nullptr);
  EXPECT_FALSE(contains(take_opened(), "badabi/badabi"));
}

TEST(LoaderAbi, ReportsAnAcceptedPluginsVersion) {
  const auto plugins = load_from({"ready"});
  ASSERT_EQ(plugins.size(), 1u);
  EXPECT_EQ(plugins[0].info.abi_major, PLINTH_ABI_MAJOR);
  EXPECT_EQ(plugins[0].info.abi_minor, PLINTH_ABI_MINOR);
  ASSERT_NE(plugins[0].api, nullptr);
  EXPECT_EQ(plugins[0].api->abi_minor, PLINTH_ABI_MINOR);
}

TEST(LoaderAbi, AcceptsAnotherMinorVersionAndUsesTheOlderOne) {
  const auto plugins = load_from({"newminor"});
  ASSERT_EQ(plugins.size(), 1u);
  EXPECT_EQ(plugins[0].info.state, PluginState::ready);
  EXPECT_EQ(plugins[0].info.abi_major, PLINTH_ABI_MAJOR);
  EXPECT_EQ(plugins[0].info.abi_minor, 97);
  ASSERT_NE(plugins[0].api, nullptr);
  EXPECT_EQ(plugins[0].api->abi_minor, PLINTH_ABI_MINOR);
}

TEST(LoaderAbi, ParsesPluginSymbols) {
  using plinth::detail::parse_plugin_symbol;
  const auto opencl = parse_plugin_symbol("plinth_backend__opencl__abi_1_0");
  ASSERT_TRUE(opencl.has_value());
  EXPECT_EQ(opencl->name, "plinth_backend__opencl__abi_1_0");
  EXPECT_EQ(opencl->kind, "backend");
  EXPECT_EQ(opencl->shortcut, "opencl");
  EXPECT_EQ(opencl->abi_major, 1);
  EXPECT_EQ(opencl->abi_minor, 0);

  const auto level_zero = parse_plugin_symbol("plinth_backend__level_zero__abi_12_34");
  ASSERT_TRUE(level_zero.has_value());
  EXPECT_EQ(level_zero->shortcut, "level_zero");
  EXPECT_EQ(level_zero->abi_major, 12);
  EXPECT_EQ(level_zero->abi_minor, 34);

  const auto layer = parse_plugin_symbol("plinth_layer__trace__abi_1_2");
  ASSERT_TRUE(layer.has_value());
  EXPECT_EQ(layer->kind, "layer");
  EXPECT_EQ(layer->shortcut, "trace");

  for (const char* bad :
       {"", "plinth_backend__opencl", "plinth_backend__opencl__abi_1", "plinth_backend____abi_1_0",
        "plinth_driver__opencl__abi_1_0", "plinth_backend__opencl__abi_1_0_extra",
        "_plinth_backend__opencl__abi_1_0", "plinth_backend__open-cl__abi_1_0",
        "plinth_backend__opencl__abi_x_0", "plinth_backend__opencl__abi_-1_0"}) {
    EXPECT_FALSE(parse_plugin_symbol(bad).has_value()) << bad;
  }
}

// Disabled: parse_plugin_symbol lets std::stoi's std::out_of_range escape for a version that
// does not fit an int, instead of returning nullopt (and a plugin exporting such a name is
// then reported as "cannot read the file's symbols: stoi").
TEST(LoaderAbi, VersionTooLargeForAnIntIsNotASymbol) {
  EXPECT_FALSE(
      plinth::detail::parse_plugin_symbol("plinth_backend__big__abi_99999999999_0").has_value());
}

// ---------------------------------------------------------------------------------------

TEST(LoaderSearchOrder, FirstInPluginPathWinsAndTheRestAreShadowed) {
  take_opened();
  const auto plugins = load_from({"dup1", "dup2"});
  ASSERT_EQ(plugins.size(), 2u);
  EXPECT_EQ(plugins[0].info.state, PluginState::ready);
  EXPECT_EQ(plugins[0].info.path, plugin("dup1", "fakedup"));
  ASSERT_NE(plugins[0].api, nullptr);
  EXPECT_EQ(plugins[0].api->name, "Fake dup1/fakedup");

  const auto& shadowed = plugins[1].info;
  EXPECT_EQ(shadowed.state, PluginState::shadowed);
  EXPECT_EQ(shadowed.path, plugin("dup2", "fakedup"));
  EXPECT_EQ(shadowed.shortcut, "fakedup");
  EXPECT_TRUE(contains(shadowed.reason, plugin("dup1", "fakedup")));
  EXPECT_EQ(plugins[1].api, nullptr);

  const std::string opened = take_opened();
  EXPECT_TRUE(contains(opened, "dup1/fakedup;"));
  EXPECT_FALSE(contains(opened, "dup2/fakedup"));
}

TEST(LoaderSearchOrder, PluginPathOrderDecides) {
  const auto plugins = load_from({"dup2", "dup1"});
  ASSERT_EQ(plugins.size(), 2u);
  EXPECT_EQ(plugins[0].info.path, plugin("dup2", "fakedup"));
  EXPECT_EQ(plugins[0].info.state, PluginState::ready);
  EXPECT_EQ(plugins[1].info.state, PluginState::shadowed);
  EXPECT_TRUE(contains(plugins[1].info.reason, plugin("dup2", "fakedup")));
}

TEST(LoaderSearchOrder, PluginPathThenManifestsThenDefaultDirectory) {
  LoaderSettings settings;
  settings.default_dir = dir("dup3");
  settings.manifest_dirs = {dir("manifests-dup")};
  settings.plugin_path = {dir("dup1")};
  auto plugins = load_plugins(settings);
  ASSERT_EQ(plugins.size(), 3u);
  EXPECT_EQ(plugins[0].info.found_by, "PLINTH_PLUGIN_PATH");
  EXPECT_EQ(plugins[0].info.path, plugin("dup1", "fakedup"));
  EXPECT_EQ(plugins[0].info.state, PluginState::ready);
  EXPECT_EQ(plugins[1].info.found_by, "manifest " + (dir("manifests-dup") / "dup2.json").string());
  EXPECT_EQ(plugins[1].info.path, plugin("dup2", "fakedup"));
  EXPECT_EQ(plugins[1].info.state, PluginState::shadowed);
  EXPECT_EQ(plugins[2].info.found_by, "default directory");
  EXPECT_EQ(plugins[2].info.path, plugin("dup3", "fakedup"));
  EXPECT_EQ(plugins[2].info.state, PluginState::shadowed);

  settings.plugin_path.clear();  // now the manifest comes first
  plugins = load_plugins(settings);
  ASSERT_EQ(plugins.size(), 2u);
  EXPECT_EQ(plugins[0].info.path, plugin("dup2", "fakedup"));
  EXPECT_EQ(plugins[0].info.state, PluginState::ready);
  EXPECT_EQ(plugins[1].info.state, PluginState::shadowed);
  EXPECT_TRUE(contains(plugins[1].info.reason, plugin("dup2", "fakedup")));
}

TEST(LoaderSearchOrder, NeverTheCurrentDirectory) {
  const fs::path cwd = fs::current_path();
  fs::current_path(dir("ready"));
  const auto plugins = load_plugins(LoaderSettings{});
  fs::current_path(cwd);
  EXPECT_TRUE(plugins.empty());
}

TEST(LoaderSearchOrder, OnlyPluginFileNamesInExistingDirectories) {
  // deps/ holds libplinth-test-missing.so, which is not named like a plugin.
  EXPECT_TRUE(load_from({"deps", "no-such-directory"}).empty());
}

// ---------------------------------------------------------------------------------------

TEST(LoaderManifests, ManifestNamesAPluginFile) {
  LoaderSettings settings;
  settings.manifest_dirs = {dir("manifests")};  // x.json and ignored.txt
  const auto plugins = load_plugins(settings);
  ASSERT_EQ(plugins.size(), 1u);
  const auto& info = plugins[0].info;
  EXPECT_EQ(info.state, PluginState::ready);
  EXPECT_EQ(info.shortcut, "fakeman");
  EXPECT_EQ(info.path, plugin("manifested", "fakeman"));
  EXPECT_TRUE(info.found_by.starts_with("manifest ")) << info.found_by;
  EXPECT_TRUE(contains(info.found_by, (dir("manifests") / "x.json").string()));
}

TEST(LoaderManifests, BrokenManifestsAreReported) {
  LoaderSettings settings;
  settings.manifest_dirs = {dir("manifests-bad")};
  const auto plugins = load_plugins(settings);
  ASSERT_EQ(plugins.size(), 3u);  // corrupt.json, missing.json, no-file-key.json
  for (const auto& p : plugins) {
    SCOPED_TRACE(p.info.found_by);
    EXPECT_EQ(p.info.state, PluginState::failed_to_load);
    EXPECT_TRUE(p.info.found_by.starts_with("manifest " + dir("manifests-bad").string()));
    EXPECT_NE(p.info.reason, "");
    EXPECT_EQ(p.api, nullptr);
  }
  const fs::path corrupt = dir("manifests-bad") / "corrupt.json";
  EXPECT_EQ(plugins[0].info.path, corrupt.string());
  EXPECT_TRUE(contains(plugins[0].info.reason, "manifest"));
  EXPECT_EQ(plugins[1].info.path, plugin("manifests-bad", "nowhere"));
  EXPECT_EQ(plugins[2].info.path, (dir("manifests-bad") / "no-file-key.json").string());
  EXPECT_TRUE(contains(plugins[2].info.reason, "manifest"));
}

// ---------------------------------------------------------------------------------------

TEST(LoaderApiFilter, ExcludedPluginIsNeverOpened) {
  take_opened();
  LoaderSettings settings;
  settings.plugin_path = {dir("filter")};
  settings.api_filter = std::vector<std::string>{"fakea"};
  const auto plugins = load_plugins(settings);
  ASSERT_EQ(plugins.size(), 2u);
  EXPECT_EQ(plugins[0].info.shortcut, "fakea");
  EXPECT_EQ(plugins[0].info.state, PluginState::ready);
  EXPECT_EQ(plugins[1].info.shortcut, "fakeb");
  EXPECT_EQ(plugins[1].info.state, PluginState::excluded);
  EXPECT_TRUE(contains(plugins[1].info.reason, "PLINTH_API"));
  EXPECT_EQ(plugins[1].api, nullptr);

  const std::string opened = take_opened();
  EXPECT_TRUE(contains(opened, "filter/fakea;"));
  EXPECT_FALSE(contains(opened, "filter/fakeb"));
}

TEST(LoaderApiFilter, WithoutAFilterEveryPluginIsOpened) {
  take_opened();
  const auto plugins = load_from({"filter"});
  ASSERT_EQ(plugins.size(), 2u);
  EXPECT_EQ(plugins[0].info.state, PluginState::ready);
  EXPECT_EQ(plugins[1].info.state, PluginState::ready);
  EXPECT_TRUE(contains(take_opened(), "filter/fakeb;"));  // the marker above works
}

TEST(LoaderApiFilter, AnEmptyFilterExcludesEverything) {
  LoaderSettings settings;
  settings.plugin_path = {dir("filter")};
  settings.api_filter = std::vector<std::string>{};
  const auto plugins = load_plugins(settings);
  ASSERT_EQ(plugins.size(), 2u);
  for (const auto& p : plugins) EXPECT_EQ(p.info.state, PluginState::excluded);
}

// ---------------------------------------------------------------------------------------

TEST(LoaderLifetime, AdapterWorksAcrossThePluginBoundary) {
  const auto plugins = load_from({"ready"});
  ASSERT_EQ(plugins.size(), 1u);
  ASSERT_NE(plugins[0].api, nullptr);
  auto& adapter = *plugins[0].api->adapter;
  EXPECT_EQ(adapter.name(), "Fake ready/fakea");
  EXPECT_TRUE(contains(adapter.prelude(false), "FAKE_PRELUDE"));
  EXPECT_EQ(adapter.platform(0)->device(1)->name(), "Fake device 1 (ready/fakea)");
  try {
    adapter.create_context({});
    ADD_FAILURE() << "the fake backend made a context";
  } catch (const plinth::LogicError& e) {  // thrown in the plugin, caught by type here
    EXPECT_STREQ(e.what(), "fake backend");
  }
}

TEST(LoaderLifetime, ObjectsKeepThePluginLoadedUntilReleased) {
  const std::string path = plugin("ready", "fakea");
  auto plugins = load_from({"ready"});
  ASSERT_EQ(plugins.size(), 1u);
  ASSERT_NE(plugins[0].api, nullptr);
  auto device = plugins[0].api->platforms[0].devices[0].adapter;
  plugins.clear();  // drops the LoadedApi and its library handle

  void* handle = dlopen(path.c_str(), RTLD_LAZY | RTLD_NOLOAD);
  EXPECT_NE(handle, nullptr) << "the plugin was unloaded while one of its adapters lives";
  if (handle != nullptr) dlclose(handle);
  EXPECT_EQ(device->name(), "Fake device 0 (ready/fakea)");  // its code is still mapped
  device.reset();
}

}  // namespace
