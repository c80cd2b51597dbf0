#include <plinth/errors.hpp>

#include <gtest/gtest.h>

namespace plinth {
namespace errors_test {
namespace {

TEST(Errors, HierarchyIsRootedAtError) {
  EXPECT_THROW(throw LogicError("x"), Error);
  EXPECT_THROW(throw PluginError("x"), Error);
  EXPECT_THROW(throw RenderError("x"), Error);
  EXPECT_THROW(throw VirtualSizeError("x"), LogicError);
  EXPECT_THROW(throw OutOfMemoryError("CUDA", "cuMemAlloc", 2, "CUDA_ERROR_OUT_OF_MEMORY"),
               BackendError);
  EXPECT_THROW(throw CompileError("log", {}, "src"), std::runtime_error);
}

TEST(Errors, BackendErrorNamesTheCallAndCode) {
  const BackendError e("OpenCL", "clCreateBuffer", -61, "CL_INVALID_BUFFER_SIZE", "size 0");
  EXPECT_EQ(e.api(), "OpenCL");
  EXPECT_EQ(e.call(), "clCreateBuffer");
  EXPECT_EQ(e.code(), -61);
  EXPECT_EQ(e.code_name(), "CL_INVALID_BUFFER_SIZE");
  EXPECT_STREQ(e.what(), "OpenCL: clCreateBuffer failed: CL_INVALID_BUFFER_SIZE (-61): size 0");
}

TEST(Errors, CompileErrorShowsLogOptionsAndNumberedSource) {
  const CompileError e("3:5: error: oops", {"-O3", "-DX=1"}, "a\nb\nc = oops;\n", "dev0");
  const std::string what = e.what();
  EXPECT_NE(what.find("for dev0"), std::string::npos) << what;
  EXPECT_NE(what.find("options: -O3 -DX=1"), std::string::npos) << what;
  EXPECT_NE(what.find("3:5: error: oops"), std::string::npos) << what;
  EXPECT_NE(what.find("    3 | c = oops;"), std::string::npos) << what;
  EXPECT_EQ(e.log(), "3:5: error: oops");
  EXPECT_EQ(e.options().size(), 2u);
}

// A prelude spells what it cannot give a device as plinth_unsupported__<operation>; the
// message's first line names each such operation once, and the device.
TEST(Errors, CompileErrorNamesTheDialectOperationsTheDeviceLacks) {
  const CompileError e(
      "5:3: error: use of undeclared identifier 'plinth_unsupported__atomic_add_global_long'\n"
      "9:3: error: use of undeclared identifier 'plinth_unsupported__atomic_fence_device_release'"
      "\n12:1: error: use of undeclared identifier 'plinth_unsupported__atomic_add_global_long'",
      {}, "src", "pthread-cpu");
  const std::string what = e.what();
  const std::string first_line = what.substr(0, what.find('\n'));
  EXPECT_EQ(first_line,
            "compilation failed for pthread-cpu: the kernel uses atomic_add_global_long, "
            "atomic_fence_device_release, which pthread-cpu does not support (see "
            "Device::features() and docs/kernel-dialect.md)");
  // An ordinary error keeps the ordinary headline.
  const std::string plain = CompileError("1:1: error: x", {}, "src", "dev").what();
  EXPECT_EQ(plain.substr(0, plain.find('\n')), "compilation failed for dev");
}

TEST(Errors, NumberLines) {
  EXPECT_EQ(number_lines("x\ny"), "    1 | x\n    2 | y\n");
  EXPECT_EQ(number_lines(""), "");
}

}  // namespace
}  // namespace errors_test
}  // namespace plinth
