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
/// Made by ContextAdapter::register_gl_buffer() or register_gl_texture(). The core maps it
/// at most once at a time, unmaps it before destroying it, and calls every method with the
/// GL context current on the calling thread, from one thread at a time per resource.
class GlResourceAdapter {
 public:
  virtual ~GlResourceAdapter() = default;
  /// Maps a registered buffer for the work of `queue` (of the registering device): work
  /// enqueued on `queue` after this call sees what GL issued before it (the caller has
  /// issued glFlush/glFinish as its API requires). Returns a buffer adapter of the whole GL
  /// buffer that does not own the memory, valid until unmap() (CUDA:
  /// cuGraphicsMapResources, cuGraphicsResourceGetMappedPointer; OpenCL:
  /// clEnqueueAcquireGLObjects). Called only on resources of register_gl_buffer(). Throws
  /// BackendError.
  virtual std::unique_ptr<BufferAdapter> map_buffer(QueueAdapter& queue) = 0;
  /// The same for a registered texture level: an image adapter of it (what a kernel
  /// receives, as ImageAdapter::kernel_arg() says), not owning it, valid until unmap().
  /// Called only on resources of register_gl_texture(). Throws BackendError.
  virtual std::unique_ptr<ImageAdapter> map_image(QueueAdapter& queue) = 0;
  /// Ends the mapping, after the work enqueued on `queue` before this call: GL sees its
  /// results in GL commands issued after the call returns (CUDA: cuGraphicsUnmapResources;
  /// OpenCL: clEnqueueReleaseGLObjects, then clFinish where the platform lacks
  /// cl_khr_gl_event). The adapters map_buffer()/map_image() returned are destroyed before
  /// this call. Throws BackendError.
  virtual void unmap(QueueAdapter& queue) = 0;
};

}  // namespace plinth::backend
