#include <plinth/event.hpp>

#include <plinth/backend/event.hpp>

namespace plinth {

void Event::wait() const { adapter_->wait(); }
std::uintptr_t Event::native_handle() const { return adapter_->native_handle(); }

double elapsed_ms(const Event& start, const Event& end) {
  end.wait();
  return end.adapter().elapsed_ms_since(start.adapter());
}

}  // namespace plinth
