// PLINTH_API, PLINTH_DEVICE, PLINTH_PLUGIN_PATH, PLINTH_DEBUG, PLINTH_CACHE_DIR and
// PLINTH_CACHE_SIZE, end to end through plinth-info in a child process.

#include "run_command.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sys/wait.h>
#include <unistd.h>
#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>
#include <vector>

namespace environment_test {
namespace {

namespace fs = std::filesystem;

struct Result {
  int status;
  std::string output;  // stdout and stderr
};

Result run(const std::string& environment, const std::string& arguments = {},
           const std::string& program = PLINTH_INFO_PATH) {
  // Leak checks belong to the test processes; in a child they race with PoCL's threads at exit.
  const std::string command =
      "env ASAN_OPTIONS=detect_leaks=0 " + environment + " " + program + " " + arguments + " 2>&1";
  auto [status, output] = plinth::test::run_command(command);
  return {status, std::move(output)};
}

nlohmann::json info_json(const std::string& environment = {}) {
  const auto result = run(environment, "--json");
  return nlohmann::json::parse(result.output.substr(result.output.find('{')));
}

/// Shortcuts of the plugins in a given state.
std::vector<std::string> shortcuts(const nlohmann::json& info, bool ready) {
  std::vector<std::string> out;
  for (const auto& plugin : info["plugins"]) {
    if ((plugin["state"] == "ready") == ready && !plugin["shortcut"].get<std::string>().empty() &&
        plugin["state"] != "shadowed") {
      out.push_back(plugin["shortcut"]);
    }
  }
  return out;
}

TEST(PlinthApi, ValidShortcutSelectsThatApiOnly) {
  const auto ready = shortcuts(info_json(), true);
  if (ready.empty()) GTEST_SKIP() << "no API is ready on this machine";
  for (const auto& shortcut : ready) {
    const auto info = info_json("PLINTH_API=" + shortcut);
    ASSERT_EQ(info["apis"].size(), 1u) << info.dump();
    EXPECT_EQ(info["apis"][0]["shortcut"], shortcut);
    for (const auto& plugin : info["plugins"]) {
      if (plugin["shortcut"] != shortcut && plugin["state"] != "failed to load" &&
          plugin["state"] != "shadowed") {
        EXPECT_EQ(plugin["state"], "excluded") << plugin.dump();
      }
    }
  }
}

TEST(PlinthApi, UnknownShortcutFailsListingTheCandidates) {
  const auto result = run("PLINTH_API=nonesuch", "--api nonesuch");
  EXPECT_NE(result.status, 0);
  EXPECT_NE(result.output.find("unknown API 'nonesuch'"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("plugin candidates"), std::string::npos) << result.output;
  // Every plugin found is listed, with its state.
  for (const auto& shortcut : shortcuts(info_json(), true)) {
    EXPECT_NE(result.output.find(shortcut), std::string::npos) << result.output;
  }
}

TEST(PlinthApi, UnavailableShortcutFailsWithItsState) {
  const auto unavailable = shortcuts(info_json(), false);
  if (unavailable.empty()) GTEST_SKIP() << "every plugin found here is ready";
  for (const auto& shortcut : unavailable) {
    const auto result = run("PLINTH_API=" + shortcut, "--api " + shortcut);
    EXPECT_NE(result.status, 0);
    EXPECT_NE(result.output.find("'" + shortcut + "' is not available"), std::string::npos)
        << result.output;
  }
}

TEST(PlinthDevice, MalformedValueIsAnError) {
  // plinth-info ignores PLINTH_DEVICE (it lists everything); the multiply example honours it.
  const auto info = info_json("PLINTH_DEVICE='*:banana'");
  EXPECT_TRUE(info.contains("plugins"));
}

TEST(PlinthInfo, ListsEveryPluginWithItsState) {
  const auto info = info_json();
  ASSERT_TRUE(info["plugins"].is_array());
  for (const auto& plugin : info["plugins"]) {
    EXPECT_FALSE(plugin["path"].get<std::string>().empty());
    EXPECT_FALSE(plugin["state"].get<std::string>().empty());
    if (plugin["state"] != "ready") {
      EXPECT_FALSE(plugin["reason"].get<std::string>().empty()) << plugin.dump();
    }
  }
}

// Each API says what runs its collectives: the library (NCCL on a CUDA machine that has it) or
// plinth's own engine, with the reason there is no library.
TEST(PlinthInfo, SaysWhatRunsEachApisCollectives) {
  const auto info = info_json();
  ASSERT_TRUE(info["apis"].is_array());
  for (const auto& api : info["apis"]) {
    const auto& collectives = api["collectives"];
    ASSERT_TRUE(collectives["library"].is_boolean()) << api.dump();
    EXPECT_FALSE(collectives["description"].get<std::string>().empty()) << api.dump();
    if (api["shortcut"] == "opencl") {
      EXPECT_FALSE(collectives["library"].get<bool>());
    }
  }
  const auto text = run("");
  EXPECT_NE(text.output.find("  Collectives: "), std::string::npos) << text.output;
}

// Every device shows its memory now: the total (and free memory where the backend says it) in
// the JSON that .ci/gpu-run keeps, and a line of text.
TEST(PlinthInfo, ShowsEachDevicesMemory) {
  const auto info = info_json();
  std::size_t devices = 0;
  for (const auto& api : info["apis"]) {
    for (const auto& platform : api["platforms"]) {
      for (const auto& device : platform["devices"]) {
        ++devices;
        const auto& memory = device["memory"];
        ASSERT_TRUE(memory.is_object()) << device.dump();
        ASSERT_FALSE(memory.contains("error")) << memory.dump();
        ASSERT_TRUE(memory["total"].is_number_unsigned()) << memory.dump();
        EXPECT_GT(memory["total"].get<std::size_t>(), 0U);
        ASSERT_TRUE(memory.contains("free")) << memory.dump();
        if (!memory["free"].is_null()) {
          EXPECT_LE(memory["free"].get<std::size_t>(), memory["total"].get<std::size_t>());
        }
        if (api["shortcut"] == "opencl") {
          EXPECT_EQ(memory["total"], device["parameters"]["global_mem_size"]) << device.dump();
        }
      }
    }
  }
  if (devices == 0) GTEST_SKIP() << "no device on this machine";
  const auto text = run("");
  EXPECT_NE(text.output.find("      memory: "), std::string::npos) << text.output;
  EXPECT_NE(text.output.find(" total, "), std::string::npos) << text.output;
}

TEST(PlinthInfo, NoMatchingDeviceExitsNonZero) {
  const auto result = run("", "--device-include-mask definitely-not-a-device");
  EXPECT_EQ(result.status, 1) << result.output;
  EXPECT_NE(result.output.find("no device matches"), std::string::npos) << result.output;
}

TEST(PlinthInfo, BadOptionIsReported) {
  const auto result = run("", "--no-such-option");
  EXPECT_EQ(result.status, 2);
  EXPECT_NE(result.output.find("no-such-option"), std::string::npos) << result.output;
}

TEST(PlinthDebug, LoaderSaysWhatItDid) {
  const auto result = run("PLINTH_DEBUG=loader");
  const auto info = info_json();
  if (info["plugins"].empty()) GTEST_SKIP() << "no plugins found";
  EXPECT_NE(result.output.find("plinth[loader]:"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("found by"), std::string::npos) << result.output;
}

TEST(PluginDirectory, WithoutPluginsPlinthInfoReportsNoApiAndExitsCleanly) {
  // A copy of the core with an empty plugin directory next to it: no backend at all.
  const fs::path root =
      fs::temp_directory_path() / ("plinth-no-plugins-" + std::to_string(::getpid()));
  fs::create_directories(root / "lib" / "plinth");
  fs::copy_file(PLINTH_CORE_LIBRARY_PATH, root / "lib" / PLINTH_CORE_SONAME,
                fs::copy_options::overwrite_existing);
  // The copy comes first; the rest of the library path (e.g. a GPU run's extra libraries) stays.
  const char* old_path = std::getenv("LD_LIBRARY_PATH");
  const std::string environment = "LD_LIBRARY_PATH=" + (root / "lib").string() +
                                  (old_path != nullptr ? std::string(":") + old_path : "") +
                                  " XDG_CONFIG_HOME=" + root.string();
  const auto result = run(environment);
  const auto json_result = run(environment, "--json");
  fs::remove_all(root);
  EXPECT_EQ(result.status, 1) << result.output;
  EXPECT_NE(result.output.find("no API with devices is available"), std::string::npos)
      << result.output;
  EXPECT_EQ(result.output.find("libplinth-backend-opencl"), std::string::npos) << result.output;
  EXPECT_EQ(json_result.output.find("Sanitizer"), std::string::npos) << json_result.output;
}

// Before: unknown words (and a leading space) in PLINTH_DEBUG were dropped without a word.
TEST(PlinthDebug, UnknownWordsAreWarnedAboutOnce) {
  const auto result = run("PLINTH_DEBUG='lodaer, loader,,bogus'");
  EXPECT_NE(result.output.find("plinth: warning: PLINTH_DEBUG: unknown topic(s) 'lodaer', "
                               "'bogus' ignored"),
            std::string::npos)
      << result.output;
  EXPECT_EQ(
      result.output.find("PLINTH_DEBUG: unknown", result.output.find("PLINTH_DEBUG: unknown") + 1),
      std::string::npos)
      << "warned more than once:\n"
      << result.output;
  // " loader" (after the comma and space) still counts.
  EXPECT_NE(result.output.find("plinth[loader]:"), std::string::npos) << result.output;
}

/// A directory laid out as a hostile current directory: ./plinth/plugins.d/evil.json and
/// ./.config/plinth/plugins.d/evil.json, each naming a plugin file.
struct HostileDirectory {
  HostileDirectory() {
    fs::remove_all(root);
    for (const auto& dir :
         {root / "plinth" / "plugins.d", root / ".config" / "plinth" / "plugins.d"}) {
      fs::create_directories(dir);
      std::ofstream(dir / "evil.json") << R"({"file": "libplinth-backend-evil.so"})";
    }
  }
  ~HostileDirectory() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
  const fs::path root =
      fs::temp_directory_path() / ("plinth-hostile-cwd-" + std::to_string(::getpid()));
};

// Before: with XDG_CONFIG_HOME=. (or HOME=. and no XDG_CONFIG_HOME) plinth read
// ./plinth/plugins.d/*.json and loaded what they named: a plugin from the current directory.
TEST(PluginSearchPath, RelativeXdgConfigHomeAndHomeAreIgnored) {
  HostileDirectory hostile;
  const fs::path cwd = fs::current_path();
  fs::current_path(hostile.root);
  const auto xdg = run("XDG_CONFIG_HOME=. PLINTH_DEBUG=loader", "--json");
  const auto home = run("XDG_CONFIG_HOME= HOME=. PLINTH_DEBUG=loader", "--json");
  const auto path = run("PLINTH_PLUGIN_PATH=.:plinth/plugins.d", "--json");
  fs::current_path(cwd);
  for (const auto& result : {xdg, home, path}) {
    EXPECT_EQ(result.output.find("evil"), std::string::npos) << result.output;
  }
  EXPECT_NE(xdg.output.find("XDG_CONFIG_HOME='.' is not an absolute path: ignored"),
            std::string::npos)
      << xdg.output;
  EXPECT_NE(home.output.find("HOME='.' is not an absolute path: ignored"), std::string::npos)
      << home.output;
  EXPECT_NE(path.output.find("plinth: warning: PLINTH_PLUGIN_PATH entry '.' is not an absolute "
                             "path: ignored"),
            std::string::npos)
      << path.output;
}

// Before: plinth-info printed manifest paths raw (a cleared screen, a fake "ready" line), and
// --json died on a path that is not UTF-8.
TEST(PlinthInfo, PrintsHostileManifestPathsSafely) {
  HostileDirectory hostile;
  const auto manifest_dir = hostile.root / "xdg" / "plinth" / "plugins.d";
  fs::create_directories(manifest_dir);
  std::ofstream(manifest_dir / "a.json")
      << "{\"file\": \"/nowhere/\\u001b[2J\\n  ready          opencl     fake.so\"}";
  std::ofstream(manifest_dir / "b.json") << "{\"file\": \"/nowhere/\xff\xfe.so\"}";
  const std::string environment = "XDG_CONFIG_HOME=" + (hostile.root / "xdg").string();
  const auto text = run(environment);
  const auto json = run(environment, "--json");
  EXPECT_EQ(text.output.find('\x1b'), std::string::npos) << text.output;
  EXPECT_NE(text.output.find("/nowhere/\\x1b[2J\\n  ready"), std::string::npos) << text.output;
  EXPECT_EQ(text.output.find("\n  ready          opencl     fake.so"), std::string::npos);
  EXPECT_EQ(json.output.find("terminate"), std::string::npos) << json.output;
  const auto parsed = nlohmann::json::parse(json.output.substr(json.output.find('{')));
  EXPECT_TRUE(parsed["plugins"].is_array());
}

// plinth-info shows the compiled-program cache: PLINTH_CACHE_DIR (created private), off, and
// the default under a relative XDG_CACHE_HOME and HOME (ignored: no cache directory at all).
TEST(ProgramCacheDir, PlinthInfoShowsTheCache) {
  std::string pattern = (fs::temp_directory_path() / "plinth-info-cache-XXXXXX").string();
  ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
  struct Scratch {
    fs::path root;
    ~Scratch() {
      std::error_code ec;
      fs::remove_all(root, ec);
    }
  } scratch{pattern};
  const auto dir = scratch.root / "program-cache";
  const auto on = info_json("PLINTH_CACHE_DIR=" + dir.string());
  EXPECT_EQ(on["program_cache"]["state"], "on disk") << on.dump();
  EXPECT_EQ(on["program_cache"]["directory"], dir.string());
  EXPECT_EQ(on["program_cache"]["entries"], 0);
  EXPECT_EQ(fs::status(dir).permissions() & fs::perms::all, fs::perms::owner_all);
  EXPECT_EQ(info_json("PLINTH_CACHE_DIR=off")["program_cache"]["state"], "off");
  const fs::path cwd = fs::current_path();
  fs::current_path(scratch.root);
  const auto relative = info_json("PLINTH_CACHE_DIR= XDG_CACHE_HOME=. HOME=.");
  fs::current_path(cwd);
  EXPECT_NE(relative["program_cache"]["state"].get<std::string>().find("in memory only"),
            std::string::npos)
      << relative.dump();
  EXPECT_FALSE(fs::exists(scratch.root / "plinth"));
  EXPECT_FALSE(fs::exists(scratch.root / ".cache"));
  const auto text = run("PLINTH_CACHE_DIR=" + dir.string());
  EXPECT_NE(text.output.find("Program cache: on disk"), std::string::npos) << text.output;
}

/// How many lines of `output` contain `text`.
std::size_t lines_with(const std::string& output, const std::string& text) {
  std::size_t count = 0, start = 0;
  while (start < output.size()) {
    const auto end = std::min(output.find('\n', start), output.size());
    if (output.substr(start, end - start).find(text) != std::string::npos) ++count;
    start = end + 1;
  }
  return count;
}

/// A private scratch directory, removed (made writable first) at the end of the scope.
struct ScratchDir {
  fs::path root;
  ScratchDir() {
    std::string pattern = (fs::temp_directory_path() / "plinth-cache-env-XXXXXX").string();
    if (::mkdtemp(pattern.data()) != nullptr) root = pattern;
  }
  ~ScratchDir() {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(root, ec)) {
      fs::permissions(entry.path(), fs::perms::owner_all, fs::perm_options::add, ec);
    }
    fs::remove_all(root, ec);
  }
};

// PLINTH_CACHE_DIR set to a directory plinth must not use: one warning that says what is wrong
// and that programs are cached in memory instead (it used to fall back silently).
TEST(ProgramCacheDir, AnUnusableExplicitDirectoryIsSaidOnceOnStderr) {
  ScratchDir scratch;
  ASSERT_FALSE(scratch.root.empty());
  struct Case {
    std::string name;
    fs::path dir;
    std::string problem;
  };
  std::vector<Case> cases;
  const auto open = scratch.root / "mode-0777";
  fs::create_directory(open);
  fs::permissions(open, fs::perms::all);
  cases.push_back({"mode 0777", open, "writable by"});
  const auto file = scratch.root / "plain-file";
  std::ofstream(file) << "not a directory";
  cases.push_back({"a plain file", file, "not a directory"});
  if (::geteuid() == 0) {  // root can make a directory another user's; others cannot
    const auto foreign = scratch.root / "foreign";
    fs::create_directory(foreign, scratch.root);
    ASSERT_EQ(::chown(foreign.c_str(), 65534, 65534), 0);
    cases.push_back({"another user's", foreign, "owned by another user"});
  } else {  // root may write into a read-only directory; others may not
    const auto read_only = scratch.root / "read-only";
    fs::create_directory(read_only);
    fs::permissions(read_only, fs::perms::owner_read | fs::perms::owner_exec);
    cases.push_back({"read-only", read_only, "not writable"});
  }
  for (const auto& c : cases) {
    const auto result = run("PLINTH_CACHE_DIR=" + c.dir.string());
    EXPECT_EQ(lines_with(result.output, "plinth: warning: PLINTH_CACHE_DIR="), 1u)
        << c.name << result.output;
    EXPECT_EQ(lines_with(result.output, c.problem), 2u)  // the warning and the cache's state
        << c.name << result.output;
    EXPECT_EQ(lines_with(result.output, "reused within this process only"), 1u)
        << c.name << result.output;
    EXPECT_NE(result.output.find("Program cache: in memory only"), std::string::npos)
        << c.name << result.output;
  }
}

// PLINTH_CACHE_DIR=OFF, 0, false or none turns the cache off (each used to create a directory
// of that name in the current directory); a relative path is refused with a warning.
TEST(ProgramCacheDir, OffWordsDisableAndARelativePathIsRefused) {
  ScratchDir scratch;
  ASSERT_FALSE(scratch.root.empty());
  const fs::path cwd = fs::current_path();
  fs::current_path(scratch.root);
  for (const std::string word : {"OFF", "Off", "0", "false", "none"}) {
    const auto result = run("PLINTH_CACHE_DIR=" + word);
    EXPECT_NE(result.output.find("Program cache: off"), std::string::npos) << word << result.output;
    EXPECT_EQ(result.output.find("warning"), std::string::npos) << word << result.output;
    EXPECT_FALSE(fs::exists(scratch.root / word)) << word;
  }
  const auto relative = run("PLINTH_CACHE_DIR=relative/cache");
  fs::current_path(cwd);
  EXPECT_EQ(lines_with(relative.output,
                       "plinth: warning: PLINTH_CACHE_DIR='relative/cache' is not an absolute "
                       "path"),
            1u)
      << relative.output;
  EXPECT_NE(relative.output.find("Program cache: in memory only"), std::string::npos)
      << relative.output;
  EXPECT_FALSE(fs::exists(scratch.root / "relative"));
}

// PLINTH_CACHE_SIZE's warning escapes a control character once ("\x1b", not "\\x1b").
TEST(ProgramCacheSize, TheWarningEscapesControlCharactersOnce) {
  const auto result = run("PLINTH_CACHE_SIZE=\"$(printf 'a\\033b')\"");
  EXPECT_EQ(lines_with(result.output,
                       "plinth: warning: PLINTH_CACHE_SIZE='a\\x1bb' is not a "
                       "byte count"),
            1u)
      << result.output;
}

}  // namespace
}  // namespace environment_test
