// <plinth/backend/compiler_option_allow_list.hpp>: the compiler options plinth passes on from
// a job file, and to a compiler process it starts itself, per API.

#include <plinth/backend/compiler_option_allow_list.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace compiler_option_allow_list_test {
namespace {

using plinth::backend::compiler_option_problem;

std::string problem(const char* api, std::vector<std::string> options) {
  return compiler_option_problem(api, options);
}

const std::vector<const char*> apis{"opencl", "level_zero", "cuda", "hip", "hostv13"};

TEST(CompilerOptionAllowList, EveryApiTakesMacros) {
  for (const char* api : apis) {
    SCOPED_TRACE(api);
    EXPECT_EQ(problem(api, {}), "");
    EXPECT_EQ(problem(api, {"-DWIDTH=3", "-DFLAG", "-D_x1=", "-UOLD"}), "");
    // A value is only text: an option spelled inside it stays a macro's value.
    EXPECT_EQ(problem(api, {"-DX=-fplugin=/tmp/evil.so", "-DY=a=b=c"}), "");
  }
}

TEST(CompilerOptionAllowList, RefusesWhatReadsFilesOrLoadsCodeOnEveryApi) {
  const std::vector<std::string> refused{"-fplugin=/tmp/evil.so",
                                         "-fpass-plugin=/tmp/evil.so",
                                         "-Xclang",
                                         "-load",
                                         "-Xlinker",
                                         "-Xptxas",
                                         "-Wl,-rpath,/tmp",
                                         "-Wp,-include,/etc/passwd",
                                         "@/tmp/x",
                                         "-I/x",
                                         "-I",
                                         "/x",
                                         "-include",
                                         "--include",
                                         "--include=/etc/passwd",
                                         "-isystem/x",
                                         "-o",
                                         "-D",
                                         "-D NAME=1",
                                         "-D1X",
                                         "-DX=\n-fplugin=/x",
                                         "-DNAME\t=1",
                                         "--gpu-architecture=sm_80",
                                         "-march=native",
                                         "",
                                         "-cl-std=CL2.0 -I/x"};
  for (const char* api : apis) {
    for (const auto& option : refused) {
      SCOPED_TRACE(std::string(api) + " " + option);
      const auto message = problem(api, {"-DOK=1", option});
      EXPECT_NE(message, "");
      // The message names the option (printable) and the API.
      EXPECT_NE(message.find("not accepted for " + std::string(api)), std::string::npos) << message;
      if (option.find('\n') == std::string::npos && option.find('\t') == std::string::npos) {
        EXPECT_NE(message.find("'" + option + "'"), std::string::npos) << message;
      }
      EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    }
  }
  // Two arguments as the compiler would read them: each is judged, and the first is refused.
  EXPECT_NE(
      problem("level_zero", {"-Xclang", "-load", "-Xclang", "/tmp/evil.so"}).find("'-Xclang'"),
      std::string::npos);
  EXPECT_NE(problem("opencl", {"-I", "/x"}).find("'-I'"), std::string::npos);
  EXPECT_NE(problem("cuda", {"-D"}).find("-DNAME=value"), std::string::npos);
}

TEST(CompilerOptionAllowList, OpenClTakesItsBuildOptions) {
  EXPECT_EQ(problem("opencl", {"-cl-mad-enable", "-cl-std=CL2.0", "-cl-fast-relaxed-math", "-w",
                               "-Werror", "-cl-denorms-are-zero"}),
            "");
  // Joined into one string by clBuildProgram: a space would start another option.
  EXPECT_NE(problem("opencl", {"-DX=a -I/tmp"}), "");
  EXPECT_NE(problem("opencl", {"-Wall"}), "");
  EXPECT_NE(problem("opencl", {"-cl-std=CL2.0,-x"}), "");
  EXPECT_NE(problem("opencl", {"-cl-"}), "");
  EXPECT_NE(problem("opencl", {"-O3"}), "");
}

TEST(CompilerOptionAllowList, LevelZeroTakesOpenClOptionsAndWarnings) {
  EXPECT_EQ(problem("level_zero",
                    {"-cl-mad-enable", "-cl-std=CL2.0", "-w", "-Werror", "-Wunused-variable",
                     "-Wno-unused", "-Werror=vla", "-DNOTE=\"; touch /tmp/x\""}),
            "");
  for (const char* option : {"-Wl,--version", "-Wa,-x", "-Wp,-I/x", "-W", "-fno-such-option",
                             "-fgnu89-inline", "-O2", "-target", "-emit-llvm", "-c", "--", "-mllvm",
                             "--config=/tmp/x.cfg", "-save-temps", "-B/tmp"}) {
    EXPECT_NE(problem("level_zero", {option}), "") << option;
  }
}

TEST(CompilerOptionAllowList, CudaTakesNvrtcsCodeGenerationOptionsByName) {
  EXPECT_EQ(problem("cuda", {"-G",
                             "--device-debug",
                             "-lineinfo",
                             "--generate-line-info",
                             "-dopt=on",
                             "--dopt=off",
                             "-maxrregcount=32",
                             "--maxrregcount=255",
                             "-ftz=true",
                             "--ftz=false",
                             "-prec-sqrt=false",
                             "--prec-div=true",
                             "-fmad=false",
                             "-use_fast_math",
                             "--use_fast_math",
                             "-extra-device-vectorization",
                             "-std=c++17",
                             "--std=c++20",
                             "-w",
                             "--disable-warnings",
                             "-restrict",
                             "-default-device",
                             "--modify-stack-limit=false"}),
            "");
  for (const char* option : {"-ftz=maybe",
                             "-ftz",
                             "-fmad=1",
                             "-maxrregcount=",
                             "-maxrregcount=x",
                             "-maxrregcount=99999",
                             "-maxrregcount",
                             "-std=c++99",
                             "--std=gnu++17",
                             "-arch=sm_80",
                             "-Xptxas",
                             "--ptxas-options=-v",
                             "-dlto",
                             "-rdc=true",
                             "---G",
                             "-lineinfo=1",
                             "-fplugin=x",
                             "-include",
                             "-I.",
                             "--include-path=/x",
                             "--pre-include=/x",
                             "-cl-mad-enable",
                             "-O3"}) {
    EXPECT_NE(problem("cuda", {option}), "") << option;
  }
}

TEST(CompilerOptionAllowList, HipTakesHiprtcsCodeGenerationOptions) {
  EXPECT_EQ(problem("hip", {"-O0", "-O3", "-std=c++17", "-g", "-w", "-Wall", "-Wno-unused",
                            "-mcumode", "-mno-wavefrontsize64"}),
            "");
  for (const char* option :
       {"-O4", "-Ofast", "-ffast-math", "-fgpu-rdc", "-mllvm", "-Wl,-x", "--offload-arch=gfx90a",
        "-mcpu=gfx90a", "-std=c++99", "-cl-mad-enable", "-Xclang", "@opts"}) {
    EXPECT_NE(problem("hip", {option}), "") << option;
  }
}

TEST(CompilerOptionAllowList, AnUnknownApiTakesOnlyMacros) {
  EXPECT_NE(problem("hostv13", {"-cl-mad-enable"}).find("-D/-U macros only"), std::string::npos);
  EXPECT_NE(problem("hostv13", {"-w"}), "");
}

TEST(CompilerOptionAllowList, QuotesABoundedPrintableExcerpt) {
  const std::string huge = "-f" + std::string(100000, 'x');
  const auto message = problem("cuda", {huge});
  EXPECT_LT(message.size(), 1000U) << message.size();
  EXPECT_NE(message.find("'-fxxx"), std::string::npos);
  const auto escaped = problem("opencl", {"-fx\x1b[2J"});
  EXPECT_EQ(escaped.find('\x1b'), std::string::npos) << escaped;
  EXPECT_NE(escaped.find("\\x1b"), std::string::npos) << escaped;
}

}  // namespace
}  // namespace compiler_option_allow_list_test
