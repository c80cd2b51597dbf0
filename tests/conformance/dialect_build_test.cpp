// The kernel dialect's prelude builds: every function of docs/kernel-dialect.md for every type
// and space compiles and runs once, where the device's features say it should; where they do
// not, the build fails naming the operation; and the OpenCL prelude's choices agree with
// Device::features(). What the functions compute is dialect_*_test.cpp's business.

#include "dialect_every_function.hpp"
#include "fixture.hpp"

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace plinth::conformance {
namespace dialect_build_test {
namespace {

using DialectBuildTest = DeviceTest;

bool uses_opencl_prelude(const BoundDevice& device) {
  const auto& api = device.device().api().shortcut();
  return api == "opencl" || api == "level_zero";
}

TEST_P(DialectBuildTest, EveryFunctionBuildsAndRunsOnce) {
  const auto& features = device().features();
  if (!features.atomics) GTEST_SKIP() << "the backend's prelude has no atomics (SDK 1.4 or older)";
  if (!device().params().supports_double || !features.int64_atomics || !features.double_atomics)
    GTEST_SKIP() << "the kernel uses double and 64-bit atomics, which the device lacks";
  if (!features.device_scope_acquire_release) {
    // The kernel has device-scope acquire and release: a CompileError that names them.
    try {
      Program program(context(), testing::every_dialect_function_source);
      FAIL() << "built without device_scope_acquire_release";
    } catch (const CompileError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("atomic_fence_device_release"), std::string::npos) << what;
      EXPECT_NE(what.find("atomic_load_global_int_acquire"), std::string::npos) << what;
    }
    return;
  }
  Program program(context(), testing::every_dialect_function_source);
  constexpr std::size_t items = 128;
  auto count = Buffer::allocate(device(), sizeof(int));
  const std::vector<std::byte> zeros(8 * sizeof(double));
  count.set(queue(), std::span(zeros).first(sizeof(int)));
  std::vector<Buffer> buffers;
  for (const std::size_t bytes :
       {sizeof(int), sizeof(unsigned), sizeof(std::int64_t), sizeof(std::uint64_t), sizeof(float),
        sizeof(double), std::size_t{1}, std::size_t{1}, std::size_t{2}, std::size_t{2}}) {
    buffers.push_back(Buffer::allocate(device(), 8 * bytes));
    buffers.back().set(queue(), std::span(zeros).first(8 * bytes));
  }
  const std::size_t local = std::min<std::size_t>(64, device().params().max_total_local_size);
  program.kernel("every_function")(queue(), {items}, {local}, count, buffers[0], buffers[1],
                                   buffers[2], buffers[3], buffers[4], buffers[5], buffers[6],
                                   buffers[7], buffers[8], buffers[9]);
  int counted = 0;
  count.get(queue(), std::as_writable_bytes(std::span(&counted, 1)));
  EXPECT_EQ(counted, static_cast<int>(items));
}

// The OpenCL prelude decides per device with the preprocessor; the backend answers features()
// from the device's queries. A kernel reports what the preprocessor chose.
const char* const choices_source = R"(
KERNEL void choices(GLOBAL_MEM int *out) {
#if defined(PLINTH_CL_INT64_ATOMICS)
  out[0] = 1;
#endif
#if defined(PLINTH_CL_DOUBLE_ATOMICS)
  out[1] = 1;
#endif
#if defined(PLINTH_CL_ORDERED_ATOMICS)
  out[2] = 1;
#endif
#if defined(PLINTH_CL_SUB_GROUPS)
  out[3] = 1;
#endif
  out[4] = (int)get_max_sub_group_size();
}
)";

TEST_P(DialectBuildTest, OpenClPreludeChoosesWhatFeaturesSay) {
  if (!uses_opencl_prelude(device())) GTEST_SKIP() << "not an OpenCL C prelude";
  const auto& features = device().features();
  ASSERT_TRUE(features.atomics);
  Program program(context(), choices_source);
  auto out = Buffer::allocate(device(), 5 * sizeof(int));
  const std::vector<int> zeros(5, 0);
  out.set(queue(), std::as_bytes(std::span(zeros)));
  program.kernel("choices")(queue(), {1}, {1}, out);
  std::vector<int> chosen(5, -1);
  out.get(queue(), std::as_writable_bytes(std::span(chosen)));
  EXPECT_EQ(chosen[0] == 1, features.int64_atomics);
  EXPECT_EQ(chosen[1] == 1, features.double_atomics);
  EXPECT_EQ(chosen[2] == 1, features.device_scope_acquire_release);
  EXPECT_EQ(chosen[3] == 1, features.native_sub_groups);
  if (!features.native_sub_groups) {
    EXPECT_EQ(chosen[4], 1);
    EXPECT_EQ(features.sub_group_sizes, std::vector<std::size_t>{1});
  }
}

// What decides the dialect's build is in the compiler identity, so that a program cache never
// hands a device a binary built for other choices: the OpenCL C version on OpenCL, the 64-bit
// atomics' macros on Level Zero.
TEST_P(DialectBuildTest, CompilerIdentityNamesWhatDecidesTheBuild) {
  const auto& identity = device().device().compiler_identity();
  const auto& features = device().features();
  const auto& api = device().device().api().shortcut();
  if (identity.empty()) GTEST_SKIP() << "binaries of this device are not reused";
  if (api == "opencl") {
    const bool named = identity.find("; OpenCL C 3.0") != std::string::npos ||
                       identity.find("; OpenCL C 2.0") != std::string::npos;
    EXPECT_EQ(named, features.device_scope_acquire_release) << identity;
  } else if (api == "level_zero") {
    EXPECT_EQ(identity.find("; no 64-bit atomics") == std::string::npos, features.int64_atomics)
        << identity;
  } else {
    GTEST_SKIP() << "not an OpenCL C prelude";
  }
}

// OpenCL C 1.2 has no device-scope release: the fence names itself in the CompileError, with
// the device, rather than building into something weaker.
TEST_P(DialectBuildTest, DeviceScopeReleaseFenceWithoutItFailsNamingIt) {
  if (device().device().api().shortcut() != "opencl")
    GTEST_SKIP() << "forces OpenCL C 1.2 with -cl-std=CL1.2 on OpenCL";
  ProgramOptions options;
  options.compiler_options = {"-cl-std=CL1.2"};
  const char* const source = R"(
KERNEL void publish(GLOBAL_MEM int *data, GLOBAL_MEM int *flag) {
  data[0] = 1;
  atomic_fence(MEM_ORDER_RELEASE, MEM_SCOPE_DEVICE);
  atomic_store_global_int(flag, 1, MEM_ORDER_RELAXED);
}
)";
  try {
    Program program(context(), source, options);
    FAIL() << "a device-scope release fence built as OpenCL C 1.2";
  } catch (const CompileError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("the kernel uses atomic_fence_device_release, which"), std::string::npos)
        << what;
    EXPECT_NE(what.find(device().device().name()), std::string::npos) << what;
  }
  // Work-group scope and relaxed operations are there in OpenCL C 1.2.
  const char* const work_group = R"(
