// Compiling the kernel dialect to SPIR-V with clang and llvm-spirv run as programs
// (spirv_compiler.cpp): valid modules for every kind of parameter, clang's diagnostics as
// CompileErrors, options passed as single arguments (never through a shell) and only from the
// allow-list (a hostile plugin never loads), the kept files,
// a missing compiler explained, and several threads compiling at once.

#include "compiler_available.hpp"
#include "prelude.hpp"
#include "spirv_compiler.hpp"
#include "spirv_reflection.hpp"
#include "spirv_validation.hpp"

#include <plinth/errors.hpp>

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <span>
#include <string>
#include <thread>
#include <vector>

namespace plinth::level_zero {
namespace compiler_test {
namespace {

// Every kind of parameter the core passes: global, constant and local pointers, scalars of
// each size, a struct by value, a double, and dynamic local memory as the last parameter.
constexpr const char* every_parameter = R"(
typedef struct { int count; float scale; double offset; } settings;
KERNEL void every_parameter(GLOBAL_MEM double *out, CONSTANT_MEM const float *in,
                            LOCAL_MEM float *tile, char c, short s, int i, long l, float f,
                            double d, float4 v, settings st, LOCAL_MEM_DYNAMIC float *scratch)
{
    const SIZE_T id = get_global_id(0);
    tile[get_local_id(0)] = in[id] * st.scale;
    scratch[get_local_id(0)] = f;
    LOCAL_BARRIER;
    out[id] = tile[0] + scratch[0] + c + s + i + l + d + v.w + st.count + st.offset;
}
)";

std::string with_prelude(const std::string& source, bool fast_math = false) {
  return level_zero::prelude(fast_math) + '\n' + source;
}

std::uint32_t word(const std::vector<std::byte>& binary, std::size_t index) {
  std::uint32_t value = 0;
  for (std::size_t b = 0; b < 4; ++b)
    value |= static_cast<std::uint32_t>(binary.at(index * 4 + b)) << (8 * b);
  return value;
}

struct KeptFilesRecorder final : backend::KeptFiles {
  std::map<std::string, std::vector<std::byte>> files;
  void write(std::string_view name, std::span<const std::byte> data) override {
    files[std::string(name)].assign(data.begin(), data.end());
  }
  std::string text(const std::string& name) const {
    const auto& bytes = files.at(name);
    return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
  }
};

TEST(LevelZeroCompiler, CompilesEveryKindOfParameterToValidSpirv) {
  PLINTH_NEED_COMPILER();
  PLINTH_NEED_SPIRV_VAL();
  for (const bool fast_math : {false, true}) {
    backend::BuildOptions options;
    options.fast_math = fast_math;
    const auto module = compile_to_spirv(with_prelude(every_parameter, fast_math), options);
    ASSERT_GE(module.binary.size(), 20u);
    EXPECT_EQ(word(module.binary, 0), 0x07230203u);  // little-endian words
    EXPECT_LE(word(module.binary, 1), 0x00010200u);  // SPIR-V 1.2 at most
    EXPECT_EQ(testing::validation_errors(module.binary), "") << "fast_math " << fast_math;
    const auto kernels = reflect_kernels(module.binary);
    ASSERT_EQ(kernels.size(), 1u);
    EXPECT_EQ(kernels[0].parameters.size(), 12u);
  }
}

// The names a module imports (OpDecorate LinkageAttributes ... Import): what a driver would
// have to find elsewhere when it links the module.
std::vector<std::string> imported_names(const std::vector<std::byte>& binary) {
  std::vector<std::string> names;
  const std::size_t count = binary.size() / 4;
  for (std::size_t at = 5; at < count;) {
    const std::uint32_t first = word(binary, at);
    const std::size_t length = first >> 16;
    if (length == 0 || at + length > count) break;
    // OpDecorate (71) %target LinkageAttributes (41) "name" Import (1)
    if ((first & 0xffff) == 71 && length >= 5 && word(binary, at + 2) == 41 &&
        word(binary, at + length - 1) == 1) {
      std::string name;
      for (std::size_t w = at + 3; w < at + length - 1; ++w)
        for (std::size_t b = 0; b < 4; ++b)
          if (const char c = static_cast<char>((word(binary, w) >> (8 * b)) & 0xff); c != 0)
            name += c;
      names.push_back(name);
    }
    at += length;
  }
  return names;
}

TEST(LevelZeroCompiler, InlineFunctionsAreDefinedInTheModuleNotImported) {
  PLINTH_NEED_COMPILER();
  PLINTH_NEED_SPIRV_VAL();
  const auto module = compile_to_spirv(with_prelude(R"(
FUNCTION INLINE float twice(float x) { return 2 * x; }
inline float thrice(float x) { return 3 * x; }
FUNCTION float helper(float x) { return twice(x) + thrice(x); }
KERNEL void k(GLOBAL_MEM float *out) { out[0] = helper(out[1]); }
)"),
                                       {});
  EXPECT_EQ(testing::validation_errors(module.binary), "");
  for (const auto& name : imported_names(module.binary))
    EXPECT_EQ(name.rfind("__spirv_BuiltIn", 0), 0u) << name << " is imported";
}

// What clang -O2 makes of a StaticKernel's index functions (a switch becomes a lookup table of
// i31 values) is IR that llvm-spirv 15 refuses ("Invalid bit width in input: 31"); so are
// the `freeze` instructions other optimisations make. Such kernels compile all the same.
TEST(LevelZeroCompiler, KernelsThatOptimisedIrWouldBreakCompileToValidSpirv) {
  PLINTH_NEED_COMPILER();
  PLINTH_NEED_SPIRV_VAL();
  const auto module = compile_to_spirv(with_prelude(R"(
FUNCTION VSIZE_T group_id(unsigned int dim)
{
    switch (dim)
    {
    case 1: return get_group_id(1);
    case 3: return get_group_id(2) % 11;
    case 4: return get_group_id(2) / 11;
    default: return 0;
    }
}
KERNEL void ids(GLOBAL_MEM int *group_ids)
{
    for (unsigned int d = 0; d < 5; ++d) group_ids[get_local_id(0) * 5 + d] = (int)group_id(d);
}
)"),
                                       {});
  EXPECT_EQ(testing::validation_errors(module.binary), "");
  EXPECT_EQ(reflect_kernels(module.binary).at(0).name, "ids");
}

TEST(LevelZeroCompiler, ASyntaxErrorIsACompileErrorWithClangsMessageAndLine) {
  PLINTH_NEED_COMPILER();
  const std::string source = with_prelude(
      "KERNEL void broken(GLOBAL_MEM float *x)\n{\n    x[0] = oops;\n}\n", /*fast_math=*/true);
  // The line of "x[0] = oops;" in the translation unit, counting from 1.
  const auto line = std::count(source.begin(), source.begin() + source.find("oops"), '\n') + 1;
  backend::BuildOptions options;
  options.fast_math = true;
  options.compiler_options = {"-DUNUSED=1"};
  try {
    compile_to_spirv(source, options);
    FAIL() << "compiled";
  } catch (const CompileError& e) {
    EXPECT_NE(e.log().find("program.cl:" + std::to_string(line) +
                           ":12: error: use of undeclared "
                           "identifier 'oops'"),
              std::string::npos)
        << e.log();
    const std::string what = e.what();
    EXPECT_NE(what.find("|     x[0] = oops;"), std::string::npos) << what;  // numbered source
    EXPECT_EQ(e.source(), source);
    const auto& opts = e.options();
    for (const char* option : {"-cl-std=CL2.0", "-cl-fast-relaxed-math", "-DUNUSED=1"})
      EXPECT_NE(std::find(opts.begin(), opts.end(), option), opts.end()) << option;
  }
}

TEST(LevelZeroCompiler, PassesTheOptionsToClang) {
  PLINTH_NEED_COMPILER();
  const std::string source = with_prelude(R"(
#if !defined(WIDTH) || WIDTH != 3
#error WIDTH is not 3
#endif
#if !defined(__FAST_RELAXED_MATH__)
#error not fast
#endif
KERNEL void fill(GLOBAL_MEM int *out) { out[get_global_id(0)] = WIDTH; }
)");
  backend::BuildOptions options;
  options.fast_math = true;  // -cl-fast-relaxed-math, which defines __FAST_RELAXED_MATH__
  options.compiler_options = {"-DWIDTH=3"};
  const auto module = compile_to_spirv(source, options);
  EXPECT_EQ(reflect_kernels(module.binary).at(0).name, "fill");

  options.compiler_options = {"-DWIDTH=4"};
  try {
    compile_to_spirv(source, options);
    FAIL() << "compiled with WIDTH=4";
  } catch (const CompileError& e) {
    EXPECT_NE(e.log().find("WIDTH is not 3"), std::string::npos) << e.log();
  }
  options.fast_math = false;
  options.compiler_options = {"-DWIDTH=3"};
  try {
    compile_to_spirv(source, options);
    FAIL() << "compiled without fast math";
  } catch (const CompileError& e) {
    EXPECT_NE(e.log().find("not fast"), std::string::npos) << e.log();
  }
}

TEST(LevelZeroCompiler, ABadOptionIsACompileErrorNotACrash) {
  PLINTH_NEED_COMPILER();
  backend::BuildOptions options;
  options.compiler_options = {"-Wno-such-warning-anywhere", "-Werror"};
  try {
    compile_to_spirv(with_prelude(every_parameter), options);
    FAIL() << "compiled";
  } catch (const CompileError& e) {
    EXPECT_NE(e.log().find("-Wno-such-warning-anywhere"), std::string::npos) << e.log();
  }
}

// Options that make clang load code or read files are refused before clang starts: a real
// shared library stands in for a hostile plugin, and its constructor would leave a marker.
TEST(LevelZeroCompiler, OptionsThatLoadCodeAreRefusedBeforeClangStarts) {
  PLINTH_NEED_COMPILER();
  const std::string plugin = PLINTH_TEST_EVIL_PLUGIN;
  const std::string marker = "/tmp/plinth-evil-plugin-ran-" + std::to_string(::getpid());
  std::filesystem::remove(marker);
  ::setenv("PLINTH_TEST_EVIL_PLUGIN_MARKER", marker.c_str(), 1);
  const std::vector<std::vector<std::string>> refused{{"-fplugin=" + plugin},
                                                      {"-Xclang", "-load", "-Xclang", plugin},
                                                      {"-DOK=1", "-fpass-plugin=" + plugin},
                                                      {"-o", "/dev/null"},
                                                      {"-I/etc"},
                                                      {"-include", "/etc/hostname"},
                                                      {"@/tmp/plinth-no-such-options-file"},
                                                      {"-Wl,-rpath,/tmp"}};
  for (const auto& list : refused) {
    SCOPED_TRACE(list.front());
    backend::BuildOptions options;
    options.compiler_options = list;
    try {
      compile_to_spirv(with_prelude(every_parameter), options);
      ADD_FAILURE() << "compiled";
    } catch (const LogicError& e) {
      const std::string what = e.what();
      const std::string& named = list.front() == "-DOK=1" ? list.at(1) : list.front();
      EXPECT_NE(what.find("'" + named + "'"), std::string::npos) << what;
      EXPECT_NE(what.find("not accepted for level_zero"), std::string::npos) << what;
    } catch (const Error& e) {
      ADD_FAILURE() << "not refused before clang ran: " << e.what();
    }
    EXPECT_FALSE(std::filesystem::exists(marker)) << "the plugin ran";
    std::filesystem::remove(marker);
  }
  ::unsetenv("PLINTH_TEST_EVIL_PLUGIN_MARKER");
}

TEST(LevelZeroCompiler, OptionsThatLookLikeShellCommandsAreSingleArguments) {
  PLINTH_NEED_COMPILER();
  const std::string marker = "/tmp/plinth-level-zero-injected-" + std::to_string(::getpid());
  std::filesystem::remove(marker);
  backend::BuildOptions options;
  // One argument each: a -D whose value is a shell command compiles (the macro is unused).
  options.compiler_options = {"-DNOTE=\"; touch " + marker + "\"",
                              "-DOTHER=$(touch " + marker + ")"};
  EXPECT_FALSE(compile_to_spirv(with_prelude(every_parameter), options).binary.empty());
  // Not on the allow-list: refused, and still no shell.
  for (const std::string& option :
       {"; touch " + marker, "`touch " + marker + "`", "&& touch " + marker, "| touch " + marker}) {
    options.compiler_options = {option};
    EXPECT_THROW(compile_to_spirv(with_prelude(every_parameter), options), LogicError) << option;
  }
  EXPECT_FALSE(std::filesystem::exists(marker));
}

TEST(LevelZeroCompiler, LeavesTheSourceModuleAndLogWhenKept) {
  PLINTH_NEED_COMPILER();
  KeptFilesRecorder kept;
  backend::BuildOptions options;
  options.keep = &kept;
  options.compiler_options = {"-Wunused-variable"};
  const std::string source =
      with_prelude("KERNEL void k(GLOBAL_MEM int *p) { int unused_here; p[0] = 1; }\n");
  const auto module = compile_to_spirv(source, options);
  EXPECT_EQ(kept.text("program.cl"), source);
  EXPECT_EQ(kept.files.at("program.spv"), module.binary);
  EXPECT_EQ(kept.text("build.log"), module.log);
  EXPECT_NE(module.log.find("unused variable 'unused_here'"), std::string::npos) << module.log;

  // A refused source leaves the source and the log.
  KeptFilesRecorder refused;
  options.keep = &refused;
  EXPECT_THROW(compile_to_spirv(with_prelude("KERNEL void k() { nope; }\n"), options),
               CompileError);
  EXPECT_TRUE(refused.files.contains("program.cl"));
  EXPECT_NE(refused.text("build.log").find("nope"), std::string::npos);
  EXPECT_FALSE(refused.files.contains("program.spv"));
}

TEST(LevelZeroCompiler, RemovesItsTemporaryDirectory) {
  PLINTH_NEED_COMPILER();
  const auto dir = std::filesystem::temp_directory_path() /
                   ("plinth-level-zero-tmp-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const char* old = std::getenv("TMPDIR");
  const std::string saved = old != nullptr ? old : "";
  ::setenv("TMPDIR", dir.c_str(), 1);
  compile_to_spirv(with_prelude(every_parameter), {});
  EXPECT_THROW(compile_to_spirv(with_prelude("KERNEL void k() { nope; }\n"), {}), CompileError);
  if (old != nullptr)
    ::setenv("TMPDIR", saved.c_str(), 1);
  else
    ::unsetenv("TMPDIR");
  EXPECT_TRUE(std::filesystem::is_empty(dir));
  std::filesystem::remove_all(dir);
}

TEST(LevelZeroCompiler, CompilesOnSeveralThreadsAtOnce) {
  PLINTH_NEED_COMPILER();
  PLINTH_NEED_SPIRV_VAL();
  std::vector<std::vector<std::byte>> binaries(6);
  std::vector<std::string> errors(binaries.size());
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < binaries.size(); ++t)
    threads.emplace_back([&, t] {
      try {
        backend::BuildOptions options;
        options.compiler_options = {"-DTHREAD=" + std::to_string(t % 2)};
        binaries[t] = compile_to_spirv(with_prelude(every_parameter), options).binary;
        // A refused source on some threads at the same time.
        if (t % 3 == 0) compile_to_spirv(with_prelude("KERNEL void k() { nope; }\n"), {});
      } catch (const CompileError& e) {
        if (e.log().find("nope") == std::string::npos) errors[t] = e.what();
      } catch (const std::exception& e) {
        errors[t] = e.what();
      }
    });
  for (auto& thread : threads) thread.join();
  for (std::size_t t = 0; t < binaries.size(); ++t) {
    EXPECT_EQ(errors[t], "") << t;
    EXPECT_EQ(binaries[t], binaries[0]) << t;  // the same source makes the same module
  }
  EXPECT_EQ(testing::validation_errors(binaries[0]), "");
}

TEST(LevelZeroCompiler, TranslationUnitIsThePreludeANewlineAndTheSource) {
  backend::ProgramInput input;
  input.prelude = "#define A 1";
  input.source = "KERNEL void k() {}";
  EXPECT_EQ(translation_unit(input, {}), "#define A 1\nKERNEL void k() {}");
  input.prelude = {};  // no_prelude
  EXPECT_EQ(translation_unit(input, {}), "KERNEL void k() {}");
}

TEST(LevelZeroCompiler, ConstantArraysAreRefusedNamingTheFirst) {
  backend::ProgramInput input;
  input.source = "KERNEL void k() {}";
  backend::BuildOptions options;
  options.constant_arrays = {{"coefficients", "float", 4, 4}, {"other", "int", 2, 4}};
  try {
    translation_unit(input, options);
    FAIL() << "accepted";
  } catch (const LogicError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("'coefficients'"), std::string::npos) << what;
    EXPECT_NE(what.find("Level Zero"), std::string::npos) << what;
    EXPECT_NE(what.find("CONSTANT_MEM kernel argument"), std::string::npos) << what;
  }
}

TEST(LevelZeroCompiler, VersionNamesBothToolsAndStaysTheSame) {
  PLINTH_NEED_COMPILER();
  const std::string version = compiler_version();
  EXPECT_EQ(version.rfind("clang ", 0), 0u) << version;
  EXPECT_NE(version.find("; llvm-spirv (LLVM "), std::string::npos) << version;
  EXPECT_NE(version.find("SPIR-V 1.2"), std::string::npos) << version;
  EXPECT_EQ(version.find("version unknown"), std::string::npos) << version;
  EXPECT_EQ(version.find('\n'), std::string::npos) << version;
  EXPECT_EQ(compiler_version(), version);
}

// PLINTH_CLANG naming no program: the tools are looked up once per process, so this runs in a
// fresh process of its own (a death test in the "threadsafe" style re-executes the binary).
TEST(LevelZeroCompilerDeathTest, AMissingClangIsACompileErrorNamingItAndThePackages) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        ::setenv("PLINTH_CLANG", "/nonexistent", 1);
        bool ok = compiler_version().empty();
        const auto problem = compiler_problem();
        ok = ok && problem.has_value();
        try {
          compile_to_spirv("KERNEL void k() {}", {});
          std::cerr << "compiled\n";
        } catch (const CompileError& e) {
          std::cerr << "[" << e.log() << "]\n";
          ok = ok && problem && e.log() == *problem &&
               e.source().find("KERNEL void k()") != std::string::npos;
        }
        std::exit(ok ? 0 : 1);
      },
      ::testing::ExitedWithCode(0),
      "\\[cannot compile kernels to SPIR-V: .*PLINTH_CLANG='/nonexistent' names no executable "
      "program \\(clang, the "
      "OpenCL C compiler\\).*install clang-15 and llvm-spirv-15 \\(Debian/Ubuntu\\)");
}

TEST(LevelZeroCompilerDeathTest, AMissingTranslatorIsNamedToo) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        ::setenv("PLINTH_LLVM_SPIRV", "no-such-llvm-spirv", 1);
        const auto problem = compiler_problem();
        std::cerr << "[" << problem.value_or("none") << "]\n";
        std::exit(problem ? 0 : 1);
      },
      ::testing::ExitedWithCode(0),
      "PLINTH_LLVM_SPIRV='no-such-llvm-spirv' names no executable program \\(llvm-spirv, the "
      "LLVM to SPIR-V translator\\).*install clang-15 and llvm-spirv-15");
}

}  // namespace
}  // namespace compiler_test
}  // namespace plinth::level_zero
