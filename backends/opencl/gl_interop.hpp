#pragma once

// SDK 1.9 on OpenCL: sharing with OpenGL through cl_khr_gl_sharing. A context shares only if
// it was made with the GL context's handles (CL_GL_CONTEXT_KHR with CL_EGL_DISPLAY_KHR or
// CL_GLX_DISPLAY_KHR: create_gl_context()); GL buffers and texture levels then become cl_mem
// objects (clCreateFromGLBuffer, clCreateFromGLTexture) that a queue acquires and releases
// around its work (clEnqueueAcquireGLObjects, clEnqueueReleaseGLObjects).
//
// clGetGLContextInfoKHR is an extension function, looked up per platform with
// clGetExtensionFunctionAddressForPlatform. The other four are in the ICD loader's exports
// (cl_gl.h; ocl-icd and the Khronos loader both have them), which dispatch on the object's
// platform like every other call of the backend.
//
// The spec asks the application to finish its GL work (glFinish) before acquiring where the
// platform has no cl_khr_gl_event; plinth calls no GL function, and the public header leaves it
// to the user.

#include "dialect_support.hpp"

#include <plinth/backend/gl_interop.hpp>
#include <plinth/gl_types.hpp>

#include <CL/cl.h>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace plinth::opencl {

class Context;

/// Why a device cannot register and map GL objects, from its platform's name (`platform`),
/// its name (`device`), its CL_DEVICE_EXTENSIONS (`extensions`) and whether its context was
/// made by create_gl_context() (`gl_context`); "" where it can. Throws only std::bad_alloc.
inline std::string gl_sharing_problem(bool gl_context, const std::string& platform,
                                      const std::string& device, const std::string& extensions) {
  if (!has_extension(extensions, "cl_khr_gl_sharing"))
    return "OpenCL platform '" + platform + "' has no cl_khr_gl_sharing (its device '" + device +
           "' does not list it), so it cannot share with OpenGL";
  if (!gl_context)
    return "this OpenCL context was not made with a GL context: make it with make_gl_context()";
  return {};
}

/// A context on `devices` (of one platform) that shares with `gl` (ApiAdapter::
/// create_gl_context()): checks the handles and cl_khr_gl_sharing, asks clGetGLContextInfoKHR
/// which devices can share with `gl`, then clCreateContext with CL_GL_CONTEXT_KHR, the EGL or
/// GLX display and CL_CONTEXT_PLATFORM. Throws LogicError naming why the devices cannot share
/// with `gl` (null handles, no cl_khr_gl_sharing, a device clGetGLContextInfoKHR does not list,
/// a platform that refuses the GL context), OutOfMemoryError, BackendError.
std::unique_ptr<Context> create_gl_context(std::vector<cl_device_id> devices, const GlContext& gl);

/// ContextAdapter::gl_sharing() of `device`, in a context made with a GL context or not
/// (`gl_context`). Never throws beyond std::bad_alloc: a failed query is the reason.
GlSharing query_gl_sharing(cl_device_id device, bool gl_context);

/// A GL buffer object or texture level as a cl_mem (one reference owned), registered for one
/// device: mapping acquires it on a queue of that device, unmapping releases it.
class GlResource final : public backend::GlResourceAdapter {
 public:
  /// What a mapping hands out: a buffer of `size` bytes whose sub-buffers need `alignment`
  /// (CL_DEVICE_MEM_BASE_ADDR_ALIGN in bytes), or an image of `pixel_size`-byte pixels.
  struct Shape {
    bool image = false;
    std::size_t size = 0;
    std::size_t alignment = 1;
    std::size_t pixel_size = 0;
  };

  /// Adopts `memory`'s reference. `gl_event`: the device has cl_khr_gl_event, whose acquire
  /// and release synchronise with GL by themselves.
  GlResource(cl_mem memory, const Shape& shape, bool gl_event) noexcept
      : memory_(memory), shape_(shape), gl_event_(gl_event) {}
  GlResource(const GlResource&) = delete;
  GlResource& operator=(const GlResource&) = delete;
  /// Releases the cl_mem (the core unmapped it before).
  ~GlResource() override;

  /// Acquires the buffer on `queue`, then returns a Buffer of all of it that holds its own
  /// reference to the cl_mem. Throws LogicError for a texture, BackendError.
  std::unique_ptr<backend::BufferAdapter> map_buffer(backend::QueueAdapter& queue) override;
  /// Acquires the texture level on `queue`, then returns an Image of it that holds its own
  /// reference to the cl_mem. Throws LogicError for a buffer, BackendError.
  std::unique_ptr<backend::ImageAdapter> map_image(backend::QueueAdapter& queue) override;
  /// clEnqueueReleaseGLObjects on `queue`, then clFinish unless the device has
  /// cl_khr_gl_event. Throws BackendError.
  void unmap(backend::QueueAdapter& queue) override;

  cl_mem memory() const noexcept { return memory_; }

 private:
  cl_mem memory_;
  Shape shape_;
  bool gl_event_;
};

/// clCreateFromGLBuffer of GL buffer `name` in `context` for `device` (`alignment`: its
/// CL_DEVICE_MEM_BASE_ADDR_ALIGN in bytes), with the CL_MEM_* flags of `access`. Throws
/// OutOfMemoryError, BackendError (e.g. CL_INVALID_GL_OBJECT: `name` is no buffer of the
/// context's GL context).
std::unique_ptr<GlResource> register_gl_buffer(cl_context context, cl_device_id device,
                                               unsigned name, GlAccess access,
                                               std::size_t alignment);

/// clCreateFromGLTexture of the level `texture` describes, in `context` for `device`, with
/// the CL_MEM_* flags of `access`. Throws LogicError where OpenCL's pixels are not the size
/// of `texture.format`'s, OutOfMemoryError, BackendError.
std::unique_ptr<GlResource> register_gl_texture(cl_context context, cl_device_id device,
                                                const GlTextureDesc& texture, GlAccess access);

}  // namespace plinth::opencl