KERNEL void publish(GLOBAL_MEM int *data, GLOBAL_MEM int *flag) {
  data[0] = 1;
  atomic_fence(MEM_ORDER_RELEASE, MEM_SCOPE_WORK_GROUP);
  atomic_store_global_int(flag, 1, MEM_ORDER_RELAXED);
}
)";
  EXPECT_NO_THROW(Program(context(), work_group, options));
}

// The OpenCL prelude's two forms of atomics (OpenCL C 1.2's, which NVIDIA's OpenCL takes, and
// 2.0/3.0's) compute the same under contention: every work-item on one address, on global and
// local memory, for the compare-and-swap loops of float and double and the 64-bit atomics.
const char* const contention_source = R"(
KERNEL void contend(GLOBAL_MEM float *f, GLOBAL_MEM double *d, GLOBAL_MEM long *l,
                    GLOBAL_MEM unsigned long *u, GLOBAL_MEM int *i) {
  LOCAL_MEM_DECL float lf[1];
  LOCAL_MEM_DECL double ld[1];
  const int gid = (int)get_global_id(0);
  if (get_local_id(0) == 0) {
    lf[0] = 0.0f;
    ld[0] = 0.0;
  }
  LOCAL_BARRIER;
  atomic_add_global_float(f, 1.0f);
  atomic_sub_global_float(f + 1, 0.5f);
  atomic_min_global_float(f + 2, (float)gid);
  atomic_max_global_float(f + 3, (float)gid);
  atomic_xchg_global_float(f + 4, (float)gid);
  atomic_add_global_double(d, 0.25);
  atomic_min_global_double(d + 1, -(double)gid);
  atomic_max_global_double(d + 2, (double)gid);
  atomic_add_global_long(l, (long)1 << 33);
  atomic_min_global_long(l + 1, -(long)gid);
  atomic_max_global_ulong(u, (unsigned long)gid << 40);
  atomic_or_global_ulong(u + 1, (unsigned long)1 << (gid % 64));
  atomic_cmpxchg_global_int(i, 0, gid + 1);
  atomic_add_global_int(i + 1, atomic_load_global_int(i + 2, MEM_ORDER_RELAXED) + 1);
  atomic_add_local_float(lf, 1.0f);
  atomic_add_local_double(ld, 2.0);
  LOCAL_BARRIER;
  if (get_local_id(0) == 0) {
    atomic_add_global_float(f + 5, lf[0]);
    atomic_add_global_double(d + 3, ld[0]);
  }
}
)";

