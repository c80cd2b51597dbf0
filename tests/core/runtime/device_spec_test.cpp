// The PLINTH_DEVICE grammar (core/runtime/device_spec.hpp) and the filters' name masks
// (core/runtime/masks.hpp), without devices.

#include "runtime/device_spec.hpp"
#include "runtime/masks.hpp"

#include <plinth/errors.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace device_spec_test {
namespace {

using plinth::LogicError;
using plinth::detail::DeviceSelector;
using plinth::detail::parse_device_spec;

/// The LogicError message parse_device_spec throws for `spec` ("" if it does not throw).
std::string error_of(const std::string& spec) {
  try {
    parse_device_spec(spec);
  } catch (const LogicError& e) {
    return e.what();
  }
  return {};
}

TEST(DeviceSpecGrammar, ParsesEveryKindOfSelector) {
  const auto terms = parse_device_spec(" cuda:0, 1 ; opencl:gpu,~PoCL, 2.3 ;!*:cpu;level_zero:*");
  ASSERT_EQ(terms.size(), 4u);
  EXPECT_FALSE(terms[0].discard);
  EXPECT_EQ(terms[0].api, "cuda");
  ASSERT_EQ(terms[0].selectors.size(), 2u);
  EXPECT_EQ(terms[0].selectors[1].kind, DeviceSelector::Kind::index);
  EXPECT_EQ(terms[0].selectors[1].device, 1u);
  ASSERT_EQ(terms[1].selectors.size(), 3u);
  EXPECT_EQ(terms[1].selectors[0].kind, DeviceSelector::Kind::gpu);
  EXPECT_EQ(terms[1].selectors[1].kind, DeviceSelector::Kind::name);
  EXPECT_EQ(terms[1].selectors[1].text, "pocl");  // matched case-insensitively
  EXPECT_EQ(terms[1].selectors[2].kind, DeviceSelector::Kind::platform_index);
  EXPECT_EQ(terms[1].selectors[2].platform, 2u);
  EXPECT_EQ(terms[1].selectors[2].device, 3u);
  EXPECT_TRUE(terms[2].discard);
  EXPECT_EQ(terms[2].api, "*");
  EXPECT_EQ(terms[3].selectors[0].kind, DeviceSelector::Kind::any);
}

// Before the fix, std::stoul threw std::out_of_range out of every program with this value.
TEST(DeviceSpecGrammar, NumbersThatDoNotFitAreLogicErrors) {
  for (const char* spec : {"opencl:99999999999999999999", "opencl:0.99999999999999999999",
                           "opencl:99999999999999999999.0"}) {
    const auto error = error_of(spec);
    EXPECT_NE(error.find("too large"), std::string::npos) << spec << ": " << error;
  }
  EXPECT_EQ(parse_device_spec("opencl:18446744073709551615")[0].selectors[0].device,
            18446744073709551615u);
}

// Before the fix these parsed to no terms (or an api named "!opencl") and the program quietly
// used the default device.
TEST(DeviceSpecGrammar, GarbageIsAnErrorNamingTheProblem) {
  EXPECT_NE(error_of(";;;").find("empty term"), std::string::npos);
  EXPECT_NE(error_of("opencl:0;").find("empty term"), std::string::npos);
  EXPECT_NE(error_of("!!opencl:0").find("not an API shortcut"), std::string::npos);
  EXPECT_NE(error_of("open cl:0").find("not an API shortcut"), std::string::npos);
  EXPECT_NE(error_of("opencl").find("no ':'"), std::string::npos);
  EXPECT_NE(error_of("opencl:").find("empty device selector"), std::string::npos);
  EXPECT_NE(error_of("opencl:0,,1").find("empty device selector"), std::string::npos);
  EXPECT_NE(error_of("opencl:banana").find("'banana' is not a device selector"), std::string::npos);
  EXPECT_NE(error_of("opencl:1.").find("not a device selector"), std::string::npos);
  EXPECT_NE(error_of("opencl:-1").find("not a device selector"), std::string::npos);
  EXPECT_NE(error_of("opencl:~").find("not a device selector"), std::string::npos);
}

// PlatformFilter/DeviceFilter masks (runtime/masks.hpp), without devices.

using plinth::detail::passes_masks;

/// The LogicError message passes_masks throws ("" if it does not throw).
std::string mask_error_of(const std::vector<std::string>& include,
                          const std::vector<std::string>& exclude) {
  try {
    passes_masks("Portable Computing Language", include, exclude, "device");
  } catch (const LogicError& e) {
    return e.what();
  }
  return {};
}

// Before: masks were searched case-insensitively ("nvidia" matched "NVIDIA CUDA"); grunnur's
// re.search is case-sensitive.
TEST(Masks, AreRegexesSearchedCaseSensitively) {
  EXPECT_TRUE(passes_masks("NVIDIA CUDA", {"NVIDIA"}, {}));
  EXPECT_FALSE(passes_masks("NVIDIA CUDA", {"nvidia"}, {}));
  EXPECT_TRUE(passes_masks("NVIDIA CUDA", {"[Nn]VIDIA", "nothing"}, {}));
  EXPECT_TRUE(passes_masks("NVIDIA CUDA", {}, {"cuda"}));
  EXPECT_FALSE(passes_masks("NVIDIA CUDA", {}, {"CUDA$"}));
  EXPECT_TRUE(passes_masks("cpu-haswell", {"^cpu-\\w+$"}, {"GPU"}));
  EXPECT_TRUE(passes_masks("anything", {}, {}));
  // Exclusion wins.
  EXPECT_FALSE(passes_masks("pthread-cpu", {"pthread"}, {"cpu"}));
}

// Before: a mask was only compiled when a name got to be matched against it, so a bad exclude
// mask went unnoticed when no include mask matched.
TEST(Masks, BadRegexIsALogicErrorNamingTheMask) {
  const auto message = mask_error_of({"("}, {});
  EXPECT_NE(message.find("device include mask '('"), std::string::npos) << message;
  const auto unused = mask_error_of({"no such device"}, {"[z-a]"});
  EXPECT_NE(unused.find("device exclude mask '[z-a]'"), std::string::npos) << unused;
  EXPECT_NE(mask_error_of({}, {"a{2,1}"}).find("'a{2,1}'"), std::string::npos);
  EXPECT_EQ(mask_error_of({"Portable"}, {"CUDA"}), "");
}

}  // namespace
}  // namespace device_spec_test
