#include <plinth/queue.hpp>

#include "runtime/impl.hpp"

#include <plinth/errors.hpp>

#include <fmt/format.h>

namespace plinth {

namespace {

Queue make_queue(const BoundDevice& device, std::unique_ptr<backend::QueueAdapter> adapter) {
  const auto& api = detail::loaded(device.context().api());
  return detail::Access::make<Queue>(
      std::make_shared<detail::QueueImpl>(device, api.adopt(std::move(adapter))));
}

}  // namespace

namespace detail {

bool PendingHostArrays::keep(const HostArray& host) {
  const std::lock_guard lock(mutex_);
  if (arrays_.capacity() == 0) arrays_.reserve(limit);
  arrays_.push_back(host);
  any_.store(true, std::memory_order_relaxed);
  return arrays_.size() >= limit;
}

void PendingHostArrays::release() noexcept {
  const std::lock_guard lock(mutex_);
  arrays_.clear();  // keeps the capacity: the next keep() allocates nothing
  any_.store(false, std::memory_order_relaxed);
}

void PendingHostArrays::abandon() noexcept {
  const std::lock_guard lock(mutex_);
  if (arrays_.empty()) return;
  try {
    new std::vector<HostArray>(std::move(arrays_));  // never freed, on purpose
  } catch (...) {
    // No memory even for that: the arrays stay, and are released with the queue.
  }
}

QueueImpl::~QueueImpl() {
  // A transfer may still read or write a kept array; a pool block's claim by this queue is
  // settled only by the queue's end (its epoch then says everything is done).
  const bool pool_claims = track->used_by_pool.load(std::memory_order_relaxed);
  if ((!pending.any() && !pool_claims) || !adapter) return;
  try {
    adapter->synchronize();
    if (pool_claims) track->epoch.store(QueueTrack::finished, std::memory_order_release);
  } catch (...) {
    pending.abandon();  // the transfers' state is unknown: better a leak than a late write
  }
}

}  // namespace detail

Queue::Queue(const BoundDevice& device)
    : Queue(make_queue(device, detail::adapter(device.context()).create_queue(device.index()))) {}

Queue Queue::from_backend_queue(const BoundDevice& device, std::uintptr_t native_queue,
                                bool take_ownership) {
  return make_queue(
      device,
      detail::adapter(device.context()).wrap_queue(device.index(), native_queue, take_ownership));
}

const BoundDevice& Queue::device() const { return impl_->device; }
void Queue::synchronize() const {
  impl_->adapter->synchronize();
  detail::queue_idle(*this);
}
backend::QueueAdapter& Queue::adapter() const { return *impl_->adapter; }
std::uintptr_t Queue::native_handle() const { return impl_->adapter->native_handle(); }

Event Queue::record_event() const {
  auto& impl = *impl_;
  const auto& api = detail::loaded(impl.device.context().api());
  const bool pooled = api.abi_minor >= 2 && impl.events_reusable;
  if (pooled) {
    // An event of the pool that only the pool holds (no Event handle can appear for it
    // meanwhile: the pool's reference is the only one).
    for (const auto& event : impl.events) {
      if (event.use_count() != 1) continue;
      if (impl.adapter->record_event_again(*event))
        return detail::Access::make<Event>(event, impl.device);
      impl.events_reusable = false;
      impl.events.clear();
      break;
    }
  }
  auto event = api.adopt(impl.adapter->record_event());
  if (pooled && impl.events_reusable && impl.events.size() < detail::QueueImpl::event_pool_size)
    impl.events.push_back(event);
  return detail::Access::make<Event>(std::move(event), impl.device);
}

void Queue::wait_for(const Event& event) const {
  // Any device of this queue's context; the backend casts the event to its own type.
  if (!(event.device().context() == impl_->device.context())) {
    throw LogicError(
        fmt::format("Queue::wait_for: {}",
                    detail::describe_mismatch("event", event.device(), "queue", impl_->device)));
  }
  impl_->adapter->wait_for(detail::Access::adapter(event));
}

void Queue::record(const Event& event) const {
  constexpr const char* call = "Queue::record";
  if (!event.interprocess()) {
    throw LogicError(fmt::format(
        "{}: the event is not interprocess (Event::create_interprocess()); Queue::record_event() "
        "records a new event",
        call));
  }
  if (detail::Access::kind(event) == detail::EventKind::imported) {
    throw LogicError(fmt::format(
        "{}: the event was opened from another process's handle: only the process that made it "
        "records it",
        call));
  }
  if (!(event.device() == impl_->device)) {
    throw LogicError(
        fmt::format("{}: {}", call,
                    detail::describe_mismatch("event", event.device(), "queue", impl_->device)));
  }
  impl_->adapter->record_ipc_event(detail::Access::adapter(event));
}

MultiQueue::MultiQueue(std::vector<Queue> queues) : queues_(std::move(queues)) {
  if (queues_.empty()) throw LogicError("a MultiQueue needs at least one queue");
  for (std::size_t i = 0; i < queues_.size(); ++i) {
    const auto& device = queues_[i].device();
    if (!(device.context() == queues_.front().device().context())) {
      throw LogicError("a MultiQueue's queues must be of one context");
    }
    for (std::size_t j = 0; j < i; ++j) {
      if (queues_[j].device() == device) {
        throw LogicError(fmt::format("a MultiQueue has two queues on device '{}'", device.name()));
      }
    }
  }
}

MultiQueue MultiQueue::on_devices(const BoundMultiDevice& devices) {
  std::vector<Queue> queues;
  for (const auto& device : devices) queues.emplace_back(device);
  return MultiQueue(std::move(queues));
}

BoundMultiDevice MultiQueue::devices() const {
  std::vector<BoundDevice> devices;
  for (const auto& queue : queues_) devices.push_back(queue.device());
  return detail::Access::make<BoundMultiDevice>(std::move(devices));
}

const Queue& MultiQueue::operator[](const BoundDevice& device) const {
  for (const auto& queue : queues_) {
    if (queue.device() == device) return queue;
  }
  throw LogicError(fmt::format("the MultiQueue has no queue on device {} ('{}')", device.index(),
                               device.name()));
}

void MultiQueue::synchronize() const {
  for (const auto& queue : queues_) queue.synchronize();
}

}  // namespace plinth
