#pragma once

#include <plinth/backend/event.hpp>

#include <CL/cl.h>

namespace plinth::opencl {

/// A cl_event (one reference owned) from a profiling-enabled queue.
class Event final : public backend::EventAdapter {
 public:
  /// Adopts `event`'s reference.
  explicit Event(cl_event event) noexcept : event_(event) {}

  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  ~Event() override;

  void wait() override;
  double elapsed_ms_since(backend::EventAdapter& start) override;
  backend::NativeHandle native_handle() const override;

  /// Adopts `event`'s reference in place of the current event, which it releases.
  void replace(cl_event event) noexcept;

 private:
  cl_event event_;
};

}  // namespace plinth::opencl
