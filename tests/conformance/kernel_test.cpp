// Kernels: 1 to 3 dimensions, explicit and automatic local sizes, scalars, local memory,
// argument checking.

#include "fixture.hpp"

#include <array>
#include <cstdint>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

namespace plinth::conformance {
namespace kernel_test {
namespace {

using KernelTest = DeviceTest;

const char* const index_source = R"(
KERNEL void index1(GLOBAL_MEM int *out)
{
    const int i = get_global_id(0);
    out[i] = i * 3 + (int)get_local_size(0) * 0;
}

KERNEL void index2(GLOBAL_MEM int *out, int width)
{
    const int x = get_global_id(0), y = get_global_id(1);
    out[y * width + x] = y * 1000 + x;
}

KERNEL void index3(GLOBAL_MEM int *out, int nx, int ny)
{
    const int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
    out[(z * ny + y) * nx + x] = z * 1000000 + y * 1000 + x;
}

KERNEL void groups(GLOBAL_MEM int *out)
{
    const int i = get_global_id(0);
    out[i] = get_group_id(0) * 10000 + get_local_id(0) + 0 * get_num_groups(0) + 0 * get_global_size(0);
}

KERNEL void scalars(GLOBAL_MEM double *out, char c, short s, int i, long l, float f, double d)
{
    out[0] = c; out[1] = s; out[2] = i; out[3] = (double)l; out[4] = f; out[5] = d;
}

KERNEL void scalars_single(GLOBAL_MEM float *out, char c, short s, int i, long l, float f)
{
    out[0] = c; out[1] = s; out[2] = i; out[3] = (float)l; out[4] = f;
}

KERNEL void reverse_in_groups(GLOBAL_MEM int *data)
{
    LOCAL_MEM int scratch[64];
    const int l = get_local_id(0);
    const int g = get_global_id(0);
    scratch[l] = data[g];
    LOCAL_BARRIER;
    data[g] = scratch[get_local_size(0) - 1 - l];
}

KERNEL void fill(GLOBAL_MEM int *out, int value)
{
    out[get_global_id(0)] = value;
}
)";

class KernelTestWithProgram : public KernelTest {
 protected:
  void SetUp() override {
    KernelTest::SetUp();
    program_.emplace(context(), index_source);
  }
  const Program& program() const { return *program_; }

  std::vector<int> read_ints(const Buffer& buffer) const {
    std::vector<int> out(buffer.size() / sizeof(int));
    buffer.get(queue(), std::as_writable_bytes(std::span(out)));
    return out;
  }

