#pragma once

// A test fixture: a CUDA backend context of the fake driver's two devices (fake_driver.hpp),
// with the driver's call log cleared, for tests that drive the backend's adapters directly.

#include "context.hpp"
#include "fake_driver.hpp"

#include <gtest/gtest.h>

#include <memory>

namespace plinth::cuda::test {

class TwoDeviceContext : public ::testing::Test {
 protected:
  TwoDeviceContext() {
    state_->add(0, FakeDriver::context(0));
    state_->add(1, FakeDriver::context(1));
    FakeDriver::calls().clear();
  }

  FakeDriver driver_;  // first: outlives everything that calls the driver
  std::shared_ptr<ContextState> state_ =
      std::make_shared<ContextState>(ContextState::Ownership::primary);
  Context context_{state_};
};

}  // namespace plinth::cuda::test
