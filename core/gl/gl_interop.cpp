// GL buffers and textures registered with a device, and their mappings onto a queue
// (<plinth/gl_interop.hpp>). make_gl_context() is with the other ways of making a context, in
// runtime/context.cpp.

#include <plinth/gl_interop.hpp>

#include "diagnostics/debug.hpp"
#include "gl/gl_library.hpp"
#include "gl/gl_texture_format.hpp"
#include "images/image_impl.hpp"
#include "runtime/impl.hpp"

#include <plinth/buffer.hpp>
#include <plinth/errors.hpp>
#include <plinth/image.hpp>

#include <fmt/format.h>

#include <atomic>
#include <exception>
#include <optional>

namespace plinth {

namespace detail {

/// A registered GL object. The adapter unregisters it when the last GlBuffer/GlTexture copy
/// and the last mapping (which holds this) have gone.
struct GlResourceImpl {
  GlResourceImpl(BoundDevice bound_device, std::shared_ptr<backend::GlResourceAdapter> resource,
                 unsigned gl_name, GlAccess gl_access, std::optional<GlTextureDesc> desc)
      : device(std::move(bound_device)),
        adapter(std::move(resource)),
        name(gl_name),
        access(gl_access),
        texture(std::move(desc)) {}

  BoundDevice device;
  std::shared_ptr<backend::GlResourceAdapter> adapter;
  unsigned name = 0;
  GlAccess access = GlAccess::read_write;
  std::optional<GlTextureDesc> texture;  // set for textures
  std::atomic<bool> mapped{false};
};

/// A live or ended mapping: what GlBufferMapping and GlTextureMapping hold.
struct GlMappingImpl {
  std::shared_ptr<GlResourceImpl> resource;
  Queue queue;
  std::optional<Buffer> buffer;
  std::optional<Image> image;
  bool mapped = true;

