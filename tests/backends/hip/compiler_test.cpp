// Compiling for named targets with hiprtc, through the plugin's ApiAdapter (no device, no
// HIP runtime call): the code objects, the errors, and the targets refused before hiprtc.

#include "api.hpp"
#include "code_object.hpp"
#include "prelude.hpp"
#include "targets.hpp"

#include <plinth/errors.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <span>
#include <string>
#include <thread>
#include <vector>

namespace plinth::hip {
namespace compiler_test {
namespace {

constexpr const char* add_source = R"(
KERNEL void add(GLOBAL_MEM float *out, GLOBAL_MEM const float *in, int n)
{
    const SIZE_T i = get_global_id(0);
    if (i < n) out[i] = in[i] + table[i % 4];
}
)";

struct KeptFilesRecorder final : backend::KeptFiles {
  std::map<std::string, std::vector<std::byte>> files;
  void write(std::string_view name, std::span<const std::byte> data) override {
    files[std::string(name)].assign(data.begin(), data.end());
  }
};

class HipCompileForTarget : public ::testing::Test {
 protected:
  backend::TargetBinary compile(std::string_view target, const std::string& source,
                                backend::BuildOptions options = {}) {
    prelude_ = api_->prelude(options.fast_math);
    backend::ProgramInput input;
    input.prelude = prelude_;
    input.source = source;
    return api_->compile_for_target(target, input, options);
  }
  static backend::BuildOptions with_table() {
    backend::BuildOptions options;
    options.constant_arrays = {{"table", "float", 4, sizeof(float)}};
    return options;
  }

