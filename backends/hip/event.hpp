#pragma once

#include <plinth/backend/event.hpp>

#include <hip/hip_runtime_api.h>

#include <memory>

namespace plinth::hip {

class ContextState;

/// A hipEvent_t (timing-capable) recorded on a queue's stream.
class Event final : public backend::EventAdapter {
 public:
  Event(std::shared_ptr<ContextState> state, hipEvent_t event)
      : state_(std::move(state)), event_(event) {}
  ~Event() override;
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;

  void wait() override;
  double elapsed_ms_since(backend::EventAdapter& start) override;
  backend::NativeHandle native_handle() const override;

  hipEvent_t event() const { return event_; }

 private:
  std::shared_ptr<ContextState> state_;  // keeps the context's state alive, as CUDA's do
  hipEvent_t event_;
};

}  // namespace plinth::hip
