#include "gl_interop.hpp"

#include "buffer.hpp"
#include "context.hpp"
#include "driver.hpp"
#include "image.hpp"
#include "queue.hpp"

#include <plinth/errors.hpp>

#include <new>
#include <string>
#include <utility>

namespace plinth::cuda {

namespace {

/// The stream of a queue adapter of this backend (the core only hands us ours).
CUstream stream_of(backend::QueueAdapter& queue) { return static_cast<Queue&>(queue).stream(); }

/// Throws LogicError where the loaded driver lacks a graphics interop function.
void require_gl_interop() {
  if (const GlSharing sharing = query_gl_sharing(); !sharing.available)
    throw LogicError(sharing.reason);
}

/// Adopts the freshly registered `resource` of `device`, unregistering it if that fails.
std::unique_ptr<GlResource> adopt(const std::shared_ptr<ContextState>& state, std::size_t device,
                                  CUgraphicsResource resource, const GlTextureDesc* texture,
                                  GlAccess access) {
  try {
    return std::make_unique<GlResource>(state, device, resource, texture, access);
  } catch (...) {  // std::bad_alloc; the registering context is still current
    CU_CHECK_IN_DESTRUCTOR(cuGraphicsUnregisterResource(resource));
    throw;
  }
}

}  // namespace

unsigned int gl_register_flags(GlAccess access, bool texture) noexcept {
  // Kernels write images through surface objects, which need SURFACE_LDST.
  const unsigned int surface = texture ? unsigned{CU_GRAPHICS_REGISTER_FLAGS_SURFACE_LDST} : 0U;
  switch (access) {
    case GlAccess::read_only: return CU_GRAPHICS_REGISTER_FLAGS_READ_ONLY;
    case GlAccess::write_only: return CU_GRAPHICS_REGISTER_FLAGS_WRITE_DISCARD | surface;
    case GlAccess::read_write: break;
  }
  return CU_GRAPHICS_REGISTER_FLAGS_NONE | surface;
}

GlSharing query_gl_sharing() {
  const std::string missing = missing_gl_functions(driver());
  if (missing.empty()) return {true, {}};
  return {false, "the CUDA driver has no OpenGL interop (libcuda.so.1 lacks " + missing + ")"};
}

GlResource::GlResource(std::shared_ptr<ContextState> state, std::size_t device,
                       CUgraphicsResource resource, const GlTextureDesc* texture,
                       GlAccess access) noexcept
    : state_(std::move(state)), device_(device), resource_(resource), texture_(texture != nullptr) {
  if (texture != nullptr) {
    image_desc_ = {texture->type, texture->format, texture->extent};
    level_ = static_cast<unsigned int>(texture->level);
    surface_ = access != GlAccess::read_only;
  }
}

GlResource::~GlResource() {
  ScopedContext current((*state_)[device_].context, std::nothrow);
  // The core unmaps first; a mapping left over (a failed unmap) goes on the null stream.
  if (mapped_) CU_CHECK_IN_DESTRUCTOR(cuGraphicsUnmapResources(1, &resource_, nullptr));
  CU_CHECK_IN_DESTRUCTOR(cuGraphicsUnregisterResource(resource_));
}

void GlResource::map(CUstream stream) {
  if (mapped_) throw LogicError("the registered GL object is already mapped");
  CU_CHECK(cuGraphicsMapResources(1, &resource_, stream));
  mapped_ = true;
}

void GlResource::unmap_after_failure(CUstream stream) noexcept {
  if (CU_CHECK_IN_DESTRUCTOR(cuGraphicsUnmapResources(1, &resource_, stream))) mapped_ = false;
}

std::unique_ptr<backend::BufferAdapter> GlResource::map_buffer(backend::QueueAdapter& queue) {
  if (texture_) throw LogicError("a registered GL texture is mapped as an image, not a buffer");
  const CUstream stream = stream_of(queue);
  ScopedContext current((*state_)[device_].context);
  map(stream);
  try {
    CUdeviceptr pointer = 0;
    std::size_t size = 0;
    CU_CHECK(cuGraphicsResourceGetMappedPointer(&pointer, &size, resource_));
    return std::make_unique<Buffer>(state_, device_, pointer, size, false);
  } catch (...) {
    unmap_after_failure(stream);
    throw;
  }
}

std::unique_ptr<backend::ImageAdapter> GlResource::map_image(backend::QueueAdapter& queue) {
  if (!texture_) throw LogicError("a registered GL buffer is mapped as a buffer, not an image");
  const CUstream stream = stream_of(queue);
  ScopedContext current((*state_)[device_].context);
  map(stream);
  try {
    CUarray array = nullptr;
    if (backend::is_layered(image_desc_.type)) {
      // A GL_TEXTURE_2D_ARRAY's array index is its layer: each is an array of one layer. Its
      // mipmapped array's level is the layered array (both seen on an H200, driver 580).
      CUmipmappedArray levels = nullptr;
      CU_CHECK(cuGraphicsResourceGetMappedMipmappedArray(&levels, resource_));
      CU_CHECK(cuMipmappedArrayGetLevel(&array, levels, level_));
    } else {
      CU_CHECK(cuGraphicsSubResourceGetMappedArray(&array, resource_, 0, level_));
    }
    return std::make_unique<Image>(state_, device_, array, image_desc_, Image::Array::borrowed,
                                   surface_);
  } catch (...) {
    unmap_after_failure(stream);
    throw;
  }
}

void GlResource::unmap(backend::QueueAdapter& queue) {
  if (!mapped_) throw LogicError("the registered GL object is not mapped");
  const CUstream stream = stream_of(queue);
  ScopedContext current((*state_)[device_].context);
  CU_CHECK(cuGraphicsUnmapResources(1, &resource_, stream));
  mapped_ = false;
}

std::unique_ptr<GlResource> register_gl_buffer(const std::shared_ptr<ContextState>& state,
                                               std::size_t device, unsigned int name,
                                               GlAccess access) {
  require_gl_interop();
  ScopedContext current((*state)[device].context);
  CUgraphicsResource resource = nullptr;
  CU_CHECK(cuGraphicsGLRegisterBuffer(&resource, name, gl_register_flags(access, false)));
  return adopt(state, device, resource, nullptr, access);
}

std::unique_ptr<GlResource> register_gl_texture(const std::shared_ptr<ContextState>& state,
                                                std::size_t device, const GlTextureDesc& texture,
                                                GlAccess access) {
  require_gl_interop();
  if (texture.level < 0)
    throw LogicError("GL texture " + std::to_string(texture.name) + " has no mipmap level " +
                     std::to_string(texture.level));
  if (texture.type == ImageType::image1d || texture.type == ImageType::image1d_array)
    throw LogicError("GL texture " + std::to_string(texture.name) +
                     " is a 1-D texture: CUDA registers GL_TEXTURE_2D, GL_TEXTURE_3D and "
                     "GL_TEXTURE_2D_ARRAY textures, not GL_TEXTURE_1D or GL_TEXTURE_1D_ARRAY "
                     "(cuGraphicsGLRegisterImage)");
  ScopedContext current((*state)[device].context);
  CUgraphicsResource resource = nullptr;
  CU_CHECK(cuGraphicsGLRegisterImage(&resource, texture.name, texture.target,
                                     gl_register_flags(access, true)));
  return adopt(state, device, resource, &texture, access);
}

}  // namespace plinth::cuda
