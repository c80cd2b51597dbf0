#pragma once

// SDK 1.9 on CUDA: sharing with OpenGL. A GL buffer or texture is registered once
// (cuGraphicsGLRegisterBuffer, cuGraphicsGLRegisterImage) in the context of a device, with the
// GL context current, as a CUgraphicsResource; each mapping (cuGraphicsMapResources on the
// queue's stream) lends it to plinth as a Buffer over its CUdeviceptr or an Image over its
// CUarray, neither owning the memory, until cuGraphicsUnmapResources on the queue's stream.
// Any context of the device that runs the GL context shares: Api::create_gl_context() checks
// that with cuGLGetDevices and returns an ordinary context. The graphics functions are
// optional in the driver table (driver.hpp): a driver without them still loads the plugin, and
// gl_sharing() says why it cannot share.

#include <plinth/backend/gl_interop.hpp>
#include <plinth/backend/image.hpp>
#include <plinth/gl_types.hpp>

#include <cuda.h>

#include <cstddef>
#include <memory>

namespace plinth::cuda {

class ContextState;

/// The CU_GRAPHICS_REGISTER_FLAGS_* of a registration for `access`: READ_ONLY for read_only,
/// WRITE_DISCARD for write_only, NONE for read_write; a texture (`texture`) also gets
/// SURFACE_LDST unless read_only, since kernels write images through surface objects.
unsigned int gl_register_flags(GlAccess access, bool texture) noexcept;

/// Whether the loaded driver has the graphics interop functions (driver.hpp), or which it
/// lacks ("the CUDA driver has no OpenGL interop (libcuda.so.1 lacks ...)"). Never throws
/// beyond std::bad_alloc.
GlSharing query_gl_sharing();

/// A registered GL buffer or texture level (a CUgraphicsResource in the context of one device
/// of a context), unregistered when destroyed.
class GlResource final : public backend::GlResourceAdapter {
 public:
  /// Adopts `resource`, registered in the context of `device` of `state`: a buffer's when
  /// `texture` is null, else the texture level `texture` describes, registered for `access`.
  GlResource(std::shared_ptr<ContextState> state, std::size_t device, CUgraphicsResource resource,
             const GlTextureDesc* texture, GlAccess access) noexcept;
  /// Unmaps the resource if still mapped, then cuGraphicsUnregisterResource in the device's
  /// context. Errors are reported, not thrown.
  ~GlResource() override;
  GlResource(const GlResource&) = delete;
  GlResource& operator=(const GlResource&) = delete;

  /// cuGraphicsMapResources on the queue's stream, then cuGraphicsResourceGetMappedPointer:
  /// a Buffer of the whole GL buffer that does not free its memory. Throws LogicError where
  /// the resource is a texture or already mapped, BackendError (the mapping undone).
  std::unique_ptr<backend::BufferAdapter> map_buffer(backend::QueueAdapter& queue) override;
  /// cuGraphicsMapResources on the queue's stream, then the registered level's CUarray:
  /// cuGraphicsSubResourceGetMappedArray (array index 0), or for a layered texture, whose
  /// array indices are its layers, cuGraphicsResourceGetMappedMipmappedArray and
  /// cuMipmappedArrayGetLevel (the layered array). Returns an Image of it that does not
  /// destroy it (only its texture and surface objects; no surface object where registered
  /// read-only). Throws LogicError where the resource is a buffer or already mapped,
  /// BackendError (the mapping undone).
  std::unique_ptr<backend::ImageAdapter> map_image(backend::QueueAdapter& queue) override;
  /// cuGraphicsUnmapResources on the queue's stream. Throws LogicError where not mapped,
  /// BackendError.
  void unmap(backend::QueueAdapter& queue) override;

  CUgraphicsResource resource() const noexcept { return resource_; }
  /// Whether the resource is mapped (map_buffer()/map_image() without unmap() since).
  bool mapped() const noexcept { return mapped_; }

 private:
  /// cuGraphicsMapResources on `stream`, in the device's context (current for the call).
  void map(CUstream stream);
  /// Undoes map() after a failure that followed it (errors reported, not thrown).
  void unmap_after_failure(CUstream stream) noexcept;

  std::shared_ptr<ContextState> state_;
  std::size_t device_;
  CUgraphicsResource resource_;
  bool texture_;
  backend::ImageDesc image_desc_;  // a texture's
  unsigned int level_ = 0;         // a texture's mipmap level
  bool surface_ = false;           // a texture registered with SURFACE_LDST
  bool mapped_ = false;
};

/// Registers the GL buffer object `name` in the context of `device` of `state` for
/// `access` (cuGraphicsGLRegisterBuffer). Throws LogicError where the driver has no GL
/// interop, BackendError (e.g. no such buffer in the current GL context).
std::unique_ptr<GlResource> register_gl_buffer(const std::shared_ptr<ContextState>& state,
                                               std::size_t device, unsigned int name,
                                               GlAccess access);

/// Registers the GL texture `texture.name` (of `texture.target`) in the context of `device`
/// of `state` for `access` (cuGraphicsGLRegisterImage; CUDA registers the whole texture, and
/// a mapping gives `texture.level`). Throws LogicError where the driver has no GL interop,
/// the level is negative or the texture is 1-D (cuGraphicsGLRegisterImage takes 2-D, 3-D and
/// 2-D array textures, not GL_TEXTURE_1D or GL_TEXTURE_1D_ARRAY), BackendError (e.g. a format
/// CUDA cannot register).
std::unique_ptr<GlResource> register_gl_texture(const std::shared_ptr<ContextState>& state,
                                                std::size_t device, const GlTextureDesc& texture,
                                                GlAccess access);

}  // namespace plinth::cuda
