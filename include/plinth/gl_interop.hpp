#pragma once

/// \file
/// Sharing buffers and textures with OpenGL (PyCUDA's pycuda.gl: RegisteredBuffer,
/// RegisteredImage, RegisteredMapping): a kernel writes a GL buffer or texture in place, and
/// GL draws it without a round trip through the host.
///
///     // a GL context is current on this thread (EGL, headless or not; or GLX)
///     GlContext gl{GlWindowSystem::egl, eglGetCurrentDisplay(), eglGetCurrentContext()};
///     Context context = make_gl_context({device}, gl);  // OpenCL needs such a context
///     Queue queue(context.devices()[0]);
///     GlBuffer vertices(context.devices()[0], vbo, GlAccess::write_only);
///     {
///       GlBufferMapping mapped = vertices.map(queue);   // after the GL work issued so far
///       kernel(queue, global, local, mapped.buffer());
///     }                                                 // unmapped: GL may draw it now
///
/// Which APIs share: CUDA (cuGraphicsGLRegisterBuffer/Image; any context of the device that
/// runs the GL context) and OpenCL where the platform has cl_khr_gl_sharing (the context must
/// come from make_gl_context()); HIP is built for it but was never run; Level Zero, PoCL and
/// plugins of SDK 1.8 and older refuse, and gl_sharing() says why. plinth loads no GL
/// library: the process has one (libEGL, libOpenGL or libGL) loaded, and the calls below
/// that say so need the GL context current on the calling thread.
///
/// A mapped object belongs to plinth's queue until unmapped: GL must not use it meanwhile,
/// and the Buffer or Image of a mapping must not be used after its unmap (its memory is
/// GL's again; the vendor may not notice).

#include <plinth/context.hpp>
#include <plinth/detail/access.hpp>
#include <plinth/export.hpp>
#include <plinth/gl_types.hpp>
#include <plinth/image.hpp>
#include <plinth/queue.hpp>

#include <memory>
#include <vector>

namespace plinth {

class Buffer;

namespace detail {
struct GlResourceImpl;
struct GlMappingImpl;
}  // namespace detail

/// Whether `device` can register and map GL objects, or why not (the backend, the platform's
/// missing cl_khr_gl_sharing, an OpenCL context not made by make_gl_context(), a plugin
/// before SDK 1.9). Never throws beyond std::bad_alloc. Any thread.
PLINTH_EXPORT GlSharing gl_sharing(const BoundDevice& device);

/// A context on `devices` (at least one, of one platform) that shares objects with `gl`,
/// which must be current on the calling thread. OpenCL needs it for GL sharing
/// (CL_GL_CONTEXT_KHR with the EGL or GLX display); on CUDA it is an ordinary context, after
/// checking that the GL context runs on these devices. Throws LogicError naming why the
/// devices cannot share with `gl` (null handles, a backend or platform without GL sharing, a
/// GL context on another GPU), BackendError.
PLINTH_EXPORT Context make_gl_context(const std::vector<Device>& devices, const GlContext& gl);

/// A mapping of a GlBuffer: the GL buffer object as a plinth Buffer, for the work of one
/// queue. Unmapped by unmap() or, failing that, its destructor. Move-only; one thread at a
/// time.
class PLINTH_EXPORT GlBufferMapping {
 public:
  /// The whole GL buffer, valid until unmap(). Throws LogicError once unmapped.
  const Buffer& buffer() const;
  /// Unmaps after the work enqueued on the mapping's queue so far; GL commands issued after
  /// this call see its results. Needs the GL context current. Throws LogicError if already
  /// unmapped, BackendError.
  void unmap();
  /// Whether unmap() has not yet been called.
  bool mapped() const noexcept;
  /// Unmaps if still mapped (errors are reported to the log, not thrown).
  ~GlBufferMapping();
  ///@{
  /// Moves the mapping; the moved-from object is unmapped and holds nothing. Assigning first
  /// unmaps what the target held.
  GlBufferMapping(GlBufferMapping&&) noexcept;
  GlBufferMapping& operator=(GlBufferMapping&&) noexcept;
  ///@}

 private:
  friend struct detail::Access;

  explicit GlBufferMapping(std::unique_ptr<detail::GlMappingImpl> impl);

