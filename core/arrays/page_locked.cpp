// Page-locked host memory for users: HostArray::page_locked(), HostArray::is_page_locked()
// and HostRegistration, over the SDK 1.2 methods of the context's adapter. A HostArray's block
// is a shared_ptr whose deleter says what the memory is: PooledBlock (from the context's
// page-locked pool, page_locked_pool_state.hpp: returned to it with the last handle),
// PageLockedBlock (from allocate_host() while the pool is off, freed with the last handle) or
// RegisteredBlock (the caller's memory, kept registered while the array lives);
// is_page_locked() asks the shared_ptr for its deleter.

#include <plinth/page_locked.hpp>

#include "arrays/page_locked_pool_state.hpp"
#include "runtime/impl.hpp"

#include <plinth/context.hpp>
#include <plinth/errors.hpp>
#include <plinth/host_array.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <new>
#include <utility>

namespace plinth {

namespace detail {

/// The caller's memory, registered with a context until the registration and every array
/// over it are gone.
struct HostRegistrationState {
  HostRegistrationState(Context registered_context, std::span<std::byte> registered_memory)
      : context(std::move(registered_context)), memory(registered_memory) {}
  HostRegistrationState(const HostRegistrationState&) = delete;
  HostRegistrationState& operator=(const HostRegistrationState&) = delete;
  ~HostRegistrationState() { adapter(context).unregister_host(memory.data()); }

  Context context;
  std::span<std::byte> memory;
};

}  // namespace detail

namespace {

/// Frees memory from ContextAdapter::allocate_host(); holds the context, so that its adapter
/// (and plugin) outlives the memory.
struct PageLockedBlock {
  Context context;
  void operator()(std::byte* memory) const noexcept { detail::adapter(context).free_host(memory); }
};

/// Returns a block of the context's page-locked pool to it; holds the context, so that the
/// pool (and the adapter that frees its blocks) outlives the block.
struct PooledBlock {
  Context context;
  std::size_t size;
  void operator()(std::byte* memory) const noexcept {
    detail::Access::impl(context)->page_locked_pool->release({memory, size});
  }
};

/// An array over registered memory: keeps the registration alive, frees nothing.
struct RegisteredBlock {
  std::shared_ptr<detail::HostRegistrationState> state;
  void operator()(std::byte*) const noexcept {}
};

/// Refuses plugins whose SDK has no page-locked memory: their vtables end before it.
void require_sdk_1_2(const Context& context, const char* what) {
  const auto& api = detail::loaded(context.api());
  if (api.abi_minor < 2) {
    throw LogicError(fmt::format(
        "{} cannot {}: its plugin implements SDK 1.{}, and page-locked host memory needs SDK "
        "1.2",
        api.name, what, api.abi_minor));
  }
}

OutOfMemoryError out_of_host_memory(const char* call) {
  return OutOfMemoryError("host", call, 0, "out of host memory",
                          "cannot allocate the bookkeeping of page-locked memory");
}

}  // namespace

HostArray HostArray::page_locked(const Context& context, std::vector<std::size_t> shape,
                                 const DType& dtype) {
  return page_locked(context, ArrayMetadata(std::move(shape), dtype));
}

HostArray HostArray::page_locked(const Context& context, const ArrayMetadata& metadata) {
  require_sdk_1_2(context, "allocate page-locked host memory");
  // At least one byte, so that even an empty array has a valid (page-locked) block pointer.
  const std::size_t size = std::max<std::size_t>(metadata.buffer_size(), 1);
  auto& pool = *detail::Access::impl(context)->page_locked_pool;
  std::byte* memory = nullptr;
  std::shared_ptr<std::byte[]> block;
  try {
    // On failure the shared_ptr calls the deleter, which frees the memory or returns it.
    if (pool.enabled()) {
      const auto pooled = pool.acquire(size);
      memory = pooled.memory;
      block = std::shared_ptr<std::byte[]>(memory, PooledBlock{context, pooled.size});
    } else {
      memory = static_cast<std::byte*>(detail::adapter(context).allocate_host(size));
      block = std::shared_ptr<std::byte[]>(memory, PageLockedBlock{context});
    }
  } catch (const std::bad_alloc&) {
    throw out_of_host_memory("HostArray::page_locked");
  }
  std::memset(memory, 0, size);  // a reused block too
  return HostArray(std::move(block), metadata);
}

HostArray HostArray::page_locked(const Context& context, std::vector<std::size_t> shape,
                                 const DType& dtype, std::size_t alignment) {
  check_alignment("HostArray::page_locked", dtype, alignment);
  const ArrayMetadata metadata(std::move(shape), dtype);
  if (metadata.buffer_size() > std::numeric_limits<std::size_t>::max() - alignment) {
    throw LogicError("HostArray::page_locked: the size with the alignment overflows");
  }
  // A block alignment - 1 bytes longer, the first element at the first aligned address.
  const std::size_t size = metadata.buffer_size() + alignment - 1;
  const HostArray block = page_locked(context, ArrayMetadata({size}, DType::uint8()));
  const auto address = reinterpret_cast<std::uintptr_t>(block.block_.get());
  const std::size_t pad = (alignment - address % alignment) % alignment;
  return HostArray(block.block_, ArrayMetadata(metadata.shape(), dtype, std::nullopt, pad, size));
}

bool HostArray::is_page_locked() const noexcept {
  return std::get_deleter<PooledBlock>(block_) != nullptr ||
         std::get_deleter<PageLockedBlock>(block_) != nullptr ||
         std::get_deleter<RegisteredBlock>(block_) != nullptr;
}

HostRegistration::HostRegistration(const Context& context, std::span<std::byte> memory) {
  require_sdk_1_2(context, "page-lock existing host memory");
  if (memory.empty()) {
    throw LogicError("HostRegistration: the memory to page-lock is empty");
  }
  detail::adapter(context).register_host(memory.data(), memory.size());
  try {
    state_ = std::make_shared<detail::HostRegistrationState>(context, memory);
  } catch (const std::bad_alloc&) {
    detail::adapter(context).unregister_host(memory.data());
    throw out_of_host_memory("HostRegistration");
  }
}

HostRegistration::HostRegistration(HostRegistration&& other) noexcept
    : state_(std::move(other.state_)) {}

HostRegistration& HostRegistration::operator=(HostRegistration&& other) noexcept {
  if (this != &other) {
    reset();
    state_ = std::move(other.state_);
  }
  return *this;
}

HostRegistration::~HostRegistration() { reset(); }

std::span<std::byte> HostRegistration::memory() const noexcept {
  return state_ ? state_->memory : std::span<std::byte>();
}

void HostRegistration::reset() noexcept { state_.reset(); }

HostArray HostRegistration::wrap(const ArrayMetadata& metadata, std::size_t offset) const {
  if (!state_) throw LogicError("HostRegistration::wrap: the registration is empty");
  const std::size_t size = state_->memory.size();
  if (offset > size || size - offset < metadata.buffer_size()) {
    throw LogicError(
        fmt::format("HostRegistration::wrap: the layout needs {} bytes at offset {}, the "
                    "registered memory has {}",
                    metadata.buffer_size(), offset, size));
  }
  try {
    return HostArray(
        std::shared_ptr<std::byte[]>(state_->memory.data() + offset, RegisteredBlock{state_}),
        metadata);
  } catch (const std::bad_alloc&) {
    throw out_of_host_memory("HostRegistration::wrap");
  }
}

}  // namespace plinth
