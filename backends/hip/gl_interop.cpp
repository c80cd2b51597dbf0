#include "gl_interop.hpp"

#include "buffer.hpp"
#include "context.hpp"
#include "error.hpp"
#include "image.hpp"
#include "queue.hpp"
#include "runtime_library.hpp"

#include <plinth/errors.hpp>

#include <dlfcn.h>

#include <algorithm>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

/// PLINTH_CHECK for a GL interop function through gl_calls(), written as the direct call
/// would be: an error names the function ("hipGraphicsMapResources").
#define PLINTH_HIP_GL_CHECK(call) \
  ::plinth::backend::check(::plinth::hip::gl_calls().call, ::plinth::backend::VendorCall(#call))
/// PLINTH_CHECK_IN_DESTRUCTOR likewise: never throws.
#define PLINTH_HIP_GL_CHECK_IN_DESTRUCTOR(call)                          \
  ::plinth::backend::check_in_destructor(::plinth::hip::gl_calls().call, \
                                         ::plinth::backend::VendorCall(#call))

namespace plinth::hip {

namespace {

/// The stream of a queue adapter of this backend (the core only hands us ours).
hipStream_t gl_stream_of(backend::QueueAdapter& queue) {
  return static_cast<Queue&>(queue).stream();
}

/// Throws LogicError where the runtime lacks a function of buffers (or, with `textures`, of
/// textures).
void require_gl_calls(bool textures) {
  const std::string missing = missing_gl_functions(gl_calls(), textures);
  if (!missing.empty())
    throw LogicError(
        "this HIP runtime exports no " + missing +
        (textures ? ": GL textures cannot be registered" : ": it does not share with OpenGL"));
}

/// Adopts the freshly registered `resource` of `device`, unregistering it if that fails.
std::unique_ptr<GlResource> adopt_gl_resource(const std::shared_ptr<ContextState>& state,
                                              std::size_t device, hipGraphicsResource_t resource,
                                              const GlTextureDesc* texture, GlAccess access) {
  try {
    return std::make_unique<GlResource>(state, device, resource, texture, access);
  } catch (...) {  // std::bad_alloc; the registering device is still current
    PLINTH_HIP_GL_CHECK_IN_DESTRUCTOR(hipGraphicsUnregisterResource(resource));
    throw;
  }
}

/// "device 0", "devices 0, 2", "no device": HIP device ordinals for a message.
std::string gl_device_list(std::span<const int> devices) {
  if (devices.empty()) return "no device";
  std::string text = devices.size() == 1 ? "device " : "devices ";
  for (std::size_t i = 0; i < devices.size(); ++i)
    text += (i == 0 ? "" : ", ") + std::to_string(devices[i]);
  return text;
}

}  // namespace

const GlCalls& gl_calls() {
  static const GlCalls calls = [] {
    GlCalls found;
    void* runtime = runtime_library();
    if (runtime == nullptr) return found;
    const auto find = [&](auto& function, const char* name) {
      function =
          reinterpret_cast<std::remove_reference_t<decltype(function)>>(dlsym(runtime, name));
    };
    find(found.hipGLGetDevices, "hipGLGetDevices");
    find(found.hipGraphicsGLRegisterBuffer, "hipGraphicsGLRegisterBuffer");
    find(found.hipGraphicsMapResources, "hipGraphicsMapResources");
    find(found.hipGraphicsResourceGetMappedPointer, "hipGraphicsResourceGetMappedPointer");
    find(found.hipGraphicsUnmapResources, "hipGraphicsUnmapResources");
    find(found.hipGraphicsUnregisterResource, "hipGraphicsUnregisterResource");
    find(found.hipGraphicsGLRegisterImage, "hipGraphicsGLRegisterImage");
    find(found.hipGraphicsSubResourceGetMappedArray, "hipGraphicsSubResourceGetMappedArray");
    return found;
  }();
  return calls;
}

std::string missing_gl_functions(const GlCalls& calls, bool textures) {
  std::string missing;
  const auto check = [&](auto function, const char* name) {
    if (function == nullptr) missing += (missing.empty() ? "" : ", ") + std::string(name);
  };
  check(calls.hipGLGetDevices, "hipGLGetDevices");
  check(calls.hipGraphicsGLRegisterBuffer, "hipGraphicsGLRegisterBuffer");
  check(calls.hipGraphicsMapResources, "hipGraphicsMapResources");
  check(calls.hipGraphicsResourceGetMappedPointer, "hipGraphicsResourceGetMappedPointer");
  check(calls.hipGraphicsUnmapResources, "hipGraphicsUnmapResources");
  check(calls.hipGraphicsUnregisterResource, "hipGraphicsUnregisterResource");
  if (textures) {
    check(calls.hipGraphicsGLRegisterImage, "hipGraphicsGLRegisterImage");
    check(calls.hipGraphicsSubResourceGetMappedArray, "hipGraphicsSubResourceGetMappedArray");
  }
  return missing;
}

GlSharing query_gl_sharing() {
  const std::string missing = missing_gl_functions(gl_calls(), false);
  if (missing.empty()) return {true, {}};
  return {false, "the HIP runtime has no OpenGL interop (libamdhip64 exports no " + missing + ")"};
}

unsigned int gl_register_flags(GlAccess access, bool texture) noexcept {
  // Kernels store to images through surface objects.
  const unsigned int surface = texture ? unsigned{hipGraphicsRegisterFlagsSurfaceLoadStore} : 0U;
  switch (access) {
    case GlAccess::read_only: return hipGraphicsRegisterFlagsReadOnly;
    case GlAccess::write_only: return hipGraphicsRegisterFlagsWriteDiscard | surface;
    case GlAccess::read_write: break;
  }
  return hipGraphicsRegisterFlagsNone | surface;
}

std::string gl_device_problem(std::span<const int> requested, hipError_t result,
                              std::span<const int> listed) {
  const std::string call = "hipGLGetDevices: " + error_text(result);
  if (result == hipErrorInvalidGraphicsContext || result == hipErrorInvalidContext)
    return "no GL context is current on this thread (" + call +
           "): make the GL context current before making a context that shares with it";
  if (result == hipErrorNoDevice)
    return "the GL context current on this thread runs on no HIP device (" + call +
           "): its renderer is another vendor's GPU or a software one";
  if (result != hipSuccess)
    return "the HIP devices of the GL context current on this thread are unknown (" + call + ")";
  std::vector<int> missing;
  for (const int device : requested)
    if (std::find(listed.begin(), listed.end(), device) == listed.end()) missing.push_back(device);
  if (missing.empty()) return {};
  return "the GL context current on this thread does not run on HIP " + gl_device_list(missing) +
         " (hipGLGetDevices lists " + gl_device_list(listed) + ")";
}

GlResource::GlResource(std::shared_ptr<ContextState> state, std::size_t device,
                       hipGraphicsResource_t resource, const GlTextureDesc* texture,
                       GlAccess access) noexcept
    : state_(std::move(state)), device_(device), resource_(resource), texture_(texture != nullptr) {
  if (texture != nullptr) {
    image_desc_ = {texture->type, texture->format, texture->extent};
    level_ = static_cast<unsigned int>(texture->level);
    writable_ = access != GlAccess::read_only;
  }
}

GlResource::~GlResource() {
  ScopedDevice current((*state_)[device_].device, std::nothrow);
  // The core unmaps first; a mapping left over (a failed unmap) goes on the null stream.
  if (mapped_) PLINTH_HIP_GL_CHECK_IN_DESTRUCTOR(hipGraphicsUnmapResources(1, &resource_, nullptr));
  PLINTH_HIP_GL_CHECK_IN_DESTRUCTOR(hipGraphicsUnregisterResource(resource_));
}

void GlResource::map(hipStream_t stream) {
  if (mapped_) throw LogicError("the registered GL object is already mapped");
  PLINTH_HIP_GL_CHECK(hipGraphicsMapResources(1, &resource_, stream));
  mapped_ = true;
}

void GlResource::unmap_after_failure(hipStream_t stream) noexcept {
  if (PLINTH_HIP_GL_CHECK_IN_DESTRUCTOR(hipGraphicsUnmapResources(1, &resource_, stream)))
    mapped_ = false;
}

std::unique_ptr<backend::BufferAdapter> GlResource::map_buffer(backend::QueueAdapter& queue) {
  if (texture_) throw LogicError("a registered GL texture is mapped as an image, not a buffer");
  const hipStream_t stream = gl_stream_of(queue);
  ScopedDevice current((*state_)[device_].device);
  map(stream);
  try {
    void* pointer = nullptr;
    std::size_t size = 0;
    PLINTH_HIP_GL_CHECK(hipGraphicsResourceGetMappedPointer(&pointer, &size, resource_));
    return std::make_unique<Buffer>(state_, device_, pointer, size, false);
  } catch (...) {
    unmap_after_failure(stream);
    throw;
  }
}

std::unique_ptr<backend::ImageAdapter> GlResource::map_image(backend::QueueAdapter& queue) {
  if (!texture_) throw LogicError("a registered GL buffer is mapped as a buffer, not an image");
  const hipStream_t stream = gl_stream_of(queue);
  ScopedDevice current((*state_)[device_].device);
  map(stream);
  try {
    hipArray_t array = nullptr;
    PLINTH_HIP_GL_CHECK(hipGraphicsSubResourceGetMappedArray(&array, resource_, 0, level_));
    return std::make_unique<Image>(state_, device_, array, image_desc_, Image::Array::borrowed,
                                   writable_);
  } catch (...) {
    unmap_after_failure(stream);
    throw;
  }
}

void GlResource::unmap(backend::QueueAdapter& queue) {
  if (!mapped_) throw LogicError("the registered GL object is not mapped");
  const hipStream_t stream = gl_stream_of(queue);
  ScopedDevice current((*state_)[device_].device);
  PLINTH_HIP_GL_CHECK(hipGraphicsUnmapResources(1, &resource_, stream));
  mapped_ = false;
}

std::unique_ptr<GlResource> register_gl_buffer(const std::shared_ptr<ContextState>& state,
                                               std::size_t device, unsigned int name,
                                               GlAccess access) {
  require_gl_calls(false);
  ScopedDevice current((*state)[device].device);
  hipGraphicsResource_t resource = nullptr;
  PLINTH_HIP_GL_CHECK(
      hipGraphicsGLRegisterBuffer(&resource, name, gl_register_flags(access, false)));
  return adopt_gl_resource(state, device, resource, nullptr, access);
}

std::unique_ptr<GlResource> register_gl_texture(const std::shared_ptr<ContextState>& state,
                                                std::size_t device, const GlTextureDesc& texture,
                                                GlAccess access) {
  require_gl_calls(true);
  if (texture.level < 0)
    throw LogicError("GL texture " + std::to_string(texture.name) + " has no mipmap level " +
                     std::to_string(texture.level));
  ScopedDevice current((*state)[device].device);
  hipGraphicsResource_t resource = nullptr;
  PLINTH_HIP_GL_CHECK(hipGraphicsGLRegisterImage(&resource, texture.name, texture.target,
                                                 gl_register_flags(access, true)));
  return adopt_gl_resource(state, device, resource, &texture, access);
}

}  // namespace plinth::hip
