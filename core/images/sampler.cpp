// Sampler: settings checked as OpenCL requires them, made once for a context.

#include "images/image_impl.hpp"
#include "runtime/impl.hpp"

#include <plinth/errors.hpp>
#include <plinth/image.hpp>

#include <fmt/format.h>

namespace plinth {

Sampler Sampler::create(const Context& context, const SamplerDesc& desc) {
  if (static_cast<int>(desc.address) > static_cast<int>(AddressMode::mirrored_repeat)) {
    throw LogicError(
        fmt::format("Sampler::create: {} is no address mode", static_cast<int>(desc.address)));
  }
  if (static_cast<int>(desc.filter) > static_cast<int>(FilterMode::linear)) {
    throw LogicError(
        fmt::format("Sampler::create: {} is no filter mode", static_cast<int>(desc.filter)));
  }
  if (!desc.normalized_coords &&
      (desc.address == AddressMode::repeat || desc.address == AddressMode::mirrored_repeat)) {
    throw LogicError(fmt::format(
        "Sampler::create: address mode {} needs normalised coordinates (normalized_coords)",
        to_string(desc.address)));
  }
  std::string reasons;
  bool any = false;
  for (const auto& device : context.devices()) {
    const auto support = image_support(device);
    if (support.available) {
      any = true;
      break;
    }
    reasons += fmt::format("{}device {} ('{}'): {}", reasons.empty() ? "" : "; ", device.index(),
                           device.name(), support.reason);
  }
  if (!any) {
    throw LogicError(
        fmt::format("Sampler::create: no device of the context has images ({})", reasons));
  }
  auto adapter = detail::adapter(context).create_sampler(desc);
  if (adapter == nullptr) throw LogicError("Sampler::create: the backend returned no sampler");
  const auto& api = detail::loaded(context.api());
  return Sampler(std::make_shared<detail::SamplerImpl>(
      detail::SamplerImpl{context, api.adopt(std::move(adapter)), desc}));
}

const SamplerDesc& Sampler::desc() const noexcept { return impl_->desc; }
const Context& Sampler::context() const noexcept { return impl_->context; }
std::uintptr_t Sampler::native_handle() const { return impl_->adapter->native_handle(); }
backend::SamplerAdapter& Sampler::adapter() const { return *impl_->adapter; }

}  // namespace plinth
