#pragma once

// SDK 1.9 on HIP, as on CUDA (backends/cuda/gl_interop.hpp): a GL buffer or texture is
// registered once (hipGraphicsGLRegisterBuffer, hipGraphicsGLRegisterImage) with its device
// current and the GL context current, as a hipGraphicsResource_t; each mapping
// (hipGraphicsMapResources on the queue's stream) lends it to plinth as a Buffer over its
// device pointer or an Image over its hipArray_t, neither owning the memory, until
// hipGraphicsUnmapResources on the queue's stream. Api::create_gl_context() checks with
// hipGLGetDevices that the GL context runs on the devices and returns an ordinary context.
//
// HIP 5.2's hip_runtime_api.h declares every one of these functions, inside its extern "C"
// block, but the plugin does not import them: libamdhip64 exports them from HIP 4.3 (the image
// ones from 4.5, version node hip_4.5), later than anything else the plugin imports (hip_4.2),
// so gl_calls() looks them up by their C names in the runtime the plugin is linked with, and
// a runtime without them still loads the plugin (gl_sharing() then says what it lacks). None
// of this has run: no machine here has an AMD GPU.

#include <plinth/backend/gl_interop.hpp>
#include <plinth/backend/image.hpp>
#include <plinth/gl_types.hpp>

#include <hip/hip_runtime_api.h>

#include <cstddef>
#include <memory>
#include <span>
#include <string>

namespace plinth::hip {

class ContextState;

/// The GL interop functions of the HIP runtime (see the top of this file), null where it
/// lacks one; the members are named and typed as hip_runtime_api.h declares them.
struct GlCalls {
  decltype(&::hipGLGetDevices) hipGLGetDevices = nullptr;
  decltype(&::hipGraphicsGLRegisterBuffer) hipGraphicsGLRegisterBuffer = nullptr;
  decltype(&::hipGraphicsMapResources) hipGraphicsMapResources = nullptr;
  decltype(&::hipGraphicsResourceGetMappedPointer) hipGraphicsResourceGetMappedPointer = nullptr;
  decltype(&::hipGraphicsUnmapResources) hipGraphicsUnmapResources = nullptr;
  decltype(&::hipGraphicsUnregisterResource) hipGraphicsUnregisterResource = nullptr;
  // Textures only:
  decltype(&::hipGraphicsGLRegisterImage) hipGraphicsGLRegisterImage = nullptr;
  decltype(&::hipGraphicsSubResourceGetMappedArray) hipGraphicsSubResourceGetMappedArray = nullptr;
};

/// The GL interop functions of the HIP runtime the plugin is linked with, looked up (dlsym,
/// by C name) on the first call. Never throws; any thread may call it.
const GlCalls& gl_calls();

/// The functions `calls` lacks, by name and comma-separated: of buffers and contexts
/// (hipGLGetDevices, the buffer and mapping functions), or with `textures` of textures too
/// (hipGraphicsGLRegisterImage, hipGraphicsSubResourceGetMappedArray). "" where none is
/// missing. Never throws beyond std::bad_alloc.
std::string missing_gl_functions(const GlCalls& calls, bool textures);

/// Whether the runtime shares with OpenGL: available where gl_calls() has the functions of
/// buffers and contexts (textures may still lack theirs: register_gl_texture() says so).
/// Never throws beyond std::bad_alloc.
GlSharing query_gl_sharing();

/// The hipGraphicsRegisterFlags of a registration for `access`: ReadOnly for read_only,
/// WriteDiscard for write_only, None for read_write; a texture (`texture`) also gets
/// SurfaceLoadStore unless read_only, since kernels store to images.
unsigned int gl_register_flags(GlAccess access, bool texture) noexcept;

/// Why a context on the HIP devices `requested` cannot share with the GL context current on
/// this thread, given what hipGLGetDevices (hipGLDeviceListAll) returned: `result`, and the
/// devices it listed, `listed`. "" where it runs on every one of `requested`. Never throws
/// beyond std::bad_alloc.
std::string gl_device_problem(std::span<const int> requested, hipError_t result,
                              std::span<const int> listed);

/// A registered GL buffer or texture level (a hipGraphicsResource_t of one device of a
/// context), unregistered when destroyed.
class GlResource final : public backend::GlResourceAdapter {
 public:
  /// Adopts `resource`, registered with `device` of `state` current: a buffer's when
  /// `texture` is null, else the texture level `texture` describes, registered for `access`.
  GlResource(std::shared_ptr<ContextState> state, std::size_t device,
             hipGraphicsResource_t resource, const GlTextureDesc* texture,
             GlAccess access) noexcept;
  /// Unmaps the resource if still mapped, then hipGraphicsUnregisterResource with the device
  /// current. Errors are reported, not thrown.
  ~GlResource() override;
  GlResource(const GlResource&) = delete;
  GlResource& operator=(const GlResource&) = delete;

  /// hipGraphicsMapResources on the queue's stream, then hipGraphicsResourceGetMappedPointer:
  /// a Buffer of the whole GL buffer that does not free its memory. Throws LogicError where
  /// the resource is a texture or already mapped, BackendError (the mapping undone).
  std::unique_ptr<backend::BufferAdapter> map_buffer(backend::QueueAdapter& queue) override;
  /// hipGraphicsMapResources on the queue's stream, then hipGraphicsSubResourceGetMappedArray
  /// (array index 0, the registered level): an Image of the level's hipArray_t that does not
  /// destroy it (only its texture and surface objects; no surface where registered
  /// read-only). Throws LogicError where the resource is a buffer or already mapped,
  /// BackendError (the mapping undone).
  std::unique_ptr<backend::ImageAdapter> map_image(backend::QueueAdapter& queue) override;
  /// hipGraphicsUnmapResources on the queue's stream. Throws LogicError where not mapped,
  /// BackendError.
  void unmap(backend::QueueAdapter& queue) override;

 private:
  /// hipGraphicsMapResources on `stream`, with the device current.
  void map(hipStream_t stream);
  /// Undoes map() after a failure that followed it (errors reported, not thrown).
  void unmap_after_failure(hipStream_t stream) noexcept;

  std::shared_ptr<ContextState> state_;
  std::size_t device_;
  hipGraphicsResource_t resource_;
  bool texture_;
  backend::ImageDesc image_desc_;  // a texture's
  unsigned int level_ = 0;         // a texture's mipmap level
  bool writable_ = false;          // a texture not registered read-only
  bool mapped_ = false;
};

/// Registers the GL buffer object `name` with `device` of `state` current, for `access`
/// (hipGraphicsGLRegisterBuffer). Throws LogicError where the runtime lacks a GL interop
/// function, BackendError (e.g. no such buffer in the current GL context).
std::unique_ptr<GlResource> register_gl_buffer(const std::shared_ptr<ContextState>& state,
                                               std::size_t device, unsigned int name,
                                               GlAccess access);

/// Registers the GL texture `texture.name` (of `texture.target`) with `device` of `state`
/// current, for `access` (hipGraphicsGLRegisterImage; a mapping gives `texture.level`).
/// Throws LogicError where the runtime lacks hipGraphicsGLRegisterImage or
/// hipGraphicsSubResourceGetMappedArray (naming them) or another GL interop function, or the
/// level is negative; BackendError.
std::unique_ptr<GlResource> register_gl_texture(const std::shared_ptr<ContextState>& state,
                                                std::size_t device, const GlTextureDesc& texture,
                                                GlAccess access);

}  // namespace plinth::hip