  /// Drops the Buffer or Image handle (the adapters go before the backend's unmap, as the SDK
  /// says, if the user holds no copy), then unmaps.
  void unmap() {
    mapped = false;
    buffer.reset();
    image.reset();
    const auto release = [this] { resource->mapped.store(false); };
    try {
      resource->adapter->unmap(*detail::Access::impl(queue)->adapter);
    } catch (...) {
      release();
      throw;
    }
    release();
  }
};

}  // namespace detail

namespace {

/// The SDK's GL methods exist only from 1.9 on: older vtables end before them.
constexpr int gl_minor = 9;

GlSharing sharing_of(const BoundDevice& device) {
  const auto& api = detail::loaded(device.context().api());
  if (api.abi_minor < gl_minor) {
    return {false, fmt::format("{}'s plugin implements SDK 1.{}, and GL interop needs SDK 1.{}",
                               api.name, api.abi_minor, gl_minor)};
  }
  try {
    auto sharing = detail::adapter(device.context()).gl_sharing(device.index());
    if (!sharing.available && sharing.reason.empty()) {
      sharing.reason = "the backend does not share with OpenGL";
    }
    return sharing;
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const std::exception& e) {  // the SDK says it never throws; say so if it does
    return {false, fmt::format("the backend failed to say: {}", e.what())};
  }
}

/// Throws LogicError, naming `function`, unless `device` shares with GL.
void require_sharing(const BoundDevice& device, const char* function) {
  const auto sharing = sharing_of(device);
  if (!sharing.available) {
    throw LogicError(fmt::format("{}: device {} ('{}') cannot share with OpenGL: {}", function,
                                 device.index(), device.name(), sharing.reason));
  }
}

std::shared_ptr<detail::GlResourceImpl> make_resource(
    const BoundDevice& device, std::unique_ptr<backend::GlResourceAdapter> adapter, unsigned name,
    GlAccess access, std::optional<GlTextureDesc> texture) {
  if (adapter == nullptr) throw LogicError("the backend registered no GL object");
  return std::make_shared<detail::GlResourceImpl>(
      device, detail::loaded(device.context().api()).adopt(std::move(adapter)), name, access,
      std::move(texture));
}

void check_access(GlAccess access, const char* function) {
  if (access != GlAccess::read_write && access != GlAccess::read_only &&
      access != GlAccess::write_only) {
    throw LogicError(fmt::format("{}: GlAccess {} is not one of its values", function,
                                 static_cast<int>(access)));
  }
}

/// Checks the queue and marks the resource mapped; the caller maps, and on failure calls
/// resource.mapped.store(false).
void begin_map(detail::GlResourceImpl& resource, const Queue& queue, const char* function,
               const char* what) {
  if (!(queue.device() == resource.device)) {
    throw LogicError(
        fmt::format("{}: the queue is of device {} ('{}'), the GL {} {} was "
                    "registered for device {} ('{}')",
                    function, queue.device().index(), queue.device().name(), what, resource.name,
                    resource.device.index(), resource.device.name()));
  }
  require_current_gl_context(detail::gl_functions(), function);
  bool expected = false;
  if (!resource.mapped.compare_exchange_strong(expected, true)) {
    throw LogicError(fmt::format("{}: GL {} {} is mapped already: unmap it first", function, what,
                                 resource.name));
  }
}

void unmap_checked(detail::GlMappingImpl* impl, const char* function) {
  if (impl == nullptr || !impl->mapped) {
    throw LogicError(fmt::format("{}: the mapping has been unmapped already", function));
  }
  impl->unmap();
}

void unmap_quietly(detail::GlMappingImpl* impl, const char* what) noexcept {
  if (impl == nullptr || !impl->mapped) return;
  try {
    impl->unmap();
  } catch (const std::exception& e) {
    detail::warn(
        fmt::format("unmapping GL {} {} failed: {}", what, impl->resource->name, e.what()));
  } catch (...) {
    detail::warn(fmt::format("unmapping GL {} {} failed", what, impl->resource->name));
  }
}

}  // namespace

GlSharing gl_sharing(const BoundDevice& device) { return sharing_of(device); }

// ---- GlBuffer ------------------------------------------------------------------------------

GlBuffer::GlBuffer(const BoundDevice& device, unsigned name, GlAccess access) {
  constexpr const char* function = "GlBuffer";
  check_access(access, function);
  if (name == 0) throw LogicError("GlBuffer: buffer 0 is no GL buffer");
  require_sharing(device, function);
  const auto& gl = detail::gl_functions();
  detail::require_current_gl_context(gl, function);
  if (gl.is_buffer(name) == 0) {
    throw LogicError(
        fmt::format("GlBuffer: {} is no buffer of the current GL context (glIsBuffer; a name from "
                    "glGenBuffers is a buffer only once bound or given storage)",
                    name));
  }
  auto adapter = detail::adapter(device.context()).register_gl_buffer(device.index(), name, access);
  impl_ = make_resource(device, std::move(adapter), name, access, std::nullopt);
}

GlBufferMapping GlBuffer::map(const Queue& queue) const {
  constexpr const char* function = "GlBuffer::map";
  begin_map(*impl_, queue, function, "buffer");
  try {
    auto adapter = impl_->adapter->map_buffer(*detail::Access::impl(queue)->adapter);
    if (adapter == nullptr) throw LogicError("GlBuffer::map: the backend mapped no buffer");
    const auto size = adapter->size();
    auto mapping = std::make_unique<detail::GlMappingImpl>(
        detail::GlMappingImpl{impl_, queue, std::nullopt, std::nullopt, true});
    try {
      mapping->buffer =
          detail::Access::make<Buffer>(std::make_shared<detail::BufferImpl>(detail::BufferImpl{
              impl_->device, nullptr,
              detail::loaded(impl_->device.context().api()).adopt(std::move(adapter)), 0, size,
              nullptr, nullptr}));
    } catch (...) {
      unmap_quietly(mapping.get(), "buffer");
      throw;
    }
    return detail::Access::make<GlBufferMapping>(std::move(mapping));
  } catch (...) {
    impl_->mapped.store(false);
    throw;
  }
}

unsigned GlBuffer::name() const noexcept { return impl_->name; }
const BoundDevice& GlBuffer::device() const noexcept { return impl_->device; }
GlAccess GlBuffer::access() const noexcept { return impl_->access; }

// ---- GlTexture -----------------------------------------------------------------------------

GlTexture::GlTexture(const BoundDevice& device, unsigned name, unsigned target, int level,
                     GlAccess access) {
  constexpr const char* function = "GlTexture";
  check_access(access, function);
  require_sharing(device, function);
  auto desc = detail::read_gl_texture(name, target, level, function);
  const auto support = image_support(device);
  if (!support.available) {
    throw LogicError(fmt::format("GlTexture: device {} ('{}') has no images: {}", device.index(),
                                 device.name(), support.reason));
  }
  if (!support.supports(desc.type, desc.format)) {
    throw LogicError(fmt::format("GlTexture: device {} ('{}') makes no {} in {} (texture {}, {})",
                                 device.index(), device.name(), to_string(desc.type),
                                 to_string(desc.format), name,
                                 detail::gl_enum_name(desc.internal_format)));
  }
  auto adapter =
      detail::adapter(device.context()).register_gl_texture(device.index(), desc, access);
  impl_ = make_resource(device, std::move(adapter), name, access, desc);
}

GlTextureMapping GlTexture::map(const Queue& queue) const {
  constexpr const char* function = "GlTexture::map";
  begin_map(*impl_, queue, function, "texture");
  try {
    auto adapter = impl_->adapter->map_image(*detail::Access::impl(queue)->adapter);
    if (adapter == nullptr) throw LogicError("GlTexture::map: the backend mapped no image");
    auto mapping = std::make_unique<detail::GlMappingImpl>(
        detail::GlMappingImpl{impl_, queue, std::nullopt, std::nullopt, true});
    try {
      const auto& t = *impl_->texture;
      mapping->image = detail::Access::make<Image>(std::make_shared<detail::ImageImpl>(
          detail::ImageImpl{impl_->device,
                            detail::loaded(impl_->device.context().api()).adopt(std::move(adapter)),
                            t.type, t.format, t.extent}));
    } catch (...) {
      unmap_quietly(mapping.get(), "texture");
      throw;
    }
    return detail::Access::make<GlTextureMapping>(std::move(mapping));
  } catch (...) {
    impl_->mapped.store(false);
    throw;
  }
}

unsigned GlTexture::name() const noexcept { return impl_->name; }
unsigned GlTexture::target() const noexcept { return impl_->texture->target; }
int GlTexture::level() const noexcept { return impl_->texture->level; }
const BoundDevice& GlTexture::device() const noexcept { return impl_->device; }
GlAccess GlTexture::access() const noexcept { return impl_->access; }
ImageType GlTexture::type() const noexcept { return impl_->texture->type; }
ImageFormat GlTexture::format() const noexcept { return impl_->texture->format; }
ImageExtent GlTexture::extent() const noexcept { return impl_->texture->extent; }
unsigned GlTexture::internal_format() const noexcept { return impl_->texture->internal_format; }

// ---- mappings ------------------------------------------------------------------------------

GlBufferMapping::GlBufferMapping(std::unique_ptr<detail::GlMappingImpl> impl)
    : impl_(std::move(impl)) {}
GlBufferMapping::GlBufferMapping(GlBufferMapping&&) noexcept = default;
GlBufferMapping& GlBufferMapping::operator=(GlBufferMapping&& other) noexcept {
  if (this != &other) {
    unmap_quietly(impl_.get(), "buffer");
    impl_ = std::move(other.impl_);
  }
  return *this;
}
GlBufferMapping::~GlBufferMapping() { unmap_quietly(impl_.get(), "buffer"); }

const Buffer& GlBufferMapping::buffer() const {
  if (impl_ == nullptr || !impl_->mapped) {
    throw LogicError("GlBufferMapping::buffer: the mapping has been unmapped");
  }
  return *impl_->buffer;
}

void GlBufferMapping::unmap() { unmap_checked(impl_.get(), "GlBufferMapping::unmap"); }
bool GlBufferMapping::mapped() const noexcept { return impl_ != nullptr && impl_->mapped; }

GlTextureMapping::GlTextureMapping(std::unique_ptr<detail::GlMappingImpl> impl)
    : impl_(std::move(impl)) {}
GlTextureMapping::GlTextureMapping(GlTextureMapping&&) noexcept = default;
GlTextureMapping& GlTextureMapping::operator=(GlTextureMapping&& other) noexcept {
  if (this != &other) {
    unmap_quietly(impl_.get(), "texture");
    impl_ = std::move(other.impl_);
  }
  return *this;
}
GlTextureMapping::~GlTextureMapping() { unmap_quietly(impl_.get(), "texture"); }

const Image& GlTextureMapping::image() const {
  if (impl_ == nullptr || !impl_->mapped) {
    throw LogicError("GlTextureMapping::image: the mapping has been unmapped");
  }
  return *impl_->image;
}

void GlTextureMapping::unmap() { unmap_checked(impl_.get(), "GlTextureMapping::unmap"); }
bool GlTextureMapping::mapped() const noexcept { return impl_ != nullptr && impl_->mapped; }

}  // namespace plinth
