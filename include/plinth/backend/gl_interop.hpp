#pragma once

// SDK 1.9: sharing with OpenGL (include/plinth/gl_interop.hpp). A backend that shares answers
// ContextAdapter::gl_sharing() and implements ApiAdapter::create_gl_context(),
// ContextAdapter::register_gl_buffer()/register_gl_texture() and this adapter; every one of
// them is optional, and the defaults say the backend does not share with OpenGL.

#include <plinth/backend/buffer.hpp>
#include <plinth/backend/image.hpp>
#include <plinth/gl_types.hpp>

#include <memory>

namespace plinth::backend {

class QueueAdapter;

/// A GL buffer object or texture level registered with a context for one device (CUDA: a
/// CUgraphicsResource; OpenCL: the cl_mem of clCreateFromGLBuffer()/clCreateFromGLTexture()).
///
/// Made by ContextAdapter::register_gl_buffer() or register_gl_texture(). The core maps it
/// at most once at a time, calls every method with the GL context current on the calling
/// thread (the user promises that), from one thread at a time per resource, and unmaps it
/// before destroying it (the destructor unregisters it). The core refuses GL interop on
/// plugins before 1.9.
class GlResourceAdapter {
 public:
  virtual ~GlResourceAdapter() = default;
  /// Maps a registered buffer for the work of `queue`, and returns a new buffer adapter of
  /// the whole GL buffer that owns nothing, valid until unmap().
  ///
  /// Called by GlBuffer::map() with a queue of the registering device, only on resources of
  /// register_gl_buffer(). Work enqueued on `queue` after this call sees what GL issued before
  /// it (the user has called glFinish() where the API asks for it). The core reads the
  /// buffer's size from the result (BufferAdapter::size()) and refuses a null one (CUDA:
  /// cuGraphicsMapResources on the queue's stream, cuGraphicsResourceGetMappedPointer;
  /// OpenCL: clEnqueueAcquireGLObjects). Throws BackendError. Since SDK 1.9; required of
  /// registered buffers.
  virtual std::unique_ptr<BufferAdapter> map_buffer(QueueAdapter& queue) = 0;
  /// As map_buffer(), for a registered texture level: returns the backend's own image
  /// adapter class over the mapped level, not owning it, valid until unmap().
  ///
  /// Called by GlTexture::map(), only on resources of register_gl_texture(). The queue's
  /// image copies and kernel arguments take the result as any image (CUDA:
  /// cuGraphicsSubResourceGetMappedArray, an array the adapter must not destroy). Throws
  /// BackendError. Since SDK 1.9; required of registered textures.
  virtual std::unique_ptr<ImageAdapter> map_image(QueueAdapter& queue) = 0;
  /// Ends the mapping, after the work enqueued on `queue` before this call: GL commands
  /// issued after it returns see the queue's work.
  ///
  /// Called by the mappings' unmap() and destructors, with the queue the mapping was made
  /// on. The adapters map_buffer()/map_image() returned are destroyed before the call unless
  /// the user still holds the Buffer or Image; they are then destroyed later and must not be
  /// used (CUDA: cuGraphicsUnmapResources on the stream; OpenCL: clEnqueueReleaseGLObjects,
  /// then clFinish where the device lacks cl_khr_gl_event). Throws BackendError; the resource
  /// counts as unmapped all the same. Since SDK 1.9; required.
  virtual void unmap(QueueAdapter& queue) = 0;
};

}  // namespace plinth::backend
