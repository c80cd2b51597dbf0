// OpenGL interop (gl_interop.hpp, gl_types.hpp): plinth.GlBuffer and plinth.GlTexture, their
// mappings (GlBufferMapping, GlTextureMapping: context managers), the value types and enums
// (GlContext, GlSharing, GlWindowSystem, GlAccess), gl_sharing() and make_gl_context().
//
// GL handles (EGLDisplay, EGLContext, Display*, GLXContext) are Python ints, as ctypes or
// PyOpenGL give them. The mappings are move-only in C++: each Python object owns one, moved in
// from map(), and its destructor unmaps one still mapped (as the C++ destructor does).

#include <plinth/buffer.hpp>
#include <plinth/context.hpp>
#include <plinth/errors.hpp>
#include <plinth/gl_interop.hpp>
#include <plinth/gl_types.hpp>
#include <plinth/image.hpp>
#include <plinth/queue.hpp>

#include "bindings.hpp"

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace plinth::python {

namespace {

// Names below are prefixed `gl_`: the extension may be built as one unity source.

std::string gl_hex(std::uintptr_t value) {
  char text[2 + 2 * sizeof(std::uintptr_t) + 1];
  std::snprintf(text, sizeof(text), "0x%jx", static_cast<std::uintmax_t>(value));
  return text;
}

std::uintptr_t gl_int(void* pointer) { return reinterpret_cast<std::uintptr_t>(pointer); }
void* gl_pointer(std::uintptr_t value) { return reinterpret_cast<void*>(value); }

std::string gl_device_text(const BoundDevice& device) {
  return "device " + std::to_string(device.index()) + " (" + device.device().full_name() + ")";
}

std::string gl_context_repr(const GlContext& gl) {
  return "plinth.GlContext(system=plinth.GlWindowSystem." +
         std::string(gl.system == GlWindowSystem::egl ? "egl" : "glx") +
         ", display=" + gl_hex(gl_int(gl.display)) + ", context=" + gl_hex(gl_int(gl.context)) +
         ")";
}

const char* gl_access_text(GlAccess access) {
  switch (access) {
    case GlAccess::read_write: return "read_write";
    case GlAccess::read_only: return "read_only";
    case GlAccess::write_only: return "write_only";
  }
  return "?";
}

void bind_gl_values(nb::module_& m) {
  nb::enum_<GlWindowSystem>(m, "GlWindowSystem",
                            "The window-system binding that made a GL context.")
      .value("egl", GlWindowSystem::egl,
             "EGL (headless or not; OpenGL or OpenGL ES): an EGLDisplay and an EGLContext.")
      .value("glx", GlWindowSystem::glx, "GLX on X11: a Display* and a GLXContext.");

  nb::enum_<GlAccess>(m, "GlAccess",
                      "How kernels will use a registered GL object while it is mapped: a promise "
                      "that lets the driver skip copies.")
      .value("read_write", GlAccess::read_write, "Kernels read and write it.")
      .value("read_only", GlAccess::read_only, "Kernels only read it.")
      .value("write_only", GlAccess::write_only,
             "Kernels overwrite it wholly; its contents before mapping are undefined.");

  nb::class_<GlContext>(m, "GlContext",
                        "An OpenGL (or OpenGL ES) context of this process, by its window "
                        "system's handles as ints: for EGL, `display` is the EGLDisplay and "
                        "`context` the EGLContext (eglGetCurrentDisplay(), "
                        "eglGetCurrentContext()); for GLX, the X11 Display* and the GLXContext. "
                        "plinth never creates, destroys or makes current a GL context: the "
                        "caller keeps it alive for as long as a plinth context made with it, and "
                        "makes it current where a call says so.")
      .def(
          "__init__",
          [](GlContext* self, GlWindowSystem system, std::uintptr_t display,
             std::uintptr_t context) {
            new (self) GlContext{system, gl_pointer(display), gl_pointer(context)};
          },
          nb::arg("system") = GlWindowSystem::egl, nb::arg("display") = 0, nb::arg("context") = 0,
          "`system` a GlWindowSystem; `display` and `context` the handles as ints (e.g. a "
          "ctypes.c_void_p's value).")
      .def_rw("system", &GlContext::system, "A GlWindowSystem.")
      .def_prop_rw(
          "display", [](const GlContext& gl) { return gl_int(gl.display); },
          [](GlContext& gl, std::uintptr_t value) { gl.display = gl_pointer(value); },
          "The EGLDisplay or X11 Display*, as an int.")
      .def_prop_rw(
          "context", [](const GlContext& gl) { return gl_int(gl.context); },
          [](GlContext& gl, std::uintptr_t value) { gl.context = gl_pointer(value); },
          "The EGLContext or GLXContext, as an int.")
      .def(
          "__eq__",
          [](const GlContext& a, const GlContext& b) {
            return a.system == b.system && a.display == b.display && a.context == b.context;
          },
          nb::is_operator())
      .def("__repr__", &gl_context_repr);

  nb::class_<GlSharing>(m, "GlSharing",
                        "Whether a device of a context can share objects with OpenGL "
                        "(plinth.gl_sharing()).")
      .def_ro("available", &GlSharing::available,
              "GL buffers and textures can be registered and mapped.")
      .def_ro("reason", &GlSharing::reason, "Why not, where `available` is False.")
      .def("__repr__", [](const GlSharing& s) {
        if (s.available) return std::string("plinth.GlSharing(available=True)");
        return "plinth.GlSharing(available=False, reason=" +
               nb::cast<std::string>(nb::repr(nb::cast(s.reason))) + ")";
      });
}

void bind_gl_mappings(nb::module_& m) {
  nb::class_<GlBufferMapping>(
      m, "GlBufferMapping",
      "A mapping of a GlBuffer (GlBuffer.map()): the GL buffer object as a plinth.Buffer, for "
      "the work of one queue. GL must not use the buffer until it is unmapped: by unmap(), at "
      "the end of a `with` block (`with gl_buffer.map(queue) as mapped:`) or, failing both, "
      "when the mapping is garbage-collected (errors then go to the log). The Buffer must not "
      "be used after the unmap.")
      .def_prop_ro(
          "buffer", [](const GlBufferMapping& mapping) { return mapping.buffer(); },
          "The whole GL buffer as a plinth.Buffer, valid until unmap(). Raises LogicError once "
          "unmapped.")
      .def(
          "unmap",
          [](GlBufferMapping& mapping) {
            nb::gil_scoped_release release;
            mapping.unmap();
          },
          "Unmaps after the work enqueued on the mapping's queue so far; GL commands issued "
          "after this call see its results. Needs the GL context current. Raises LogicError if "
          "already unmapped, BackendError.")
      .def_prop_ro("mapped", &GlBufferMapping::mapped, "Whether unmap() has not yet been called.")
      .def(
          "__enter__", [](GlBufferMapping& mapping) -> GlBufferMapping& { return mapping; },
          nb::rv_policy::reference, "The mapping itself, for a `with` block.")
      .def(
          "__exit__",
          [](GlBufferMapping& mapping, nb::handle, nb::handle, nb::handle) {
            if (!mapping.mapped()) return;
            nb::gil_scoped_release release;
            mapping.unmap();
          },
          nb::arg("exc_type").none(), nb::arg("exc_value").none(), nb::arg("traceback").none(),
          "unmap(), unless unmapped already.")
      .def("__repr__", [](const GlBufferMapping& mapping) {
        if (!mapping.mapped()) return std::string("<plinth.GlBufferMapping, unmapped>");
        const Buffer& buffer = mapping.buffer();
        return "<plinth.GlBufferMapping of " + std::to_string(buffer.size()) + " bytes on " +
               gl_device_text(buffer.device()) + ">";
      });

  nb::class_<GlTextureMapping>(
      m, "GlTextureMapping",
      "A mapping of a GlTexture (GlTexture.map()): the texture level as a plinth.Image, for "
      "the work of one queue. As GlBufferMapping: unmapped by unmap(), at the end of a `with` "
      "block or when garbage-collected; the Image must not be used after the unmap.")
      .def_prop_ro(
          "image", [](const GlTextureMapping& mapping) { return mapping.image(); },
          "The texture level as a plinth.Image, valid until unmap(). Raises LogicError once "
          "unmapped.")
      .def(
          "unmap",
          [](GlTextureMapping& mapping) {
            nb::gil_scoped_release release;
            mapping.unmap();
          },
          "As GlBufferMapping.unmap().")
      .def_prop_ro("mapped", &GlTextureMapping::mapped, "Whether unmap() has not yet been called.")
      .def(
          "__enter__", [](GlTextureMapping& mapping) -> GlTextureMapping& { return mapping; },
          nb::rv_policy::reference, "The mapping itself, for a `with` block.")
      .def(
          "__exit__",
          [](GlTextureMapping& mapping, nb::handle, nb::handle, nb::handle) {
            if (!mapping.mapped()) return;
            nb::gil_scoped_release release;
            mapping.unmap();
          },
          nb::arg("exc_type").none(), nb::arg("exc_value").none(), nb::arg("traceback").none(),
          "unmap(), unless unmapped already.")
      .def("__repr__", [](const GlTextureMapping& mapping) {
        if (!mapping.mapped()) return std::string("<plinth.GlTextureMapping, unmapped>");
        const Image& image = mapping.image();
        return "<plinth.GlTextureMapping " + to_string(image.type()) + " " +
               to_string(image.format()) + " on " + gl_device_text(image.device()) + ">";
      });
}

}  // namespace

void bind_gl_interop(nb::module_& m) {
  bind_gl_values(m);
  bind_gl_mappings(m);

  m.def("gl_sharing", &gl_sharing, nb::arg("device"),
        "A GlSharing saying whether `device` (a BoundDevice) can register and map GL objects, "
        "or why not (the backend, the platform's missing cl_khr_gl_sharing, an OpenCL context "
        "not made by make_gl_context(), a plugin before SDK 1.9). Never raises.");

  m.def("make_gl_context", &make_gl_context, nb::arg("devices"), nb::arg("gl"),
        "A Context on `devices` (Device objects: at least one, of one platform) that shares "
        "objects with `gl` (a GlContext), which must be current on the calling thread. OpenCL "
        "needs it for GL sharing (CL_GL_CONTEXT_KHR with the EGL or GLX display); on CUDA it "
        "is an ordinary context, after checking that the GL context runs on these devices. "
        "Raises LogicError naming why the devices cannot share with `gl` (null handles, a "
        "backend or platform without GL sharing, a GL context on another GPU), BackendError.");

  nb::class_<GlBuffer>(m, "GlBuffer",
                       "A GL buffer object registered with a device of a context "
                       "(cuGraphicsGLRegisterBuffer, clCreateFromGLBuffer): map() lends it to a "
                       "queue. A shared handle: unregistered with the last one and the last "
                       "mapping. The GL object itself stays GL's: delete it only after the last "
                       "handle has gone. Needs a GL library loaded in the process (libOpenGL, "
                       "libGL or libEGL; plinth loads none) and the GL context current.")
      .def(nb::init<const BoundDevice&, unsigned, GlAccess>(), nb::arg("device"), nb::arg("name"),
           nb::arg("access") = GlAccess::read_write,
           "Registers GL buffer `name` (an int) of the GL context current on the calling thread "
           "with `device` (a BoundDevice), for `access` (a GlAccess). Raises LogicError when "
           "gl_sharing(device) is not available (saying why), `name` is 0 or no buffer of that "
           "GL context, or no GL context is current; BackendError when the vendor refuses.")
      .def(
          "map",
          [](const GlBuffer& buffer, const Queue& queue) {
            nb::gil_scoped_release release;
            return buffer.map(queue);
          },
          nb::arg("queue"),
          "Maps the buffer for `queue` (of the registering device) and returns the "
          "GlBufferMapping (a context manager that unmaps): work enqueued on the queue after "
          "this call sees what GL issued before (call glFinish() first where the platform has "
          "no implicit GL synchronisation). Needs the GL context current. Raises LogicError "
          "for a queue of another device or while a mapping of this buffer is live, "
          "BackendError.")
      .def_prop_ro("name", &GlBuffer::name, "The GL buffer's name.")
      .def_prop_ro("device", &GlBuffer::device, "The BoundDevice it was registered with.")
      .def_prop_ro("access", &GlBuffer::access, "The GlAccess it was registered with.")
      .def("__repr__", [](const GlBuffer& buffer) {
        return "<plinth.GlBuffer " + std::to_string(buffer.name()) + " (" +
               gl_access_text(buffer.access()) + ") on " + gl_device_text(buffer.device()) + ">";
      });

  nb::class_<GlTexture>(m, "GlTexture",
                        "A GL texture level registered with a device of a context "
                        "(cuGraphicsGLRegisterImage, clCreateFromGLTexture), as GlBuffer. Its "
                        "type, format and size are read from GL when it is registered: "
                        "GL_TEXTURE_1D, 2D, 3D, 1D_ARRAY and 2D_ARRAY textures of the internal "
                        "formats with a plinth ImageFormat (GL_R8, GL_RG16F, GL_RGBA32F, "
                        "GL_RGBA8UI, ...: R, RG or RGBA of the ChannelType values). CUDA takes "
                        "2-D, 3-D and 2-D array textures only.")
      .def(nb::init<const BoundDevice&, unsigned, unsigned, int, GlAccess>(), nb::arg("device"),
           nb::arg("name"), nb::arg("target"), nb::arg("level") = 0,
           nb::arg("access") = GlAccess::read_write,
           "Registers level `level` of GL texture `name`, whose target is `target` "
           "(GL_TEXTURE_2D: 0x0DE1, ...), of the GL context current on the calling thread with "
           "`device` (a BoundDevice), for `access` (a GlAccess). Raises LogicError when "
           "gl_sharing(device) is not available, `name` is 0, the target is not one of the "
           "five, the texture's internal format has no plinth ImageFormat or the device has no "
           "images of it (naming the format), or no GL library is loaded; BackendError when the "
           "vendor refuses.")
      .def(
          "map",
          [](const GlTexture& texture, const Queue& queue) {
            nb::gil_scoped_release release;
            return texture.map(queue);
          },
          nb::arg("queue"),
          "As GlBuffer.map(), returning a GlTextureMapping, whose `image` is the texture "
          "level.")
      .def_prop_ro("name", &GlTexture::name, "The GL texture's name.")
      .def_prop_ro("target", &GlTexture::target, "Its GL target (GL_TEXTURE_2D: 0x0DE1, ...).")
      .def_prop_ro("level", &GlTexture::level, "The mipmap level registered.")
      .def_prop_ro("device", &GlTexture::device, "The BoundDevice it was registered with.")
      .def_prop_ro("access", &GlTexture::access, "The GlAccess it was registered with.")
      .def_prop_ro("type", &GlTexture::type, "The level's ImageType, as read from GL.")
      .def_prop_ro("format", &GlTexture::format, "The level's ImageFormat, as read from GL.")
      .def_prop_ro("extent", &GlTexture::extent, "The level's ImageExtent, as read from GL.")
      .def_prop_ro("internal_format", &GlTexture::internal_format,
                   "The GL internal format (GL_RGBA8: 0x8058, ...).")
      .def("__repr__", [](const GlTexture& texture) {
        return "<plinth.GlTexture " + std::to_string(texture.name()) + " level " +
               std::to_string(texture.level()) + ": " + to_string(texture.type()) + " " +
               to_string(texture.format()) + " (" + gl_access_text(texture.access()) + ") on " +
               gl_device_text(texture.device()) + ">";
      });
}

}  // namespace plinth::python