 private:
  std::optional<Program> program_;
};

TEST_P(KernelTestWithProgram, OneDimensionExplicitAndAutomatic) {
  const std::size_t n = 1000;
  auto out = Buffer::allocate(device(), n * sizeof(int));
  for (const auto& local : {std::vector<std::size_t>{8}, std::vector<std::size_t>{}}) {
    out.set(queue(), std::vector<std::byte>(out.size()), true);
    program().kernel("index1")(queue(), {n}, local, out);
    const auto values = read_ints(out);
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(values[i], static_cast<int>(i * 3)) << i;
  }
}

TEST_P(KernelTestWithProgram, TwoDimensions) {
  const std::size_t w = 48, h = 20;
  auto out = Buffer::allocate(device(), w * h * sizeof(int));
  for (const auto& local : {std::vector<std::size_t>{8, 2}, std::vector<std::size_t>{}}) {
    out.set(queue(), std::vector<std::byte>(out.size()), true);
    program().kernel("index2")(queue(), {w, h}, local, out, static_cast<int>(w));
    const auto values = read_ints(out);
    for (std::size_t y = 0; y < h; ++y) {
      for (std::size_t x = 0; x < w; ++x)
        ASSERT_EQ(values[y * w + x], static_cast<int>(y * 1000 + x));
    }
  }
}

TEST_P(KernelTestWithProgram, ThreeDimensions) {
  const std::size_t nx = 16, ny = 6, nz = 5;
  auto out = Buffer::allocate(device(), nx * ny * nz * sizeof(int));
  for (const auto& local : {std::vector<std::size_t>{4, 2, 1}, std::vector<std::size_t>{}}) {
    out.set(queue(), std::vector<std::byte>(out.size()), true);
    program().kernel("index3")(queue(), {nx, ny, nz}, local, out, static_cast<int>(nx),
                               static_cast<int>(ny));
    const auto values = read_ints(out);
    for (std::size_t z = 0; z < nz; ++z) {
      for (std::size_t y = 0; y < ny; ++y) {
        for (std::size_t x = 0; x < nx; ++x) {
          ASSERT_EQ(values[(z * ny + y) * nx + x], static_cast<int>(z * 1000000 + y * 1000 + x));
        }
      }
    }
  }
}

TEST_P(KernelTestWithProgram, LocalSizeIsHonouredAndChosen) {
  const std::size_t n = 96;
  auto out = Buffer::allocate(device(), n * sizeof(int));
  auto prepared = program().kernel("groups").prepare({n}, {16});
  EXPECT_EQ(prepared.local_size(device()), std::vector<std::size_t>{16});
  prepared(queue(), out);
  auto values = read_ints(out);
  for (std::size_t i = 0; i < n; ++i)
    ASSERT_EQ(values[i], static_cast<int>((i / 16) * 10000 + i % 16));

  auto automatic = program().kernel("groups").prepare({n});
  const std::size_t chosen = automatic.local_size(device())[0];
  EXPECT_EQ(n % chosen, 0u);
  EXPECT_LE(chosen, device().params().max_total_local_size);
  automatic(queue(), out);
  values = read_ints(out);
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(values[i], static_cast<int>((i / chosen) * 10000 + i % chosen));
  }
}

TEST_P(KernelTestWithProgram, ScalarsArriveIntact) {
  const signed char c = -5;
  const std::int16_t s = -1234;
  const std::int32_t i = 123456789;
  const std::int64_t l = 1LL << 40;
  const float f = 1.5f;
  if (device().params().supports_double) {
    auto out = Buffer::allocate(device(), 6 * sizeof(double));
    const double d = 0.1;
    program().kernel("scalars")(queue(), {1}, {1}, out, c, s, i, l, f, d);
    std::vector<double> back(6);
    out.get(queue(), std::as_writable_bytes(std::span(back)));
    EXPECT_EQ(back, (std::vector<double>{-5, -1234, 123456789, static_cast<double>(l), 1.5, 0.1}));
  }
  auto out = Buffer::allocate(device(), 5 * sizeof(float));
  program().kernel("scalars_single")(queue(), {1}, {1}, out, c, s, i, l, f);
  std::vector<float> back(5);
  out.get(queue(), std::as_writable_bytes(std::span(back)));
  EXPECT_EQ(back, (std::vector<float>{-5, -1234, 123456789.f, static_cast<float>(l), 1.5f}));
}

TEST_P(KernelTestWithProgram, LocalMemoryAndBarrier) {
  const std::size_t n = 256, local = 64;
  if (device().params().max_total_local_size < local)
    GTEST_SKIP() << "needs 64 work items per group";
  std::vector<int> data(n);
  std::iota(data.begin(), data.end(), 0);
  auto buffer = Buffer::allocate(device(), n * sizeof(int));
  buffer.set(queue(), std::as_bytes(std::span(data)), true);
  program().kernel("reverse_in_groups")(queue(), {n}, {local}, buffer);
  const auto values = read_ints(buffer);
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(values[i], static_cast<int>((i / local) * local + (local - 1 - i % local))) << i;
  }
}

TEST_P(KernelTestWithProgram, PreparedKernelRunsRepeatedly) {
  auto out = Buffer::allocate(device(), 64 * sizeof(int));
  auto fill = program().kernel("fill").prepare({64});
  for (int value = 0; value < 20; ++value) fill(queue(), out, value);
  const auto values = read_ints(out);
  for (const int v : values) EXPECT_EQ(v, 19);
}

