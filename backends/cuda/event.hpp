#pragma once

#include <plinth/backend/event.hpp>

#include <cuda.h>

#include <memory>

namespace plinth::cuda {

class ContextState;

/// A CUevent (timing-capable) recorded on a queue's stream, or an interprocess one made for
/// `device` (the index in the context whose CUDA context must be current to export it).
class Event final : public backend::EventAdapter {
 public:
  Event(std::shared_ptr<ContextState> state, CUevent event, std::size_t device = 0)
      : state_(std::move(state)), event_(event), device_(device) {}
  ~Event() override;
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;

  void wait() override;
  double elapsed_ms_since(backend::EventAdapter& start) override;
  backend::NativeHandle native_handle() const override;

  CUevent event() const { return event_; }
  std::size_t device() const { return device_; }

 private:
  std::shared_ptr<ContextState> state_;  // keeps the event's context alive
  CUevent event_;
  std::size_t device_;
};

}  // namespace plinth::cuda
