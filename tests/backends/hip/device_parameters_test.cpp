// The mapping from hipDeviceProp_t to DeviceParameters, with a struct filled as ROCm 5 fills
// it for an MI210 (gfx90a).

#include "device_parameters.hpp"

#include <gtest/gtest.h>

#include <cstring>

namespace plinth::hip {
namespace device_parameters_test {
namespace {

hipDeviceProp_t mi210() {
  hipDeviceProp_t properties{};
  std::strcpy(properties.name, "AMD Instinct MI210");
  std::strcpy(properties.gcnArchName, "gfx90a:sramecc+:xnack-");
  properties.totalGlobalMem = std::size_t{68702699520};
  properties.sharedMemPerBlock = 65536;
  properties.warpSize = 64;
  properties.maxThreadsPerBlock = 1024;
  properties.maxThreadsDim[0] = 1024;
  properties.maxThreadsDim[1] = 1024;
  properties.maxThreadsDim[2] = 1024;
  properties.maxGridSize[0] = 2147483647;
  properties.maxGridSize[1] = 65536;
  properties.maxGridSize[2] = 65536;
  properties.multiProcessorCount = 104;
  return properties;
}

TEST(HipDeviceParameters, MapsTheProperties) {
  const auto params = parameters_from(mi210(), "5.2.21153");
  EXPECT_EQ(params.type, DeviceType::gpu);
  EXPECT_EQ(params.compute_units, 104u);
  EXPECT_EQ(params.local_mem_banks, 32u);
  EXPECT_EQ(params.local_mem_size, 65536u);
  EXPECT_EQ(params.max_local_sizes, (std::vector<std::size_t>{1024, 1024, 1024}));
  EXPECT_EQ(params.max_num_groups, (std::vector<std::size_t>{2147483647, 65536, 65536}));
  EXPECT_EQ(params.max_total_local_size, 1024u);
  EXPECT_EQ(params.warp_size, 64u);
  EXPECT_EQ(params.global_mem_size, std::size_t{68702699520});
  EXPECT_EQ(params.address_alignment, 256u);
  EXPECT_TRUE(params.supports_double);
  EXPECT_EQ(params.compute_capability, "gfx90a:sramecc+:xnack-");
  EXPECT_EQ(params.driver_version, "5.2.21153");
}

TEST(HipDeviceParameters, Wave32AndNegativeValues) {
  auto properties = mi210();
  std::strcpy(properties.gcnArchName, "gfx1030");
  properties.warpSize = 32;
  properties.maxGridSize[2] = -1;  // nonsense from a driver is not a huge size_t
  const auto params = parameters_from(properties, "");
  EXPECT_EQ(params.warp_size, 32u);
  EXPECT_EQ(params.max_num_groups[2], 0u);
  EXPECT_EQ(params.compute_capability, "gfx1030");
}

TEST(HipDeviceParameters, ReadsUnterminatedNamesWithinTheirArrays) {
  auto properties = mi210();
  std::memset(properties.gcnArchName, 'x', sizeof(properties.gcnArchName));
  const auto params = parameters_from(properties, "");
  EXPECT_EQ(params.compute_capability, std::string(sizeof(properties.gcnArchName), 'x'));
  EXPECT_EQ(bounded_text(properties.name), "AMD Instinct MI210");
}

}  // namespace
}  // namespace device_parameters_test
}  // namespace plinth::hip