TEST_P(KernelTestWithProgram, KernelCallRemembersRepeatedAndChangingShapes) {
  // One Kernel called with the same shape again and again, with changing shapes, and with
  // more distinct shapes than it remembers (then the early ones again): every call runs
  // its own shape.
  const std::size_t max_n = 256;
  auto out = Buffer::allocate(device(), max_n * sizeof(int));
  const auto kernel = program().kernel("index1");
  const auto check = [&](std::size_t n, const std::vector<std::size_t>& local) {
    out.set(queue(), std::vector<std::byte>(out.size(), std::byte{0xff}), true);
    kernel(queue(), std::vector<std::size_t>{n}, local, out);
    const auto values = read_ints(out);
    for (std::size_t i = 0; i < max_n; ++i) {
      ASSERT_EQ(values[i], i < n ? static_cast<int>(i * 3) : -1)
          << "n " << n << ", local " << (local.empty() ? 0 : local[0]) << ", i " << i;
    }
  };
  for (int repeat = 0; repeat < 3; ++repeat) check(64, {});
  for (int repeat = 0; repeat < 3; ++repeat) check(64, {8});
  check(32, {});
  check(64, {});
  // 24 distinct shapes, more than the few remembered, then the first ones again.
  for (std::size_t n = 8; n <= 8 * 24 && n <= max_n; n += 8) check(n, {});
  for (std::size_t n = 8; n <= 8 * 24 && n <= max_n; n += 8) check(n, {4});
  check(8, {});
  check(64, {8});
  // The braced form reads its sizes in place.
  out.set(queue(), std::vector<std::byte>(out.size()), true);
  for (int repeat = 0; repeat < 3; ++repeat) kernel(queue(), {16}, {}, out);
  const auto values = read_ints(out);
  for (std::size_t i = 0; i < max_n; ++i) ASSERT_EQ(values[i], i < 16 ? int(i * 3) : 0) << i;
}

TEST_P(KernelTestWithProgram, KernelCallLeavesPreparedKernelsAndCopiesAlone) {
  auto out = Buffer::allocate(device(), 64 * sizeof(int));
  const auto kernel = program().kernel("fill");
  const auto prepared = kernel.prepare({32}, {8});
  kernel(queue(), {64}, {}, out, 1);
  const auto copy = kernel;  // shares the remembered shapes
  copy(queue(), {16}, {}, out, 2);
  kernel(queue(), {8}, {4}, out, 3);
  EXPECT_EQ(prepared.global_size(device()), std::vector<std::size_t>{32});
  EXPECT_EQ(prepared.local_size(device()), std::vector<std::size_t>{8});
  auto values = read_ints(out);
  for (std::size_t i = 0; i < 64; ++i) ASSERT_EQ(values[i], i < 8 ? 3 : i < 16 ? 2 : 1) << i;
  prepared(queue(), out, 4);
  values = read_ints(out);
  for (std::size_t i = 0; i < 64; ++i) ASSERT_EQ(values[i], i < 32 ? 4 : 1) << i;
  // A refused shape is not remembered: it throws every time, and good shapes still run.
  for (int repeat = 0; repeat < 2; ++repeat) {
    EXPECT_THROW(kernel(queue(), {64}, {7}, out, 5), LogicError);
    EXPECT_THROW(kernel(queue(), {1, 2, 3, 4}, {}, out, 5), LogicError);
    EXPECT_THROW(kernel(queue(), {64}, {}, out), LogicError);  // a missing argument
  }
  copy(queue(), {64}, {}, out, 6);
  values = read_ints(out);
  for (const int v : values) ASSERT_EQ(v, 6);
}

