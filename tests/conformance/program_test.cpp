// Programs: the prelude, options, compile errors.

#include "fixture.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include <unistd.h>

namespace plinth::conformance {
namespace program_test {
namespace {

using ProgramTest = DeviceTest;

const char* const flag_source = R"(
KERNEL void flags(GLOBAL_MEM int *out)
{
#ifdef PLINTH_FAST_MATH
    out[0] = 1;
#else
    out[0] = 0;
#endif
}
)";

int run_flags(const Context& context, const Queue& queue, const ProgramOptions& options) {
  Program program(context, flag_source, options);
  auto out = Buffer::allocate(queue.device(), sizeof(int));
  program.kernel("flags")(queue, {1}, {1}, out);
  int value = -1;
  out.get(queue, std::as_writable_bytes(std::span(&value, 1)));
  return value;
}

TEST_P(ProgramTest, PreludeDefinesTheDialect) {
  EXPECT_EQ(run_flags(context(), queue(), {}), 0);
  ProgramOptions fast;
  fast.fast_math = true;
  EXPECT_EQ(run_flags(context(), queue(), fast), 1);
  Program program(context(), flag_source);
  EXPECT_NE(program.source().find("flags"), std::string::npos);
  EXPECT_GT(program.source().size(), std::string(flag_source).size());
}

TEST_P(ProgramTest, NoPreludeLeavesTheDialectUndefined) {
  ProgramOptions options;
  options.no_prelude = true;
  EXPECT_THROW(Program(context(), flag_source, options), CompileError);
}

TEST_P(ProgramTest, CompileErrorCarriesLogOptionsAndSource) {
  const std::string source =
      "KERNEL void broken(GLOBAL_MEM int *out)\n{\n    out[0] = undefined_name;\n}\n";
  ProgramOptions options;
  options.compiler_options = {"-DPLINTH_TEST_OPTION=1"};
  try {
    Program program(context(), source, options);
    FAIL() << "the program compiled";
  } catch (const CompileError& e) {
    EXPECT_NE(e.log().find("undefined_name"), std::string::npos) << e.log();
    EXPECT_NE(e.source().find("undefined_name"), std::string::npos);
    const std::string what = e.what();
    EXPECT_NE(what.find("-DPLINTH_TEST_OPTION=1"), std::string::npos) << what;
    EXPECT_NE(what.find("|     out[0] = undefined_name;"), std::string::npos) << what;
  }
  // The context is still usable.
  EXPECT_EQ(run_flags(context(), queue(), {}), 0);
}

TEST_P(ProgramTest, UnknownKernelIsALogicError) {
  Program program(context(), flag_source);
  try {
    program.kernel("nonesuch");
    FAIL() << "found a kernel that does not exist";
  } catch (const LogicError& e) {
    EXPECT_NE(std::string(e.what()).find("nonesuch"), std::string::npos) << e.what();
  }
}

TEST_P(ProgramTest, KeepLeavesTheFiles) {
  ProgramOptions options;
  options.keep = true;
  Program program(context(), flag_source, options);
  const std::filesystem::path dir = program.kept_directory();
  ASSERT_FALSE(dir.empty());
  ASSERT_TRUE(std::filesystem::is_directory(dir));
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir)) ++files;
  EXPECT_GE(files, 1u);
  std::filesystem::remove_all(dir);
}

