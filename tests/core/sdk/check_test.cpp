// The SDK's vendor-call checks (<plinth/backend/check.hpp>) against a fake vendor API.

#include <plinth/backend/check.hpp>
#include <plinth/errors.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

namespace {

enum class FakeResult { success = 0, shut_down = 4, invalid = 7, out_of_memory = 9 };

// A vendor function: returns what it is told to.
FakeResult fakeCall(FakeResult result, int /*unused*/) { return result; }

}  // namespace

template <>
struct plinth::backend::VendorResult<FakeResult> {
  static constexpr const char* api = "Fake";
  static bool ok(FakeResult r) noexcept { return r == FakeResult::success; }
  static bool shut_down(FakeResult r) noexcept { return r == FakeResult::shut_down; }
  static VendorError describe(FakeResult r) noexcept {
    switch (r) {
      case FakeResult::invalid: return {"FAKE_INVALID", "the fake call failed", false};
      case FakeResult::out_of_memory: return {"FAKE_OUT_OF_MEMORY", "no memory left", true};
      case FakeResult::shut_down: return {"FAKE_SHUT_DOWN", "", false};
      default: return {};
    }
  }
};

namespace plinth::backend {
namespace {

// The BackendError that `f` throws (a failure, and a default error, if it throws none).
template <class F>
BackendError thrown(F f) {
  try {
    f();
  } catch (const BackendError& e) {
    return e;
  }
  ADD_FAILURE() << "nothing thrown";
  return BackendError("", "", 0, "");
}

std::string at_line(int line) { return "check_test.cpp:" + std::to_string(line); }

TEST(Check, DoesNothingOnSuccess) {
  EXPECT_NO_THROW(PLINTH_CHECK(fakeCall(FakeResult::success, 2)));
  EXPECT_NO_THROW(check(FakeResult::success, "fakeCall"));
}

TEST(Check, ThrowsBackendErrorNamingTheFunctionCodeAndLocation) {
  const int line = __LINE__ + 1;
  const auto e = thrown([] { PLINTH_CHECK(fakeCall(FakeResult::invalid, 2)); });
  EXPECT_EQ(e.api(), "Fake");
  EXPECT_EQ(e.call(), "fakeCall");  // the function only, not its arguments
  EXPECT_EQ(e.code(), 7);
  EXPECT_EQ(e.code_name(), "FAKE_INVALID");
  const std::string what = e.what();
  EXPECT_NE(what.find("Fake: fakeCall failed: FAKE_INVALID (7)"), std::string::npos) << what;
  EXPECT_NE(what.find("the fake call failed"), std::string::npos) << what;
  EXPECT_NE(what.find(at_line(line)), std::string::npos) << what;
}

TEST(Check, ThrowsOutOfMemoryErrorWhenTheResultSaysSo) {
  EXPECT_THROW(PLINTH_CHECK(fakeCall(FakeResult::out_of_memory, 2)), OutOfMemoryError);
  const auto e = thrown([] { PLINTH_CHECK(fakeCall(FakeResult::out_of_memory, 2)); });
  EXPECT_EQ(e.call(), "fakeCall");
  EXPECT_EQ(e.code(), 9);
  EXPECT_EQ(e.code_name(), "FAKE_OUT_OF_MEMORY");
  // Any other failure is a BackendError only.
  try {
    PLINTH_CHECK(fakeCall(FakeResult::invalid, 2));
    ADD_FAILURE() << "nothing thrown";
  } catch (const OutOfMemoryError&) {
    ADD_FAILURE() << "OutOfMemoryError for FAKE_INVALID";
  } catch (const BackendError&) {
  }
}

TEST(Check, NamesTheGivenNameForAResultHeldInAVariable) {
  const FakeResult result = fakeCall(FakeResult::invalid, 2);
  const int line = __LINE__ + 1;
  const auto e = thrown([&] { check(result, "fakeCall"); });
  EXPECT_EQ(e.call(), "fakeCall");
  EXPECT_EQ(e.code_name(), "FAKE_INVALID");
  // The location is the caller's, though the name converts to a VendorCall implicitly.
  EXPECT_NE(std::string(e.what()).find(at_line(line)), std::string::npos) << e.what();
}

TEST(CheckInDestructor, ReportsAFailureOnOneLineOfStderr) {
  static_assert(noexcept(check_in_destructor(FakeResult::invalid, VendorCall("fakeCall"))));
  testing::internal::CaptureStderr();
  const int line = __LINE__ + 1;
  const bool ok = PLINTH_CHECK_IN_DESTRUCTOR(fakeCall(FakeResult::invalid, 2));
  const std::string printed = testing::internal::GetCapturedStderr();
  EXPECT_FALSE(ok);
  EXPECT_EQ(std::count(printed.begin(), printed.end(), '\n'), 1) << printed;
  EXPECT_EQ(printed.back(), '\n') << printed;
  EXPECT_NE(printed.find("Fake: fakeCall failed in a destructor"), std::string::npos) << printed;
  EXPECT_NE(printed.find("FAKE_INVALID (7)"), std::string::npos) << printed;
  EXPECT_NE(printed.find("the fake call failed"), std::string::npos) << printed;
  EXPECT_NE(printed.find(at_line(line)), std::string::npos) << printed;
}

TEST(CheckInDestructor, IsSilentWhenTheDriverHasShutDown) {
  testing::internal::CaptureStderr();
  const bool ok = PLINTH_CHECK_IN_DESTRUCTOR(fakeCall(FakeResult::shut_down, 2));
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
  EXPECT_FALSE(ok);
}

TEST(CheckInDestructor, ReturnsTrueOnSuccess) {
  testing::internal::CaptureStderr();
  const bool ok = PLINTH_CHECK_IN_DESTRUCTOR(fakeCall(FakeResult::success, 2));
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
  EXPECT_TRUE(ok);
}

TEST(VendorCall, FunctionIsTheTextBeforeTheArgumentList) {
  EXPECT_EQ(VendorCall("fakeCall(1, 2)").function(), "fakeCall");
  EXPECT_EQ(VendorCall("clCreateBuffer").function(), "clCreateBuffer");  // a bare name
  // Blanks around the name go; a namespace stays, except a leading global "::".
  EXPECT_EQ(VendorCall("  ns::f (x)").function(), "ns::f");
  EXPECT_EQ(VendorCall("::cuInit(0)").function(), "cuInit");
  EXPECT_EQ(VendorCall("").function(), "");
}

TEST(VendorCall, DefaultsToTheCallersLocation) {
  const int line = __LINE__ + 1;
  const VendorCall call("fakeCall");
  EXPECT_EQ(call.where.line(), static_cast<unsigned>(line));
  EXPECT_NE(std::string(call.where.file_name()).find("check_test.cpp"), std::string::npos);
}

}  // namespace
}  // namespace plinth::backend
