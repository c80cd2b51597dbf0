#include "gl_interop.hpp"

#include "buffer.hpp"
#include "context.hpp"
#include "device.hpp"
#include "error.hpp"
#include "image.hpp"
#include "platform.hpp"

#include <plinth/errors.hpp>

#include <CL/cl_gl.h>

#include <algorithm>

namespace plinth::opencl {

namespace {

// "EGL context" or "GLX context", for messages.
std::string gl_context_words(const GlContext& gl) {
  return gl.system == GlWindowSystem::egl ? "EGL context" : "GLX context";
}

// The CL_MEM_* flags of a registration.
cl_mem_flags gl_mem_flags(GlAccess access) {
  switch (access) {
    case GlAccess::read_only: return CL_MEM_READ_ONLY;
    case GlAccess::write_only: return CL_MEM_WRITE_ONLY;
    case GlAccess::read_write: break;
  }
  return CL_MEM_READ_WRITE;
}

// Whether `device` lists cl_khr_gl_event. Throws BackendError.
bool gl_event_extension(cl_device_id device) {
  return has_extension(device_string(device, CL_DEVICE_EXTENSIONS), "cl_khr_gl_event");
}

// The command queue of a queue adapter of this backend.
cl_command_queue gl_command_queue(backend::QueueAdapter& queue) {
  return reinterpret_cast<cl_command_queue>(queue.native_handle());
}

// Codes of a GL call that say the driver ran out of memory rather than refused: they stay
// OutOfMemoryError.
bool gl_out_of_memory(cl_int code) {
  return code == CL_OUT_OF_HOST_MEMORY || code == CL_OUT_OF_RESOURCES ||
         code == CL_MEM_OBJECT_ALLOCATION_FAILURE;
}

// "CL_INVALID_PROPERTY (-64)", for messages.
std::string gl_code_words(cl_int code) {
  return std::string(code_name(code)) + " (" + std::to_string(code) + ")";
}

// The devices clGetGLContextInfoKHR(CL_DEVICES_FOR_GL_CONTEXT_KHR) lists for `properties`.
// Throws LogicError naming what it returned when it fails (OutOfMemoryError for the codes
// of gl_out_of_memory()).
std::vector<cl_device_id> gl_context_devices(clGetGLContextInfoKHR_fn get_info,
                                             const cl_context_properties* properties,
                                             const std::string& platform, const GlContext& gl) {
  const auto refuse = [&](cl_int code) {
    if (gl_out_of_memory(code)) check_alloc(code, "clGetGLContextInfoKHR");
    std::string message =
        "OpenCL platform '" + platform + "' cannot share with this " + gl_context_words(gl) +
        ": clGetGLContextInfoKHR(CL_DEVICES_FOR_GL_CONTEXT_KHR) returned " + gl_code_words(code);
    if (gl.system == GlWindowSystem::egl && code == CL_INVALID_PROPERTY)
      message += " (the platform may not take EGL displays: CL_EGL_DISPLAY_KHR)";
    throw LogicError(message);
  };
  std::size_t size = 0;
  cl_int code = get_info(properties, CL_DEVICES_FOR_GL_CONTEXT_KHR, 0, nullptr, &size);
  if (code != CL_SUCCESS) refuse(code);
  std::vector<cl_device_id> devices(size / sizeof(cl_device_id));
  if (devices.empty()) return devices;
  code = get_info(properties, CL_DEVICES_FOR_GL_CONTEXT_KHR, devices.size() * sizeof(cl_device_id),
                  devices.data(), nullptr);
  if (code != CL_SUCCESS) refuse(code);
  return devices;
}

}  // namespace

std::unique_ptr<Context> create_gl_context(std::vector<cl_device_id> devices, const GlContext& gl) {
  if (gl.system != GlWindowSystem::egl && gl.system != GlWindowSystem::glx)
    throw LogicError("OpenCL shares only with EGL and GLX contexts, not window system " +
                     std::to_string(static_cast<int>(gl.system)));
  const bool egl = gl.system == GlWindowSystem::egl;
  if (gl.display == nullptr)
    throw LogicError(std::string("the GL context to share with has a null ") +
                     (egl ? "EGLDisplay" : "X11 Display*"));
  if (gl.context == nullptr)
    throw LogicError(std::string("the GL context to share with has a null ") +
                     (egl ? "EGLContext" : "GLXContext"));
  if (devices.empty()) throw LogicError("an OpenCL context needs at least one device");
  const auto platform = device_value<cl_platform_id>(devices.front(), CL_DEVICE_PLATFORM);
  const auto platform_name = platform_string(platform, CL_PLATFORM_NAME);
  for (auto device : devices) {
    const auto problem =
        gl_sharing_problem(true, platform_name, device_string(device, CL_DEVICE_NAME),
                           device_string(device, CL_DEVICE_EXTENSIONS));
    if (!problem.empty()) throw LogicError(problem);
  }
  const auto get_info = reinterpret_cast<clGetGLContextInfoKHR_fn>(
      clGetExtensionFunctionAddressForPlatform(platform, "clGetGLContextInfoKHR"));
  if (get_info == nullptr)
    throw LogicError("OpenCL platform '" + platform_name +
                     "' lists cl_khr_gl_sharing but gives no clGetGLContextInfoKHR");

  const cl_context_properties properties[] = {CL_GL_CONTEXT_KHR,
                                              reinterpret_cast<cl_context_properties>(gl.context),
                                              egl ? CL_EGL_DISPLAY_KHR : CL_GLX_DISPLAY_KHR,
                                              reinterpret_cast<cl_context_properties>(gl.display),
                                              CL_CONTEXT_PLATFORM,
                                              reinterpret_cast<cl_context_properties>(platform),
                                              0};
  const auto sharing = gl_context_devices(get_info, properties, platform_name, gl);
  for (auto device : devices) {
    if (std::find(sharing.begin(), sharing.end(), device) != sharing.end()) continue;
    std::string listed;
    for (auto other : sharing)
      listed += (listed.empty() ? "'" : ", '") + device_string(other, CL_DEVICE_NAME) + "'";
    throw LogicError(
        "OpenCL device '" + device_string(device, CL_DEVICE_NAME) + "' cannot share with this " +
        gl_context_words(gl) + ": clGetGLContextInfoKHR(CL_DEVICES_FOR_GL_CONTEXT_KHR) lists " +
        (listed.empty() ? "no device" : "only " + listed) + " of platform '" + platform_name + "'");
  }

  cl_int code = CL_SUCCESS;
  cl_context context = clCreateContext(properties, static_cast<cl_uint>(devices.size()),
                                       devices.data(), nullptr, nullptr, &code);
  if (code != CL_SUCCESS && !gl_out_of_memory(code)) {
    // NVIDIA's platform, for one, may list cl_khr_gl_sharing and still take only GLX.
    throw LogicError("OpenCL platform '" + platform_name + "' refuses sharing with " +
                     (egl ? "an EGL context" : "a GLX context") + ": clCreateContext returned " +
                     gl_code_words(code));
  }
  check_alloc(code, "clCreateContext");
  return Context::adopt(context, std::move(devices), true);
}

GlSharing query_gl_sharing(cl_device_id device, bool gl_context) {
  GlSharing sharing;
  try {
    const auto platform = device_value<cl_platform_id>(device, CL_DEVICE_PLATFORM);
    sharing.reason = gl_sharing_problem(gl_context, platform_string(platform, CL_PLATFORM_NAME),
                                        device_string(device, CL_DEVICE_NAME),
                                        device_string(device, CL_DEVICE_EXTENSIONS));
  } catch (const Error& error) {
    sharing.reason =
        std::string("the OpenCL device's extensions could not be read: ") + error.what();
  }
  sharing.available = sharing.reason.empty();
  return sharing;
}

GlResource::~GlResource() { PLINTH_CHECK_IN_DESTRUCTOR(clReleaseMemObject(memory_)); }

std::unique_ptr<backend::BufferAdapter> GlResource::map_buffer(backend::QueueAdapter& queue) {
  if (shape_.image) throw LogicError("a registered GL texture cannot be mapped as a buffer");
  PLINTH_CHECK(clRetainMemObject(memory_));
  std::unique_ptr<Buffer> buffer;
  try {
    buffer = std::make_unique<Buffer>(memory_, memory_, 0, shape_.size, shape_.alignment);
  } catch (...) {
    PLINTH_CHECK_IN_DESTRUCTOR(clReleaseMemObject(memory_));
    throw;
  }
  // On failure `buffer` gives its reference back.
  PLINTH_CHECK(
      clEnqueueAcquireGLObjects(gl_command_queue(queue), 1, &memory_, 0, nullptr, nullptr));
  return buffer;
}

std::unique_ptr<backend::ImageAdapter> GlResource::map_image(backend::QueueAdapter& queue) {
  if (!shape_.image) throw LogicError("a registered GL buffer cannot be mapped as an image");
  PLINTH_CHECK(clRetainMemObject(memory_));
  std::unique_ptr<Image> image;
  try {
    image = std::make_unique<Image>(memory_, shape_.pixel_size);
  } catch (...) {
    PLINTH_CHECK_IN_DESTRUCTOR(clReleaseMemObject(memory_));
    throw;
  }
  PLINTH_CHECK(
      clEnqueueAcquireGLObjects(gl_command_queue(queue), 1, &memory_, 0, nullptr, nullptr));
  return image;
}

void GlResource::unmap(backend::QueueAdapter& queue) {
  const cl_command_queue handle = gl_command_queue(queue);
  PLINTH_CHECK(clEnqueueReleaseGLObjects(handle, 1, &memory_, 0, nullptr, nullptr));
  // With cl_khr_gl_event the release itself synchronises with the GL context current on this
  // thread: GL commands issued after it returns wait for the work before it. Without it, GL
  // may use the object only once that work has finished.
  if (!gl_event_) PLINTH_CHECK(clFinish(handle));
}

std::unique_ptr<GlResource> register_gl_buffer(cl_context context, cl_device_id device,
                                               unsigned name, GlAccess access,
                                               std::size_t alignment) {
  const bool gl_event = gl_event_extension(device);
  cl_int code = CL_SUCCESS;
  cl_mem memory = clCreateFromGLBuffer(context, gl_mem_flags(access), name, &code);
  if (code != CL_SUCCESS && !gl_out_of_memory(code))
    throw_error(code, "clCreateFromGLBuffer", "GL buffer object " + std::to_string(name));
  check_alloc(code, "clCreateFromGLBuffer");
  GlResource::Shape shape;
  shape.alignment = alignment;
  code = clGetMemObjectInfo(memory, CL_MEM_SIZE, sizeof(shape.size), &shape.size, nullptr);
  if (code != CL_SUCCESS) {
    PLINTH_CHECK_IN_DESTRUCTOR(clReleaseMemObject(memory));
    throw_error(code, "clGetMemObjectInfo",
                "CL_MEM_SIZE of GL buffer object " + std::to_string(name));
  }
  try {
    return std::make_unique<GlResource>(memory, shape, gl_event);
  } catch (...) {
    PLINTH_CHECK_IN_DESTRUCTOR(clReleaseMemObject(memory));
    throw;
  }
}

std::unique_ptr<GlResource> register_gl_texture(cl_context context, cl_device_id device,
                                                const GlTextureDesc& texture, GlAccess access) {
  const bool gl_event = gl_event_extension(device);
  const std::string what =
      "level " + std::to_string(texture.level) + " of GL texture " + std::to_string(texture.name);
  cl_int code = CL_SUCCESS;
  cl_mem memory = clCreateFromGLTexture(
      context, gl_mem_flags(access), static_cast<cl_GLenum>(texture.target),
      static_cast<cl_GLint>(texture.level), static_cast<cl_GLuint>(texture.name), &code);
  if (code != CL_SUCCESS && !gl_out_of_memory(code))
    throw_error(code, "clCreateFromGLTexture", what);
  check_alloc(code, "clCreateFromGLTexture");
  std::unique_ptr<GlResource> resource;
  try {
    GlResource::Shape shape;
    shape.image = true;
    shape.pixel_size = texture.format.pixel_size();
    resource = std::make_unique<GlResource>(memory, shape, gl_event);
  } catch (...) {
    PLINTH_CHECK_IN_DESTRUCTOR(clReleaseMemObject(memory));
    throw;
  }
  // The image copies count bytes by the core's format: OpenCL's must agree.
  std::size_t pixel_size = 0;
  PLINTH_CHECK(
      clGetImageInfo(memory, CL_IMAGE_ELEMENT_SIZE, sizeof(pixel_size), &pixel_size, nullptr));
  if (pixel_size != texture.format.pixel_size())
    throw LogicError("OpenCL shares " + what + " (internal format " +
                     std::to_string(texture.internal_format) + ") as an image of " +
                     std::to_string(pixel_size) + "-byte pixels, not the " +
                     std::to_string(texture.format.pixel_size()) + " bytes plinth read from GL");
  return resource;
}

}  // namespace plinth::opencl