TEST_P(ProgramTest, KeepLeavesTheSourceAsCompiledAndTheBinary) {
  ProgramOptions options;
  options.keep = true;
  const Program program(context(), flag_source, options);
  const std::filesystem::path dir = program.kept_directory();
  ASSERT_TRUE(std::filesystem::is_directory(dir));
  EXPECT_EQ(std::filesystem::status(dir).permissions() & std::filesystem::perms::all,
            std::filesystem::perms::owner_all);
  std::string source_file;
  bool binary_file = false;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const auto name = entry.path().filename().string();
    if (name.starts_with("program.c")) source_file = name;  // program.cl, program.cu
    if (entry.path().extension() == ".bin" || entry.path().extension() == ".cubin" ||
        entry.path().extension() == ".ptx")
      binary_file = entry.file_size() > 0;
  }
  ASSERT_FALSE(source_file.empty()) << "no source in " << dir;
  std::ifstream in(dir / source_file);
  const std::string kept((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(kept.find("KERNEL void flags("), std::string::npos);
  EXPECT_NE(kept.find("#define KERNEL"), std::string::npos) << "the prelude, as compiled";
  EXPECT_TRUE(binary_file) << "no binary in " << dir;
  std::filesystem::remove_all(dir);
}

TEST_P(ProgramTest, BinaryRecreatesTheProgramWithoutCompiling) {
  const Program program(context(), flag_source);
  const auto binary = program.binary(device());
  ASSERT_FALSE(binary.empty());
  const auto again = Program::from_binaries(context().devices(), {binary});
  auto out = Buffer::allocate(device(), sizeof(int));
  again.kernel("flags")(queue(), {1}, {1}, out);
  int value = -1;
  out.get(queue(), std::as_writable_bytes(std::span(&value, 1)));
  EXPECT_EQ(value, 0);
  EXPECT_THROW(again.kernel("nonesuch"), LogicError);
  // The same binary again is the same program; a binary of nothing loadable is refused.
  EXPECT_EQ(Program::from_binaries(context().devices(), {binary}).binary(device()), binary);
  std::vector<std::byte> garbage(64, std::byte{0x5a});
  EXPECT_THROW(Program::from_binaries(context().devices(), {garbage}), Error);
  EXPECT_THROW(Program::from_binaries(context().devices(), {}), LogicError);
}

/// Damaged copies of a real binary of this device: truncated at several points, its header
/// corrupted, a size field made too large, garbage of its length. `name` says which.
std::vector<std::pair<std::string, std::vector<std::byte>>> damaged_binaries(
    const std::vector<std::byte>& binary) {
  std::vector<std::pair<std::string, std::vector<std::byte>>> out;
  for (const std::size_t size : {std::size_t{1}, std::size_t{8}, std::size_t{40}, std::size_t{77},
                                 binary.size() / 3, binary.size() / 2, binary.size() - 1}) {
    if (size > 0 && size < binary.size())
      out.emplace_back("truncated to " + std::to_string(size) + " bytes",
                       std::vector<std::byte>(binary.begin(),
                                              binary.begin() + static_cast<std::ptrdiff_t>(size)));
  }
  auto header = binary;
  for (std::size_t i = 4; i < 16 && i < header.size(); ++i) header[i] ^= std::byte{0xff};
  out.emplace_back("header corrupted", header);
  // A size field too large: PoCL's first root entry's byte count (after the 77-byte header,
  // and 8 bytes more from version 10 on), else an ELF's section table offset (or text bytes).
  auto sizes = binary;
  std::size_t at = 40;
  const std::string pocl = "poclbin";
  if (sizes.size() >= 20 && std::memcmp(sizes.data(), pocl.data(), pocl.size()) == 0) {
    std::uint32_t version = 0;
    std::memcpy(&version, sizes.data() + 16, sizeof(version));
    at = version >= 10 ? 85 : 77;
  }
  for (std::size_t i = at; i < at + 8 && i < sizes.size(); ++i) sizes[i] = std::byte{0xff};
  out.emplace_back("a size field too large", sizes);
  std::vector<std::byte> garbage(binary.size());
  std::uint32_t state = 12345;
  for (auto& byte : garbage) {
    state = state * 1664525u + 1013904223u;
    byte = static_cast<std::byte>(state >> 24);
  }
  out.emplace_back("garbage", garbage);
  return out;
}

// Before: PoCL aborted or crashed inside clCreateProgramWithBinary on each of these.
TEST_P(ProgramTest, DamagedBinariesAreRefusedWithACompileError) {
  const Program program(context(), flag_source);
  const auto binary = program.binary(device());
  ASSERT_GT(binary.size(), 100u);
  for (const auto& [what, bytes] : damaged_binaries(binary)) {
    // A cut that removes only trailing NUL bytes may leave the program whole (NVIDIA's OpenCL
    // pads its PTX with more than one) or not (a PoCL binary's last file ends in a NUL): such
    // a copy either loads and works or is refused like any other damage.
    const bool only_nuls_removed =
        bytes.size() < binary.size() && std::equal(bytes.begin(), bytes.end(), binary.begin()) &&
        std::all_of(binary.begin() + static_cast<std::ptrdiff_t>(bytes.size()), binary.end(),
                    [](std::byte b) { return b == std::byte{0}; });
    try {
      const auto loaded = Program::from_binaries(context().devices(), {bytes});
      if (only_nuls_removed)
        EXPECT_NO_THROW(loaded.kernel("flags")) << what << " (only NUL bytes removed)";
      else
        ADD_FAILURE() << what << ": accepted";
    } catch (const CompileError& e) {
      EXPECT_NE(std::string(e.what()).find(device().name()), std::string::npos)
          << what << ": names the device: " << e.what();
    } catch (const Error& e) {
      ADD_FAILURE() << what << ": not a CompileError: " << e.what();
    }
  }
  EXPECT_THROW(Program::from_binaries(context().devices(), {std::vector<std::byte>{}}), Error)
      << "empty";
  // The original still loads.
  EXPECT_NO_THROW(Program::from_binaries(context().devices(), {binary}).kernel("flags"));
}

TEST_P(ProgramTest, CompilerIdentityNamesTheCompilerAndTarget) {
  const auto& identity = device().device().compiler_identity();
  EXPECT_FALSE(identity.empty());
  EXPECT_EQ(identity, Device::from_index(device().device().platform(), device().device().index())
                          .compiler_identity());
  if (device().device().api().shortcut() == "cuda") {
    EXPECT_NE(identity.find("NVRTC"), std::string::npos) << identity;
    EXPECT_NE(identity.find("sm_"), std::string::npos) << identity;
  }
}

TEST_P(ProgramTest, SpirvIsRefusedClearlyWhereNoDeviceTakesIt) {
  // A valid SPIR-V header (magic, version 1.0) and nothing else: no device here takes SPIR-V
  // (docs: PoCL 3.1/5.0 and NVIDIA's OpenCL report no IL version; CUDA has no SPIR-V path).
  const std::vector<std::uint32_t> words{0x07230203, 0x00010000, 0, 1, 0};
  const auto bytes = std::as_bytes(std::span(words));
  try {
    Program::from_spirv(context().devices(), bytes);
    GTEST_SKIP() << "this device accepted SPIR-V";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("SPIR-V"), std::string::npos) << e.what();
  }
}