  std::unique_ptr<backend::ApiAdapter> api_ = create_api();
  std::string prelude_;
};

unsigned byte(const std::vector<std::byte>& bytes, std::size_t i) {
  return static_cast<unsigned>(bytes.at(i));
}

TEST_F(HipCompileForTarget, MakesAnAmdGpuCodeObjectWithTheKernelsMetadata) {
  const auto compiled = compile("gfx90a", add_source, with_table());
  const auto& code = compiled.binary;
  ASSERT_GE(code.size(), 64u);
  EXPECT_EQ(byte(code, 0), 0x7fu);
  EXPECT_EQ(byte(code, 1), unsigned{'E'});
  EXPECT_EQ(byte(code, 4), 2u);                           // ELFCLASS64
  EXPECT_EQ(byte(code, 7), 64u);                          // ELFOSABI_AMDGPU_HSA
  EXPECT_EQ(byte(code, 18) | byte(code, 19) << 8, 224u);  // EM_AMDGPU
  EXPECT_EQ(code_object_problem(code), "");

  const auto kernels = read_kernels(code);
  ASSERT_EQ(kernels.size(), 1u);
  EXPECT_EQ(kernels[0].name, "add");
  ASSERT_EQ(kernels[0].parameters.size(), 3u);  // the hidden arguments are left out
  EXPECT_EQ(kernels[0].parameters[0].size, 8u);
  EXPECT_EQ(kernels[0].parameters[1].size, 8u);
  EXPECT_EQ(kernels[0].parameters[2].size, 4u);
  for (const auto& param : kernels[0].parameters)
    EXPECT_EQ(param.kind, backend::ParamKind::unknown);
  EXPECT_EQ(kernels[0].max_flat_workgroup_size, 1024u);
}

TEST_F(HipCompileForTarget, CompilesForWave32AndForTargetFeatures) {
  EXPECT_EQ(code_object_problem(compile("gfx1030", add_source, with_table()).binary), "");
  EXPECT_EQ(code_object_problem(compile("gfx90a:sramecc+:xnack-", add_source, with_table()).binary),
            "");
}

TEST_F(HipCompileForTarget, LeavesTheSourceLogAndCodeObjectWhenKept) {
  KeptFilesRecorder kept;
  auto options = with_table();
  options.keep = &kept;
  const auto compiled = compile("gfx90a:xnack-", add_source, options);
  ASSERT_TRUE(kept.files.contains("program.hip"));
  ASSERT_TRUE(kept.files.contains("program_gfx90a_xnack-.log"));
  ASSERT_TRUE(kept.files.contains("program_gfx90a_xnack-.hsaco"));
  EXPECT_EQ(kept.files["program_gfx90a_xnack-.hsaco"], compiled.binary);
  const auto& source = kept.files["program.hip"];
  const std::string text(reinterpret_cast<const char*>(source.data()), source.size());
  EXPECT_TRUE(text.starts_with(hip::prelude(false)));
  EXPECT_NE(text.find("__constant__ float table[4];"), std::string::npos);
}

TEST_F(HipCompileForTarget, ABrokenKernelIsACompileErrorWithTheLogAndNumberedSource) {
  backend::BuildOptions options;
  options.fast_math = true;
  try {
    compile("gfx90a", "KERNEL void broken(GLOBAL_MEM float *x)\n{\n    x[0] = oops;\n}\n", options);
    FAIL() << "compiled";
  } catch (const CompileError& e) {
    const std::string what = e.what();
    EXPECT_NE(e.log().find("undeclared identifier 'oops'"), std::string::npos) << e.log();
    EXPECT_NE(what.find("undeclared identifier 'oops'"), std::string::npos) << what;
    EXPECT_NE(what.find("|     x[0] = oops;"), std::string::npos) << what;  // numbered line
    const auto& opts = e.options();
    EXPECT_NE(std::find(opts.begin(), opts.end(), "--offload-arch=gfx90a"), opts.end());
    EXPECT_NE(std::find(opts.begin(), opts.end(), "-ffast-math"), opts.end());
    EXPECT_NE(e.source().find("#define PLINTH_FAST_MATH"), std::string::npos);
  }
}

TEST_F(HipCompileForTarget, RefusesTargetsComgrDoesNotKnowBeforeHiprtcSeesThem) {
  const auto known = [](std::string_view processor) {
    const auto& list = isas();
    return std::any_of(list.begin(), list.end(),
                       [&](const auto& isa) { return isa.name == processor; });
  };
  for (const char* target : {"gfx942", "gfx1100", "gfx9999", "gfx1030:xnack+", "gfx90a:bogus+"}) {
    if (known(target)) continue;  // a newer comgr than Debian's HIP 5.2 has (the GPU machines')
    try {
      compile(target, add_source, with_table());
      FAIL() << target << " compiled";
    } catch (const LogicError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("'" + std::string(target) + "'"), std::string::npos) << what;
      EXPECT_NE(what.find("comgr "), std::string::npos) << what;
    }
  }
  try {
    compile("gfx9999", add_source, with_table());
    FAIL() << "gfx9999 compiled";
  } catch (const LogicError& e) {
    EXPECT_NE(std::string(e.what()).find("gfx90a"), std::string::npos) << e.what();  // supported
  }
}

TEST_F(HipCompileForTarget, RefusesOptionsThatChooseTheTarget) {
  for (const char* option : {"--offload-arch=gfx942", "-mcpu=gfx942", "-mxnack"}) {
    auto options = with_table();
    options.compiler_options = {option};
    EXPECT_THROW(compile("gfx90a", add_source, options), LogicError) << option;
  }
  auto options = with_table();
  options.compiler_options = {"-DEXTRA=1", "-Wall"};
  EXPECT_NO_THROW(compile("gfx90a", add_source, options));
}

TEST_F(HipCompileForTarget, CompilesOnSeveralThreadsAtOnce) {
  std::vector<std::vector<std::byte>> binaries(4);
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < binaries.size(); ++i)
    threads.emplace_back([&, i] {
      const auto api = create_api();
      const std::string prelude = api->prelude(false);
      backend::ProgramInput input;
      input.prelude = prelude;
      input.source = add_source;
      binaries[i] =
          api->compile_for_target(i % 2 ? "gfx90a" : "gfx1030", input, with_table()).binary;
    });
  for (auto& thread : threads) thread.join();
  for (const auto& binary : binaries) EXPECT_EQ(code_object_problem(binary), "");
  EXPECT_EQ(binaries[1], binaries[3]);
}

TEST(HipCodeObject, RecognisesWhatIsNotOne) {
  std::vector<std::byte> bytes(64);
  EXPECT_EQ(code_object_problem(bytes), "not an ELF file");
  EXPECT_EQ(code_object_problem({}), "not an ELF file");
  const unsigned char x86[20] = {0x7f, 'E', 'L', 'F', 2, 1, 1, 0, 0,  0,
                                 0,    0,   0,   0,   0, 0, 3, 0, 62, 0};
  std::memcpy(bytes.data(), x86, sizeof(x86));
  EXPECT_NE(code_object_problem(bytes).find("machine 62"), std::string::npos);
}

}  // namespace
}  // namespace compiler_test
}  // namespace plinth::hip
