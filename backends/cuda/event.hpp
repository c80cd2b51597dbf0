#pragma once

#include <plinth/backend/event.hpp>

#include <cuda.h>

#include <memory>

namespace plinth::cuda {

class ContextState;

/// A CUevent (timing-capable) recorded on a queue's stream.
class Event final : public backend::EventAdapter {
 public:
  Event(std::shared_ptr<ContextState> state, CUevent event)
      : state_(std::move(state)), event_(event) {}
  ~Event() override;
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;

  void wait() override;
  double elapsed_ms_since(backend::EventAdapter& start) override;
  backend::NativeHandle native_handle() const override;

  CUevent event() const { return event_; }

 private:
  std::shared_ptr<ContextState> state_;  // keeps the event's context alive
  CUevent event_;
};

}  // namespace plinth::cuda