// Before: OpenCL accepted constant arrays and never declared them, so a kernel using one
// failed to compile with an undeclared name, far from the cause.
TEST_P(ProgramTest, ConstantArraysWorkOrAreRefusedWhenTheProgramIsMade) {
  ProgramOptions options;
  options.constant_arrays = {{"table", "int", 4, sizeof(int)}};
  const char* const source = R"(
KERNEL void read_table(GLOBAL_MEM int *out)
{
    const int i = get_global_id(0);
    out[i] = table[i] * 2;
}
)";
  std::optional<Program> program;
  try {
    program.emplace(context(), source, options);
  } catch (const LogicError& e) {
    EXPECT_NE(std::string(e.what()).find("constant_arrays ('table', ...) are not supported"),
              std::string::npos)
        << e.what();
    GTEST_SKIP() << "this backend has no constant arrays: " << e.what();
  }
  const std::vector<int> values{1, 2, 3, 4};
  auto table = Buffer::allocate(device(), values.size() * sizeof(int));
  table.set(queue(), std::as_bytes(std::span(values)));
  program->set_constant_array(queue(), "table", table);
  auto out = Buffer::allocate(device(), values.size() * sizeof(int));
  program->kernel("read_table")(queue(), {4}, {}, out);
  std::vector<int> result(values.size());
  out.get(queue(), std::as_writable_bytes(std::span(result)));
  EXPECT_EQ(result, (std::vector<int>{2, 4, 6, 8}));
  EXPECT_NE(logic_error_message([&] {
              program->set_constant_array(queue(), "nowhere", table);
            }).find("no constant array 'nowhere'"),
            std::string::npos);
  const auto short_table = Buffer::allocate(device(), 2 * sizeof(int));
  EXPECT_NE(logic_error_message([&] {
              program->set_constant_array(queue(), "table", short_table);
            }).find("'table' has 16 bytes, the source 8"),
            std::string::npos);
}

TEST_P(ProgramTest, KernelWithoutParametersBuildsAndRuns) {
  // NVIDIA's OpenCL compiler fails on these when asked for argument info.
  Program program(context(), "KERNEL void nothing(void) {}\n");
  auto kernel = program.kernel("nothing").prepare({64});
  kernel(queue());
  queue().synchronize();
  EXPECT_THROW(kernel(queue(), 1), LogicError);
}

TEST_P(ProgramTest, TemplatesAreRenderedWithArgsAndGlobals) {
  const auto scale = Module::from_string("FUNCTION int ${prefix}(int x) { return x * ${factor}; }",
                                         "scale", {{"factor", 3}});
  const auto kernel = Template::from_string(R"~(<%def name="body(offset)">
KERNEL void templated(GLOBAL_MEM int *out)
{
    const int i = get_global_id(0);
    out[i] = ${scale}(i) + ${offset};
}
</%def>)~")
                          .get_def("body");
  ProgramOptions options;
  options.render_args = {100};
  options.render_globals = {{"scale", scale}};
  Program program(context(), kernel, options);
  EXPECT_NE(program.source().find("_mod_scale_0_(i) + 100"), std::string::npos) << program.source();
  auto out = Buffer::allocate(device(), 8 * sizeof(int));
  program.kernel("templated")(queue(), {8}, {}, out);
  std::vector<int> values(8);
  out.get(queue(), std::as_writable_bytes(std::span(values)));
  for (int i = 0; i < 8; ++i) EXPECT_EQ(values[i], i * 3 + 100);
}

TEST_P(ProgramTest, RenderErrorsSurfaceBeforeCompiling) {
  ProgramOptions options;
  options.render_globals = {{"known", 1}};
  try {
    Program(context(), "KERNEL void k(GLOBAL_MEM int *out) { out[0] = ${unknown}; }", options);
    FAIL() << "rendered an unknown name";
  } catch (const RenderError& e) {
    EXPECT_NE(std::string(e.what()).find("unknown"), std::string::npos) << e.what();
  }
}

