// The PLINTH_DEVICE grammar, without devices (core/detail/device_spec.hpp).

#include "runtime/device_spec.hpp"

#include <plinth/errors.hpp>

#include <gtest/gtest.h>

#include <string>

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

}  // namespace