  std::unique_ptr<detail::GlMappingImpl> impl_;
};

/// A mapping of a GlTexture: the texture level as a plinth Image. As GlBufferMapping.
class PLINTH_EXPORT GlTextureMapping {
 public:
  /// The texture level, valid until unmap(). Throws LogicError once unmapped.
  const Image& image() const;
  /// As GlBufferMapping::unmap().
  void unmap();
  /// Whether unmap() has not yet been called.
  bool mapped() const noexcept;
  /// Unmaps if still mapped (errors are reported to the log, not thrown).
  ~GlTextureMapping();
  ///@{
  /// Moves the mapping; the moved-from object is unmapped and holds nothing. Assigning first
  /// unmaps what the target held.
  GlTextureMapping(GlTextureMapping&&) noexcept;
  GlTextureMapping& operator=(GlTextureMapping&&) noexcept;
  ///@}

 private:
  friend struct detail::Access;

  explicit GlTextureMapping(std::unique_ptr<detail::GlMappingImpl> impl);

  std::unique_ptr<detail::GlMappingImpl> impl_;
};

/// A GL buffer object registered with a device of a context (cuGraphicsGLRegisterBuffer,
/// clCreateFromGLBuffer): map() lends it to a queue. Cheap to copy (shared handle);
/// unregistered with the last copy and the last mapping. The GL object itself stays GL's:
/// delete it only after the last copy has gone.
class PLINTH_EXPORT GlBuffer {
 public:
  /// Registers GL buffer `name` of the context current on the calling thread. Throws
  /// LogicError when gl_sharing(device) is not available (saying why) or `name` is 0,
  /// BackendError when the vendor refuses (e.g. `name` is no buffer of that GL context).
  GlBuffer(const BoundDevice& device, unsigned name, GlAccess access = GlAccess::read_write);
  /// Maps the buffer for `queue` (of the registering device): work enqueued on it after this
  /// call sees what GL issued before (issue glFinish() first where the platform has no
  /// implicit GL synchronisation). Needs the GL context current. Throws LogicError for a
  /// queue of another device or while a mapping of this buffer is live, BackendError.
  GlBufferMapping map(const Queue& queue) const;
  ///@{
  /// The GL buffer's name, the device and the access it was registered with.
  unsigned name() const noexcept;
  const BoundDevice& device() const noexcept;
  GlAccess access() const noexcept;
  ///@}

 private:
  std::shared_ptr<detail::GlResourceImpl> impl_;
};

/// A GL texture level registered with a device of a context (cuGraphicsGLRegisterImage,
/// clCreateFromGLTexture), as GlBuffer. Its type, format and size are read from GL when it is
/// registered: GL_TEXTURE_1D, 2D, 3D, 1D_ARRAY and 2D_ARRAY textures of the internal formats
/// with a plinth ImageFormat (GL_R8, GL_RG16F, GL_RGBA32F, GL_RGBA8UI, ...: R, RG or RGBA of
/// the channel types of image_format.hpp). CUDA takes 2-D, 3-D and 2-D array textures only
/// (cuGraphicsGLRegisterImage refuses 1-D ones; plinth says so).
class PLINTH_EXPORT GlTexture {
 public:
  /// Registers level `level` of GL texture `name`, whose target is `target` (GL_TEXTURE_2D:
  /// 0x0DE1, ...), of the GL context current on the calling thread. Throws LogicError when
  /// gl_sharing(device) is not available, `name` is 0, the target is not one of the five, the
  /// texture's internal format has no plinth ImageFormat or the device has no images of it
  /// (naming the format), or no GL library is loaded; BackendError when the vendor refuses.
  GlTexture(const BoundDevice& device, unsigned name, unsigned target, int level = 0,
            GlAccess access = GlAccess::read_write);
  /// As GlBuffer::map(), giving an Image.
  GlTextureMapping map(const Queue& queue) const;
  ///@{
  /// The GL texture's name, target and level, the device and the access it was registered
  /// with.
  unsigned name() const noexcept;
  unsigned target() const noexcept;
  int level() const noexcept;
  const BoundDevice& device() const noexcept;
  GlAccess access() const noexcept;
  ///@}
  ///@{
  /// What the texture level holds, as read from GL at registration.
  ImageType type() const noexcept;
  ImageFormat format() const noexcept;
  ImageExtent extent() const noexcept;
  ///@}
  /// The GL internal format (GL_RGBA8, ...).
  unsigned internal_format() const noexcept;

 private:
  std::shared_ptr<detail::GlResourceImpl> impl_;
};

}  // namespace plinth