// Before: the OpenCL backend read the digits at the end of a parameter's type name as vector
// lanes with std::stoul, so this typedef threw std::out_of_range out of Program::kernel.
TEST_P(ProgramTest, TypedefNamesEndingInLongNumbersAreAccepted) {
  Program program(context(), R"(
typedef int my_type99999999999999999999999;
KERNEL void store(GLOBAL_MEM int *out, my_type99999999999999999999999 value)
{
    out[0] = value;
})");
  auto out = Buffer::allocate(device(), sizeof(int));
  program.kernel("store")(queue(), {1}, {1}, out, std::int32_t{1234});
  int value = 0;
  out.get(queue(), std::as_writable_bytes(std::span(&value, 1)));
  EXPECT_EQ(value, 1234);
}

// grunnur's device_params: every source is rendered with its device's parameters.
TEST_P(ProgramTest, DeviceParamsAreARenderGlobal) {
  const char* const source = R"(
KERNEL void params(GLOBAL_MEM long *out)
{
    out[0] = ${device_params.max_total_local_size};
    out[1] = ${device_params.warp_size};
    out[2] = ${device_params.max_local_sizes[0]};
    out[3] = ${device_params.compute_units};
    out[4] = ${device_params.supports_double} ? 1 : 0;
}
)";
  Program program(context(), source);
  auto out = Buffer::allocate(device(), 5 * sizeof(std::int64_t));
  program.kernel("params")(queue(), {1}, {1}, out);
  std::vector<std::int64_t> values(5);
  out.get(queue(), std::as_writable_bytes(std::span(values)));
  const auto& params = device().params();
  EXPECT_EQ(values[0], static_cast<std::int64_t>(params.max_total_local_size));
  EXPECT_EQ(values[1], static_cast<std::int64_t>(params.warp_size));
  EXPECT_EQ(values[2], static_cast<std::int64_t>(params.max_local_sizes[0]));
  EXPECT_EQ(values[3], static_cast<std::int64_t>(params.compute_units));
  EXPECT_EQ(values[4], params.supports_double ? 1 : 0);
  EXPECT_EQ(program.sources()[device()], program.source());
  EXPECT_EQ(program.source(device()), program.source());

  // The name is reserved.
  ProgramOptions options;
  options.render_globals = {{"device_params", 1}};
  EXPECT_NE(logic_error_message([&] {
              Program(context(), source, options);
            }).find("The global name 'device_params' is reserved"),
            std::string::npos);
  // Its type renders as a word.
  const std::string type_source = std::string("// ${device_params.type}\n") +
                                  "KERNEL void nothing(GLOBAL_MEM int *out) { out[0] = 0; }\n";
  Program typed(context(), type_source);
  EXPECT_NE(typed.source().find(std::string("// ") + to_string(params.type)), std::string::npos);
}

TEST_P(ProgramTest, TheProgramCacheLoadsWhatItStored) {
  const auto info = program_cache_info();
  if (!info.on_disk) GTEST_SKIP() << "the compiled-program cache is " << info.state;
  if (device().device().compiler_identity().empty()) {
    GTEST_SKIP() << "the device has no compiler identity: its programs are not cached";
  }
  // A source no earlier run has built: the first build compiles, the second loads.
  const std::string source =
      std::string(flag_source) + "// " +
      std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()) + "_" +
      std::to_string(::getpid()) + "\n";
  const Program first(context(), source);
  try {
    if (first.binary(device()).empty()) GTEST_SKIP() << "the backend hands out no binaries";
  } catch (const LogicError& e) {
    GTEST_SKIP() << "the backend hands out no binaries: " << e.what();
  }
  const auto before = program_cache_info();
  const Program second(context(), source);
  const auto after = program_cache_info();
  EXPECT_EQ(after.compiled, before.compiled) << "compiled again";
  EXPECT_EQ(after.loaded, before.loaded + 1);
  auto out = Buffer::allocate(device(), sizeof(int));
  second.kernel("flags")(queue(), {1}, {1}, out);
  int value = -1;
  out.get(queue(), std::as_writable_bytes(std::span(&value, 1)));
  EXPECT_EQ(value, 0);
  // ProgramOptions::keep needs the compiler's files: it always compiles.
  ProgramOptions keep;
  keep.keep = true;
  const Program kept(context(), source, keep);
  EXPECT_EQ(program_cache_info().compiled, after.compiled + 1);
  std::filesystem::remove_all(kept.kept_directory());
}

PLINTH_INSTANTIATE_DEVICE_TEST(ProgramTest);

}  // namespace
}  // namespace program_test
}  // namespace plinth::conformance
