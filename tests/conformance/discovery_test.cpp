// Discovery and selection: platforms, devices, filters, PLINTH_DEVICE specifications.

#include "fixture.hpp"

namespace plinth::conformance {
namespace discovery_test {
namespace {

using Discovery = DeviceTest;

/// `text` as a regex that matches it literally (names like "Xeon(R)" have metacharacters).
std::string regex_escape(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (std::string_view("\\^$.|?*+()[]{}").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

TEST_P(Discovery, DeviceIsListedByItsPlatform) {
  const Device& device = GetParam();
  const auto devices = device.platform().devices();
  ASSERT_LT(device.index(), devices.size());
  EXPECT_EQ(devices[device.index()], device);
  EXPECT_EQ(Device::from_index(device.platform(), device.index()), device);
  EXPECT_THROW(Device::from_index(device.platform(), devices.size()), LogicError);
  EXPECT_THROW(Platform::from_index(device.api(), device.api().platforms().size()), LogicError);
  EXPECT_FALSE(device.name().empty());
  EXPECT_FALSE(device.platform().name().empty());
}

TEST_P(Discovery, NativeHandlesFindTheirPlatformAndDevice) {
  const Device& device = GetParam();
  EXPECT_EQ(Device::from_backend_device(device.api(), device.native_handle()), device);
  // Two platforms of one API never share a handle (CUDA has one platform, handle 0).
  EXPECT_EQ(Platform::from_backend_platform(device.api(), device.platform().native_handle()),
            device.platform());
  EXPECT_NE(logic_error_message([&] {
              Device::from_backend_device(device.api(), 0x5eed);
            }).find("has the native handle 0x5eed"),
            std::string::npos);
  EXPECT_NE(logic_error_message([&] {
              Platform::from_backend_platform(device.api(), 0x5eed);
            }).find("has the native handle 0x5eed"),
            std::string::npos);
}

TEST_P(Discovery, BoundDeviceSetsCompareAndNest) {
  const auto mine = Context::from_devices({GetParam()}).devices();
  const auto other = Context::from_devices({GetParam()}).devices();
  EXPECT_TRUE(mine == mine);
  EXPECT_TRUE(mine == mine[{0}]);
  EXPECT_FALSE(mine == other);  // the same device in another context
  EXPECT_TRUE(mine.is_subset_of(mine));
  EXPECT_FALSE(mine.is_subset_of(other));
}

TEST_P(Discovery, ParametersAreSane) {
  const auto& p = GetParam().params();
  EXPECT_TRUE(p.type == DeviceType::cpu || p.type == DeviceType::gpu ||
              p.type == DeviceType::accelerator || p.type == DeviceType::other);
  EXPECT_GE(p.compute_units, 1u);
  EXPECT_GE(p.max_total_local_size, 1u);
  ASSERT_EQ(p.max_local_sizes.size(), 3u);
  ASSERT_EQ(p.max_num_groups.size(), 3u);
  EXPECT_GE(p.max_local_sizes[0], 1u);
  EXPECT_GE(p.warp_size, 1u);
  EXPECT_GE(p.local_mem_banks, 1u);
  EXPECT_GT(p.local_mem_size, 0u);
  EXPECT_GT(p.global_mem_size, 0u);
  EXPECT_GE(p.address_alignment, 1u);
}

TEST_P(Discovery, MasksFilterPlatformsAndDevices) {
  const Device& device = GetParam();
  const auto api = device.api();
  const auto platform_name = device.platform().name();
  EXPECT_FALSE(Platform::all_filtered(api, {{"^$definitely-not-a-platform"}, {}}).size() ==
               api.platforms().size() + 1);
  EXPECT_TRUE(Platform::all_filtered(api, {{"definitely-not-a-platform"}, {}}).empty());
  const auto excluded = Platform::all_filtered(api, {{}, {"."}});
  EXPECT_TRUE(excluded.empty());
  EXPECT_EQ(Platform::all_filtered(api, {}).size(), api.platforms().size());

  const auto by_name = Device::all_filtered(device.platform(), {{regex_escape(device.name())}, {}});
  EXPECT_FALSE(by_name.empty());
  EXPECT_TRUE(Device::all_filtered(device.platform(), {{}, {"."}}).empty());
  // Case-sensitive, as grunnur's re.search (PLINTH_DEVICE's ~text is the case-insensitive way).
  std::string upper = regex_escape(device.name());
  for (auto& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (upper != regex_escape(device.name())) {
    for (const auto& other : Device::all_filtered(device.platform(), {{upper}, {}}))
      EXPECT_NE(other.name(), device.name());
  }

  DeviceFilter unique;
  unique.unique_only = true;
  const auto uniques = Device::all_filtered(device.platform(), unique);
  for (std::size_t i = 0; i < uniques.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) EXPECT_NE(uniques[i].name(), uniques[j].name());
  }
  EXPECT_THROW(Device::all_filtered(device.platform(), {{"("}, {}}), LogicError);
}

TEST_P(Discovery, SelectDevicesHonoursQuantity) {
  const auto api = GetParam().api();
  const auto one = select_devices(api, false, 1);
  ASSERT_EQ(one.size(), 1u);
  const auto many = select_devices(api, false, std::nullopt);
  EXPECT_GE(many.size(), 1u);
  EXPECT_THROW(select_devices(api, false, 100000), LogicError);
  EXPECT_THROW(select_devices(api, false, 1, {{"definitely-not-a-device"}, {}}), LogicError);
  const auto pairs = platforms_and_devices_by_mask(api, 1);
  EXPECT_FALSE(pairs.empty());
  auto context = Context::from_criteria(api, false, 1);
  EXPECT_EQ(context.devices().size(), 1u);
}

TEST_P(Discovery, DeviceSpecificationsSelect) {
  const Device& device = GetParam();
  const auto api = device.api();
  const std::string me =
      std::to_string(device.platform().index()) + "." + std::to_string(device.index());

  auto chosen = devices_from_spec(api, api.shortcut() + ":" + me);
  ASSERT_TRUE(chosen.has_value());
  ASSERT_EQ(chosen->size(), 1u);
  EXPECT_EQ(chosen->front(), device);

  // Terms for other known APIs do not apply; an API nobody provides is a typo, an error.
  const std::string other = api.shortcut() == "cuda" ? "hip" : "cuda";
  EXPECT_FALSE(devices_from_spec(api, other + ":*").has_value());
  EXPECT_THROW(devices_from_spec(api, "nonesuch:*"), LogicError);
  EXPECT_THROW(devices_from_spec(api, "opnecl:1"), LogicError);
  // Garbage never falls back to the default device.
  for (const char* garbage : {";;;", "!!opencl:0", ";", "opencl:0;", "opencl:99999999999999999999",
                              "*:0.99999999999999999999"}) {
    EXPECT_THROW(devices_from_spec(api, garbage), LogicError) << garbage;
  }
  // '*' matches everything; a discard term wins.
  const auto all = devices_from_spec(api, "*:*");
  ASSERT_TRUE(all.has_value());
  if (all->size() == 1) {
    EXPECT_THROW(devices_from_spec(api, "*:*;!*:" + me), LogicError);
  } else {
    auto but_me = devices_from_spec(api, api.shortcut() + ":*;!" + api.shortcut() + ":" + me);
    ASSERT_TRUE(but_me.has_value());
    EXPECT_EQ(but_me->size(), all->size() - 1);
    // Only discard terms mean "all but".
    auto only_discard = devices_from_spec(api, "!" + api.shortcut() + ":" + me);
    ASSERT_TRUE(only_discard.has_value());
    EXPECT_EQ(only_discard->size(), all->size() - 1);
  }
  // By type and by name.
  const std::string type = device.params().type == DeviceType::gpu ? "gpu" : "cpu";
  if (device.params().type == DeviceType::gpu || device.params().type == DeviceType::cpu) {
    auto typed = devices_from_spec(api, "*:" + type);
    ASSERT_TRUE(typed.has_value());
    EXPECT_NE(std::find(typed->begin(), typed->end(), device), typed->end());
  }
  auto named = devices_from_spec(api, "*:~" + device.name().substr(0, 3));
  ASSERT_TRUE(named.has_value());
  EXPECT_NE(std::find(named->begin(), named->end(), device), named->end());
  // Nothing matching is an error, and so is a malformed term.
  EXPECT_THROW(devices_from_spec(api, "*:~definitely-not-a-device"), LogicError);
  EXPECT_THROW(devices_from_spec(api, "no-colon"), LogicError);
  EXPECT_THROW(devices_from_spec(api, "*:banana"), LogicError);
}

TEST_P(Discovery, ContextRejectsBadDeviceLists) {
  EXPECT_THROW(Context::from_devices({}), LogicError);
  EXPECT_THROW(Context::from_devices({GetParam(), GetParam()}), LogicError);
  const auto ctx = Context::from_devices({GetParam()});
  EXPECT_EQ(ctx.devices().size(), 1u);
  EXPECT_EQ(ctx.devices()[0].device(), GetParam());
  EXPECT_THROW(ctx.devices()[1], LogicError);
  EXPECT_EQ(ctx.api(), GetParam().api());
}

TEST_P(Discovery, ContextFromNativeHandles) {
  const Device& device = GetParam();
  const auto ctx = Context::from_backend_devices(device.api(), {device.native_handle()});
  EXPECT_EQ(ctx.unbound_devices().front(), device);
  EXPECT_THROW(Context::from_backend_devices(device.api(), {0xdead0000u}), LogicError);
  // Wrapping the native context of another gives a context on the same device.
  const auto wrapped = Context::from_backend_context(ctx.native_handle(0), {device});
  EXPECT_EQ(wrapped.native_handle(0), ctx.native_handle(0));
  auto buffer = Buffer::allocate(wrapped.devices()[0], 16);
  Queue queue(wrapped.devices()[0]);
  const auto data = pattern(16);
  buffer.set(queue, data, true);
  std::vector<std::byte> back(16);
  buffer.get(queue, back);
  EXPECT_EQ(back, data);
}

PLINTH_INSTANTIATE_DEVICE_TEST(Discovery);

}  // namespace
}  // namespace discovery_test
}  // namespace plinth::conformance