TEST_P(KernelTestWithProgram, CopiesOfAKernelMayBeCalledFromSeveralThreads) {
  // Copies share the remembered shapes; a call that finds them in use on another thread
  // prepares its own. Each thread has its own queue and buffer.
  const auto kernel = program().kernel("fill");
  constexpr int threads = 2, calls = 200;
  std::vector<std::thread> workers;
  std::vector<std::string> failures(threads);
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&, t, copy = kernel] {
      try {
        const Queue own(device());
        auto out = Buffer::allocate(device(), 64 * sizeof(int));
        for (int call = 0; call < calls; ++call) {
          const std::size_t n = call % 2 == 0 ? 64 : 32;
          copy(own, {n}, {}, out, t * 1000 + call);
        }
        std::vector<int> values(64);
        out.get(own, std::as_writable_bytes(std::span(values)));
        for (std::size_t i = 0; i < 64; ++i) {
          const int expected = t * 1000 + (i < 32 ? calls - 1 : calls - 2);
          if (values[i] != expected) {
            failures[t] = "element " + std::to_string(i) + ": " + std::to_string(values[i]);
            break;
          }
        }
      } catch (const std::exception& e) {
        failures[t] = e.what();
      }
    });
  }
  for (auto& worker : workers) worker.join();
  for (int t = 0; t < threads; ++t) EXPECT_EQ(failures[t], "") << "thread " << t;
}

// Before: PoCL before 7.0 gave back a finished launch's cached work-group function by kernel
// and local size alone; one kernel launched with ever wider grids on four queues at once made
// it give back another launch's entry, and the process aborted in PoCL ("Assertion
// `found->ref_count > 0' failed"; CI saw it in the four-device run). The OpenCL backend now
// launches one at a time on such devices (backends/opencl/launch_order.hpp).
TEST_P(KernelTestWithProgram, OneKernelOnFourQueuesWithWideningGrids) {
  const Program program(context(), R"(
KERNEL void busy(GLOBAL_MEM unsigned int *out, int rounds)
{
    const unsigned int i = get_global_id(0);
    unsigned int s = i;
    for (int j = 0; j < rounds; ++j) s = s * 1664525u + 1013904223u;
    out[i] = s;
}
)");
  constexpr std::size_t queues = 4, launches = 24, local = 64;
  constexpr int rounds = 4000;
  const std::size_t widest = local * queues * launches;
  std::vector<Queue> own;
  std::vector<Buffer> out;
  for (std::size_t q = 0; q < queues; ++q) {
    own.emplace_back(device());
    out.push_back(Buffer::allocate(device(), widest * sizeof(std::uint32_t)));
  }
  const auto busy = program.kernel("busy");
  // Every launch's grid is wider than any before it, so each one takes a cache entry of its own.
  for (std::size_t launch = 0; launch < launches; ++launch) {
    for (std::size_t q = 0; q < queues; ++q)
      busy(own[q], {local * (launch * queues + q + 1)}, {local}, out[q], rounds);
  }
  for (std::size_t q = 0; q < queues; ++q) {
    std::vector<std::uint32_t> values(widest);
    out[q].get(own[q], std::as_writable_bytes(std::span(values)));
    const std::size_t written = local * ((launches - 1) * queues + q + 1);
    for (std::size_t i = 0; i < written; ++i) {
      std::uint32_t s = static_cast<std::uint32_t>(i);
      for (int j = 0; j < rounds; ++j) s = s * 1664525u + 1013904223u;
      ASSERT_EQ(values[i], s) << "queue " << q << ", element " << i;
    }
  }
}

TEST_P(KernelTestWithProgram, AlignedSubRegionIsAKernelArgument) {
  const std::size_t align = device().params().address_alignment;
  const std::size_t n = 32;
  auto buffer = Buffer::allocate(device(), align + n * sizeof(int));
  buffer.set(queue(), std::vector<std::byte>(buffer.size()), true);
  auto region = buffer.get_sub_region(align, n * sizeof(int));
  program().kernel("fill")(queue(), {n}, {}, region, 42);
  const auto values = read_ints(region);
  for (const int v : values) EXPECT_EQ(v, 42);
  std::vector<std::byte> head(align);
  buffer.get_sub_region(0, align).get(queue(), head);
  for (const auto b : head) ASSERT_EQ(b, std::byte{0});
}

