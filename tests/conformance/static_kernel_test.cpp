// Static kernels: virtual sizes of any rank mapped onto each device's real grid, checked by
// kernels that write every virtual id they see; several devices; misuse.

#include "fixture.hpp"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <numeric>

namespace plinth::conformance {
namespace static_kernel_test {
namespace {

using StaticKernelTest = DeviceTest;
using MultiDeviceStaticKernelTest = MultiDeviceTest;

std::size_t product(const std::vector<std::size_t>& sizes) {
  return std::accumulate(sizes.begin(), sizes.end(), std::size_t{1}, std::multiplies<>());
}

std::vector<int> read_ints(const Queue& queue, const Buffer& buffer) {
  std::vector<int> out(buffer.size() / sizeof(int));
  buffer.get(queue, std::as_writable_bytes(std::span(out)));
  return out;
}

Buffer filled(const Queue& queue, std::size_t count, int value) {
  const std::vector<int> values(count, value);
  auto buffer = Buffer::allocate(queue.device(), count * sizeof(int));
  buffer.set(queue, std::as_bytes(std::span(values)), /*no_async=*/true);  // values is local
  return buffer;
}

// grunnur's outer product, in plinth's order: dimension 0 (x, over b) varies fastest.
const char* const outer_product_source = R"(
KERNEL void multiply(GLOBAL_MEM int *dest, GLOBAL_MEM int *a, GLOBAL_MEM int *b)
{
    if (${static.skip}()) return;
    const int x = ${static.global_id}(0);
    const int y = ${static.global_id}(1);
    const int idx = ${static.global_flat_id}();
    dest[idx] = a[y] * b[x];
}
)";

TEST_P(StaticKernelTest, OuterProduct) {
  const std::size_t rows = 11, cols = 15;
  std::vector<int> a(rows), b(cols);
  std::iota(a.begin(), a.end(), 1);
  std::iota(b.begin(), b.end(), 3);
  const auto a_dev = Array::from_host(queue(), HostArray::from_values(a));
  const auto b_dev = Array::from_host(queue(), HostArray::from_values(b));
  const auto dest = Array::empty(device(), {rows, cols}, DType::int32());

  StaticKernel multiply(context().devices(), outer_product_source, "multiply", {cols, rows});
  multiply(queue(), dest, a_dev, b_dev);
  const auto result = dest.get(queue());
  for (std::size_t y = 0; y < rows; ++y) {
    for (std::size_t x = 0; x < cols; ++x) {
      EXPECT_EQ(result.at<int>({y, x}), a[y] * b[x]) << "at " << y << ", " << x;
    }
  }
  EXPECT_EQ(multiply.devices().size(), 1u);
  EXPECT_NE(multiply.sources()[device()].find("multiply"), std::string::npos);
  EXPECT_EQ(multiply.virtual_sizes(device()).virtual_global_size(),
            (std::vector<std::size_t>{cols, rows}));
  const auto real_global = multiply.real_global_size(device());
  const auto real_local = multiply.real_local_size(device());
  ASSERT_EQ(real_global.size(), real_local.size());
  EXPECT_GE(product(real_global), rows * cols);
  for (std::size_t d = 0; d < real_global.size(); ++d) {
    EXPECT_EQ(real_global[d] % real_local[d], 0u);
  }
  // Argument checks are PreparedKernel's, naming the kernel.
  EXPECT_NE(logic_error_message([&] { multiply(queue(), dest, a_dev); }).find("multiply"),
            std::string::npos);
}

// Every virtual work item writes its ids and the sizes it sees.
const char* const ids_source = R"(
KERNEL void ids(GLOBAL_MEM int *local_ids, GLOBAL_MEM int *group_ids, GLOBAL_MEM int *global_ids,
                GLOBAL_MEM int *sizes)
{
    if (${static.skip}()) return;
    const VSIZE_T flat = ${static.global_flat_id}();
    for (unsigned int d = 0; d < ${dims}; ++d) {
        local_ids[flat * ${dims} + d] = (int)${static.local_id}(d);
        group_ids[flat * ${dims} + d] = (int)${static.group_id}(d);
        global_ids[flat * ${dims} + d] = (int)${static.global_id}(d);
    }
    if (flat == 0) {
        for (unsigned int d = 0; d < ${dims}; ++d) {
            sizes[d * 3 + 0] = (int)${static.local_size}(d);
            sizes[d * 3 + 1] = (int)${static.num_groups}(d);
            sizes[d * 3 + 2] = (int)${static.global_size}(d);
        }
        sizes[${dims} * 3] = (int)${static.global_flat_size}();
    }
}
)";

/// Runs ids_source over `global` (with `local`, or automatic) within `limits`, and checks
/// every virtual id against the reference tiling: local = i % ls, group = i / ls, global = i.
void check_tiling(const Context& context, const Queue& queue,
                  const std::vector<std::size_t>& global, const std::vector<std::size_t>& local,
                  const std::optional<VirtualSizeLimits>& limits) {
  const std::size_t dims = global.size();
  const std::size_t items = product(global);
  ProgramOptions options;
  options.render_globals = {{"dims", dims}};
  StaticKernel kernel(context.devices(), ids_source, "ids", global, local, options, limits);
  const auto& device = queue.device();
  const auto& sizes = kernel.virtual_sizes(device);
  const auto& ls = sizes.virtual_local_size();
  ASSERT_EQ(ls.size(), dims);
  if (!local.empty()) {
    EXPECT_EQ(ls, local);
  }
  if (limits) {  // the real sizes stay within the limits asked for
    const auto real_local = kernel.real_local_size(device);
    const auto real_global = kernel.real_global_size(device);
    EXPECT_LE(product(real_local), limits->max_total_local_size);
    for (std::size_t d = 0; d < real_local.size(); ++d) {
      EXPECT_LE(real_local[d], limits->max_local_sizes[d]) << "real dimension " << d;
      EXPECT_LE(real_global[d] / real_local[d], limits->max_num_groups[d])
          << "real dimension " << d;
    }
  }

  const auto local_ids = filled(queue, items * dims, -1);
  const auto group_ids = filled(queue, items * dims, -1);
  const auto global_ids = filled(queue, items * dims, -1);
  const auto size_values = filled(queue, dims * 3 + 1, -1);
  kernel(queue, local_ids, group_ids, global_ids, size_values);
  const auto local_out = read_ints(queue, local_ids);
  const auto group_out = read_ints(queue, group_ids);
  const auto global_out = read_ints(queue, global_ids);
  const auto size_out = read_ints(queue, size_values);

  std::size_t mismatches = 0;
  for (std::size_t flat = 0; flat < items && mismatches < 10; ++flat) {
    std::size_t rest = flat;
    for (std::size_t d = 0; d < dims; ++d) {
      const std::size_t i = rest % global[d];
      rest /= global[d];
      const auto at = flat * dims + d;
      if (local_out[at] != static_cast<int>(i % ls[d]) ||
          group_out[at] != static_cast<int>(i / ls[d]) || global_out[at] != static_cast<int>(i)) {
        ++mismatches;
        ADD_FAILURE() << "work item " << flat << ", virtual dimension " << d << ": local id "
                      << local_out[at] << ", group id " << group_out[at] << ", global id "
                      << global_out[at] << "; expected " << i % ls[d] << ", " << i / ls[d] << ", "
                      << i;
      }
    }
  }
  for (std::size_t d = 0; d < dims; ++d) {
    EXPECT_EQ(size_out[d * 3 + 0], static_cast<int>(ls[d])) << "local_size(" << d << ")";
    EXPECT_EQ(size_out[d * 3 + 1], static_cast<int>((global[d] + ls[d] - 1) / ls[d]))
        << "num_groups(" << d << ")";
    EXPECT_EQ(size_out[d * 3 + 2], static_cast<int>(global[d])) << "global_size(" << d << ")";
  }
  EXPECT_EQ(size_out[dims * 3], static_cast<int>(items)) << "global_flat_size()";
}

VirtualSizeLimits small_limits() {
  VirtualSizeLimits limits;
  limits.max_total_local_size = 64;
  limits.max_local_sizes = {8, 8, 1};
  limits.max_num_groups = {16, 16, 1};
  limits.local_size_multiple = 2;
  return limits;
}

// grunnur's tiling check (its (51, 201) with local (5, 10), in plinth's order).
TEST_P(StaticKernelTest, TilingWithExplicitLocalSize) {
  check_tiling(context(), queue(), {201, 51}, {10, 5}, small_limits());
}

TEST_P(StaticKernelTest, TilingWithAutomaticLocalSize) {
  check_tiling(context(), queue(), {201, 51}, {}, small_limits());
}

TEST_P(StaticKernelTest, MoreThanThreeDimensions) {
  check_tiling(context(), queue(), {3, 5, 7, 11, 13}, {}, std::nullopt);
  check_tiling(context(), queue(), {3, 5, 7, 11, 13}, {3, 1, 7, 1, 2}, std::nullopt);
}

TEST_P(StaticKernelTest, OneDimensionBeyondTheRealGrid) {
  // 1000 work items where one real dimension holds at most 4 groups of 4.
  VirtualSizeLimits limits;
  limits.max_total_local_size = 16;
  limits.max_local_sizes = {4, 4, 4};
  limits.max_num_groups = {4, 4, 4};
  check_tiling(context(), queue(), {1000}, {}, limits);
}

TEST_P(StaticKernelTest, DeviceLimitsStillApply) {
  // Limits above the device's are lowered to the device's.
  VirtualSizeLimits huge;
  huge.max_total_local_size = std::size_t{1} << 40;
  huge.max_local_sizes = {std::size_t{1} << 40, std::size_t{1} << 40, std::size_t{1} << 40};
  huge.max_num_groups = huge.max_local_sizes;
  ProgramOptions options;
  options.render_globals = {{"dims", 1}};
  StaticKernel kernel(context().devices(), ids_source, "ids", {100000}, {}, options, huge);
  const auto local = kernel.real_local_size(device());
  EXPECT_LE(product(local), device().params().max_total_local_size);
}

TEST_P(StaticKernelTest, Misuse) {
  ProgramOptions reserved;
  reserved.render_globals = {{"static", 1}};
  EXPECT_EQ(
      logic_error_message([&] {
        StaticKernel(context().devices(), outer_product_source, "multiply", {4, 4}, {}, reserved);
      }),
      "The global name 'static' is reserved in static kernels");
  ProgramOptions device_params;
  device_params.render_globals = {{"device_params", 1}};
  EXPECT_NE(logic_error_message([&] {
              StaticKernel(context().devices(), outer_product_source, "multiply", {4, 4}, {},
                           device_params);
            }).find("'device_params' is reserved"),
            std::string::npos);
  // Sizes of different ranks, and a local size above the maximum: VirtualSizeError.
  EXPECT_THROW(StaticKernel(context().devices(), outer_product_source, "multiply", {4, 4}, {2}),
               VirtualSizeError);
  VirtualSizeLimits limits = small_limits();
  try {
    StaticKernel(context().devices(), outer_product_source, "multiply", {100, 100}, {10, 10}, {},
                 limits);
    ADD_FAILURE() << "no VirtualSizeError";
  } catch (const VirtualSizeError& e) {
    EXPECT_NE(std::string(e.what()).find("Requested local size is greater than the maximum 64"),
              std::string::npos)
        << e.what();
  }
  // A kernel the program does not have.
  EXPECT_THROW(StaticKernel(context().devices(), outer_product_source, "divide", {4, 4}),
               LogicError);
  // A device it was not built for.
  auto other = Context::from_devices({context().devices()[0].device()});
  EXPECT_THROW(StaticKernel(context().devices(), outer_product_source, "multiply", {4, 4})
                   .virtual_sizes(other.devices()[0]),
               LogicError);
}

// grunnur's multi-device test: a (rows, 15) outer product over the devices, `a` split
// (EqualSplay), `b` cloned (CloneSplay), each device its own global size.
void outer_product_on_devices(const Context& context, std::size_t rows) {
  const auto devices = context.devices();
  auto queues = MultiQueue::on_devices(devices);
  const std::size_t cols = 15;
  std::vector<int> a(rows), b(cols);
  std::iota(a.begin(), a.end(), 1);
  std::iota(b.begin(), b.end(), 7);
  const auto a_dev = MultiArray::from_host(queues, HostArray::from_values(a));
  const auto b_dev =
      MultiArray::from_host(queues, HostArray::from_values(b), std::make_shared<CloneSplay>());
  const auto dest = MultiArray::empty(devices, {rows, cols}, DType::int32());

  PerDevice<std::vector<std::size_t>> global;
  for (const auto& device : devices) global.insert(device, {cols, dest.shapes()[device][0]});
  StaticKernel multiply(devices, outer_product_source, "multiply", global);
  multiply(queues, dest, a_dev, b_dev);
  const auto result = dest.get(queues);
  for (std::size_t y = 0; y < rows; ++y) {
    for (std::size_t x = 0; x < cols; ++x) {
      EXPECT_EQ(result.at<int>({y, x}), a[y] * b[x]) << "at " << y << ", " << x;
    }
  }
  for (const auto& device : devices) {
    EXPECT_EQ(multiply.virtual_sizes(device).virtual_global_size(), global[device]);
  }
  // Devices with different sizes got different sources, each compiled for its device.
  const auto sources = multiply.sources();
  ASSERT_EQ(sources.size(), devices.size());
  for (const auto& device : devices) {
    const bool equal_parts = dest.shapes()[devices[0]] == dest.shapes()[device];
    EXPECT_EQ(sources[devices[0]] == sources[device], equal_parts) << "device " << device.index();
  }
}

TEST_P(MultiDeviceStaticKernelTest, OuterProductOverDevices) {
  outer_product_on_devices(context(), 22);
  outer_product_on_devices(context(), 2 * context().devices().size() + 1);
}

TEST_P(MultiDeviceStaticKernelTest, GlobalSizesMustMatchTheDevices) {
  const auto devices = context().devices();
  PerDevice<std::vector<std::size_t>> one{{devices[0], {4}}};
  EXPECT_NE(logic_error_message([&] {
              StaticKernel(devices, outer_product_source, "multiply", one);
            }).find("no global size for device 1"),
            std::string::npos);
  PerDevice<std::vector<std::size_t>> both{{devices[0], {4, 4}}, {devices[1], {4, 4}}};
  EXPECT_NE(logic_error_message([&] {
              StaticKernel(devices[{0}], outer_product_source, "multiply", both);
            }).find("not one of the kernel's devices"),
            std::string::npos);
}

TEST_P(MultiDeviceStaticKernelTest, KeptFilesOfEachPart) {
  const auto devices = context().devices();
  PerDevice<std::vector<std::size_t>> global;
  for (std::size_t d = 0; d < devices.size(); ++d) global.insert(devices[d], {15, 3 + d});
  ProgramOptions options;
  options.keep = true;
  StaticKernel multiply(devices, outer_product_source, "multiply", global, {}, options);
  const std::filesystem::path dir = multiply.program().kept_directory();
  ASSERT_FALSE(dir.empty());
  // A different size on each device: a part (a source and its files) for every device.
  std::vector<std::size_t> files(devices.size(), 0);
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const auto name = entry.path().filename().string();
    for (std::size_t d = 0; d < devices.size(); ++d) {
      files[d] += name.starts_with("part" + std::to_string(d) + "-") ? 1 : 0;
    }
  }
  for (std::size_t d = 0; d < devices.size(); ++d) EXPECT_GT(files[d], 0u) << "part " << d;
  std::filesystem::remove_all(dir);
}

PLINTH_INSTANTIATE_DEVICE_TEST(StaticKernelTest);
PLINTH_INSTANTIATE_MULTI_DEVICE_TEST(MultiDeviceStaticKernelTest);

}  // namespace
}  // namespace static_kernel_test
}  // namespace plinth::conformance
