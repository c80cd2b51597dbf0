// The library engine: checked collectives handed to the backend's collectives library
// (NCCL, RCCL) through its CommunicatorAdapter.

#include "collectives/engine.hpp"
#include "runtime/impl.hpp"

#include <plinth/buffer.hpp>

#include <vector>

namespace plinth::detail {

namespace {

class LibraryEngine final : public CollectiveEngine {
 public:
  LibraryEngine(std::shared_ptr<backend::CommunicatorAdapter> adapter, MultiQueue queues)
      : adapter_(std::move(adapter)), queues_(std::move(queues)) {
    parts_.reserve(queues_.queues().size());
  }

  void run(const CheckedCollective& collective) override {
    const auto& queues = queues_.queues();
    parts_.clear();
    for (std::size_t i = 0; i < queues.size(); ++i) {
      const Array& src = *collective.ranks[i].src;
      const Array& dst = *collective.ranks[i].dst;
      note_use(src.base_buffer(), queues[i]);  // for the memory pool's ordering
      note_use(dst.base_buffer(), queues[i]);
      parts_.push_back({&detail::Access::adapter(queues[i]),
                        &detail::Access::adapter(src.base_buffer()), src.first_element_offset(),
                        &detail::Access::adapter(dst.base_buffer()), dst.first_element_offset()});
    }
    adapter_->run(collective.call, parts_);
  }

  // The library takes every CollectiveType, float16 included.
  bool reduces(const DType&) const override { return true; }

 private:
  std::shared_ptr<backend::CommunicatorAdapter> adapter_;
  MultiQueue queues_;
  std::vector<backend::CollectivePart> parts_;
};

}  // namespace

std::unique_ptr<CollectiveEngine> make_library_engine(
    std::shared_ptr<backend::CommunicatorAdapter> adapter, MultiQueue queues) {
  return std::make_unique<LibraryEngine>(std::move(adapter), std::move(queues));
}

}  // namespace plinth::detail