TEST_P(KernelTestWithProgram, UnalignedSubRegionWorksOrIsExplained) {
  const std::size_t align = device().params().address_alignment;
  if (align <= sizeof(int)) GTEST_SKIP() << "every int offset is aligned on this device";
  auto buffer = Buffer::allocate(device(), 64 * sizeof(int));
  auto region = buffer.get_sub_region(sizeof(int), 32 * sizeof(int));
  try {
    program().kernel("fill")(queue(), {32}, {}, region, 7);
    for (const int v : read_ints(region)) EXPECT_EQ(v, 7);
  } catch (const LogicError& e) {
    // Named as every other argument error is (before: only the backend's text).
    EXPECT_NE(std::string(e.what()).find("kernel 'fill': argument 0"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("align"), std::string::npos) << e.what();
  }
}

TEST_P(KernelTestWithProgram, ScalarFromBytesArrivesAndIsSizeChecked) {
  // A binding's scalars: bytes whose type is known only at run time (KernelArg::from_bytes).
  auto out = Buffer::allocate(device(), 64 * sizeof(int));
  const std::int32_t value = -123456;
  const auto bytes = std::as_bytes(std::span(&value, 1));
  const std::array<KernelArg, 2> args{KernelArg(out), KernelArg::from_bytes(bytes)};
  program().kernel("fill").prepare({64}).launch(queue(), args);
  for (const int v : read_ints(out)) ASSERT_EQ(v, value);
  // The Kernel call takes them too.
  const std::int32_t other = 77;
  const std::array<KernelArg, 2> other_args{
      KernelArg(out), KernelArg::from_bytes(std::as_bytes(std::span(&other, 1)))};
  const std::array<std::size_t, 1> global{64};
  program().kernel("fill").launch(queue(), global, {}, other_args);
  for (const int v : read_ints(out)) ASSERT_EQ(v, other);
  // A wrong size is refused as a typed scalar's is, naming the argument.
  const std::int64_t wide = 1;
  const std::array<KernelArg, 2> wrong{KernelArg(out),
                                       KernelArg::from_bytes(std::as_bytes(std::span(&wide, 1)))};
  try {
    program().kernel("fill").prepare({64}).launch(queue(), wrong);
    ADD_FAILURE() << "an 8-byte scalar for an int parameter was accepted";
  } catch (const LogicError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("argument 1"), std::string::npos) << what;
    EXPECT_NE(what.find("fill"), std::string::npos) << what;
  }
  const std::array<KernelArg, 2> empty{KernelArg(out), KernelArg::from_bytes({})};
  EXPECT_THROW(program().kernel("fill").prepare({64}).launch(queue(), empty), LogicError);
}

TEST_P(KernelTestWithProgram, WrongArgumentsAreRejected) {
  auto out = Buffer::allocate(device(), 64 * sizeof(int));
  auto fill = program().kernel("fill").prepare({64});
  const auto expect_error = [](auto&& call, const std::string& needle) {
    try {
      call();
      ADD_FAILURE() << "accepted; expected an error mentioning '" << needle << "'";
    } catch (const LogicError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("fill"), std::string::npos) << what;
      EXPECT_NE(what.find(needle), std::string::npos) << what;
    }
  };
  expect_error([&] { fill(queue(), out); }, "2 argument(s), 1 given");
  expect_error([&] { fill(queue(), out, 1, 2); }, "3 given");
  expect_error([&] { fill(queue(), out, std::int64_t{1}); }, "argument 1");
  expect_error([&] { fill(queue(), out, 1.0); }, "argument 1");
  expect_error([&] { fill(queue(), out, out); }, "argument 1");
  expect_error([&] { fill(queue(), 1, 1); }, "argument 0");
  // Bad launch shapes.
  EXPECT_THROW(program().kernel("fill").prepare({64}, {7}), LogicError);
  EXPECT_THROW(program().kernel("fill").prepare({}), LogicError);
  EXPECT_THROW(program().kernel("fill").prepare({1, 1, 1, 1}), LogicError);
  EXPECT_THROW(program().kernel("fill").prepare({64}, {1, 1}), LogicError);
  EXPECT_THROW(program().kernel("fill").prepare({0}), LogicError);
  EXPECT_THROW(program().kernel("fill").prepare({1u << 20}, {1u << 20}), LogicError);
  // Still usable.
  fill(queue(), out, 5);
  for (const int v : read_ints(out)) EXPECT_EQ(v, 5);
}