TEST_P(DialectBuildTest, OpenClAtomicsOfBothLanguagesAgreeUnderContention) {
  if (device().device().api().shortcut() != "opencl")
    GTEST_SKIP() << "builds as OpenCL C 1.2 with -cl-std=CL1.2 on OpenCL";
  const auto& features = device().features();
  if (!features.int64_atomics || !features.double_atomics)
    GTEST_SKIP() << "the kernel uses 64-bit and double atomics";
  constexpr std::size_t n = 256;
  const std::size_t local = std::min<std::size_t>(64, device().params().max_total_local_size);
  for (const bool opencl_c_12 : {false, true}) {
    SCOPED_TRACE(opencl_c_12 ? "-cl-std=CL1.2" : "the backend's choice");
    ProgramOptions options;
    if (opencl_c_12) options.compiler_options = {"-cl-std=CL1.2"};
    Program program(context(), contention_source, options);
    std::vector<float> f{0.0f, 0.0f, 1e9f, -1.0f, -1.0f, 0.0f};
    std::vector<double> d{0.0, 0.0, -1.0, 0.0};
    std::vector<std::int64_t> l{0, 0};
    std::vector<std::uint64_t> u{0, 0};
    std::vector<int> i{0, 0, 0};
    const auto upload = [&](auto& values) {
      auto buffer = Buffer::allocate(device(), values.size() * sizeof(values[0]));
      buffer.set(queue(), std::as_bytes(std::span(values)));
      return buffer;
    };
    auto fb = upload(f), db = upload(d), lb = upload(l), ub = upload(u), ib = upload(i);
    program.kernel("contend")(queue(), {n}, {local}, fb, db, lb, ub, ib);
    fb.get(queue(), std::as_writable_bytes(std::span(f)));
    db.get(queue(), std::as_writable_bytes(std::span(d)));
    lb.get(queue(), std::as_writable_bytes(std::span(l)));
    ub.get(queue(), std::as_writable_bytes(std::span(u)));
    ib.get(queue(), std::as_writable_bytes(std::span(i)));
    EXPECT_EQ(f[0], float(n));
    EXPECT_EQ(f[1], -0.5f * float(n));
    EXPECT_EQ(f[2], 0.0f);
    EXPECT_EQ(f[3], float(n - 1));
    EXPECT_GE(f[4], 0.0f);
    EXPECT_LT(f[4], float(n));
    EXPECT_EQ(f[5], float(n));
    EXPECT_EQ(d[0], 0.25 * double(n));
    EXPECT_EQ(d[1], -double(n - 1));
    EXPECT_EQ(d[2], double(n - 1));
    EXPECT_EQ(d[3], 2.0 * double(n));
    EXPECT_EQ(l[0], std::int64_t(n) << 33);
    EXPECT_EQ(l[1], -std::int64_t(n - 1));
    EXPECT_EQ(u[0], std::uint64_t(n - 1) << 40);
    EXPECT_EQ(u[1], ~std::uint64_t{0});
    EXPECT_GE(i[0], 1);
    EXPECT_LE(i[0], int(n));
    EXPECT_EQ(i[1], int(n));
  }
}

// ORDER and SCOPE must be written literally, and be orders the operation takes.
TEST_P(DialectBuildTest, OrdersAreCheckedAtCompileTime) {
  if (!uses_opencl_prelude(device())) GTEST_SKIP() << "not an OpenCL C prelude";
  const char* const wrong_order = R"(
KERNEL void k(GLOBAL_MEM int *p) { atomic_store_global_int(p, 1, MEM_ORDER_ACQUIRE); }
)";
  EXPECT_THROW(Program(context(), wrong_order), CompileError);
  const char* const variable_order = R"(
KERNEL void k(GLOBAL_MEM int *p, int order) { atomic_fence(order, MEM_SCOPE_WORK_GROUP); }
)";
  EXPECT_THROW(Program(context(), variable_order), CompileError);
}

PLINTH_INSTANTIATE_DEVICE_TEST(DialectBuildTest);

}  // namespace
}  // namespace dialect_build_test
}  // namespace plinth::conformance