TEST_P(KernelTestWithProgram, BufferOfAnotherContextIsRejected) {
  auto other_context = Context::from_devices({GetParam()});
  auto foreign = Buffer::allocate(other_context.devices()[0], 64 * sizeof(int));
  auto fill = program().kernel("fill").prepare({64});
  EXPECT_THROW(fill(queue(), foreign, 1), LogicError);
  Queue foreign_queue(other_context.devices()[0]);
  auto out = Buffer::allocate(device(), 64 * sizeof(int));
  EXPECT_NE(logic_error_message([&] {
              fill(foreign_queue, out, 1);
            }).find("the queue (or device) belongs to another context than the program"),
            std::string::npos);
}

// Dynamic local memory (LaunchShape::local_mem): how a kernel receives it differs by API
// (OpenCL: a trailing LOCAL_MEM_DYNAMIC parameter the backend binds; CUDA and HIP: an extern
// __shared__ array), which the backend's kernel adapter declares to the core.
const char* const dynamic_local_source = R"(
#if defined(PLINTH_CUDA_API) || defined(PLINTH_HIP_API)
#define SCRATCH_IS_EXTERN
#endif
#ifdef SCRATCH_IS_EXTERN
#define DYNAMIC_SCRATCH
#else
#define DYNAMIC_SCRATCH , LOCAL_MEM_DYNAMIC int *scratch
#endif
KERNEL void reverse_dynamic(GLOBAL_MEM int *data DYNAMIC_SCRATCH)
{
#ifdef SCRATCH_IS_EXTERN
    LOCAL_MEM_DYNAMIC int scratch[];
#endif
    const int l = get_local_id(0);
    const int g = get_global_id(0);
    scratch[l] = data[g];
    LOCAL_BARRIER;
    data[g] = scratch[get_local_size(0) - 1 - l];
}

KERNEL void no_scratch(GLOBAL_MEM int *data)
{
    data[get_global_id(0)] = 1;
}
)";

TEST_P(KernelTestWithProgram, DynamicLocalMemoryIsBoundAsTheBackendDeclares) {
  const Program program(context(), dynamic_local_source);
  std::vector<int> values(128);
  std::iota(values.begin(), values.end(), 0);
  auto data = Buffer::allocate(device(), values.size() * sizeof(int));
  data.set(queue(), std::as_bytes(std::span(values)));
  for (const std::size_t group : {std::size_t{16}, std::size_t{32}}) {
    // The argument count is the kernel's own parameters, whatever the API.
    program.kernel("reverse_dynamic")
        .prepare({values.size()}, {group}, group * sizeof(int))(queue(), data);
    std::vector<int> out(values.size());
    data.get(queue(), std::as_writable_bytes(std::span(out)));
    for (std::size_t i = 0; i < out.size(); ++i) {
      const std::size_t start = i / group * group;
      ASSERT_EQ(out[i], values[start + group - 1 - (i - start)]) << "group " << group << ", " << i;
    }
    values = out;
  }
  // A kernel with no LOCAL_MEM_DYNAMIC parameter given local memory: refused at prepare
  // where the backend binds a trailing parameter and can tell; CUDA takes it as a launch
  // parameter that the kernel ignores.
  const auto message = logic_error_message(
      [&] { program.kernel("no_scratch").prepare({64}, {16}, 64)(queue(), data); });
  if (message != "(no LogicError)") {
    EXPECT_NE(message.find("LOCAL_MEM_DYNAMIC"), std::string::npos) << message;
  }
}

PLINTH_INSTANTIATE_DEVICE_TEST(KernelTestWithProgram);

}  // namespace
}  // namespace kernel_test
}  // namespace plinth::conformance
