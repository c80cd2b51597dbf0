"""OpenGL interop: the value types and enums, gl_sharing(), make_gl_context(), GlBuffer and
GlTexture with their mappings, and the errors.

A headless OpenGL 4.5 context comes from EGL through ctypes (Mesa's surfaceless platform, as on
CI, where llvmpipe draws; else EGL's device platform, as NVIDIA's EGL has): the `gl` fixture
makes it current and skips the tests that need it where there is none. libOpenGL is loaded
with RTLD_GLOBAL first, because plinth loads no GL library: it finds the process's.

PoCL has no cl_khr_gl_sharing, so on CI the tests check the refusals; where a device does
share (CUDA, an OpenCL platform with cl_khr_gl_sharing that takes EGL displays), a kernel
fills a GL buffer, numpy fills a GL texture, and GL reads both back."""

import ctypes

import numpy as np
import pytest

import plinth

# EGL
EGL_DEFAULT_DISPLAY = 0
EGL_PLATFORM_SURFACELESS_MESA = 0x31DD
EGL_PLATFORM_DEVICE_EXT = 0x313F
EGL_OPENGL_API = 0x30A2
EGL_CONTEXT_MAJOR_VERSION = 0x3098
EGL_CONTEXT_MINOR_VERSION = 0x30FB
EGL_CONTEXT_OPENGL_PROFILE_MASK = 0x30FD
EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT = 1
EGL_NONE = 0x3038
EGL_TRUE = 1

# GL
GL_RENDERER = 0x1F01
GL_DYNAMIC_DRAW = 0x88E8
GL_TEXTURE_2D = 0x0DE1
GL_RGBA = 0x1908
GL_FLOAT = 0x1406
GL_RGBA32F = 0x8814

SOURCE = """
KERNEL void fill(GLOBAL_MEM int *out, int value)
{
    const int i = get_global_id(0);
    out[i] = value + i;
}
"""


def _function(library, name, restype, *argtypes):
    function = getattr(library, name)
    function.restype = restype
    function.argtypes = list(argtypes)
    return function


class HeadlessGL:
    """An OpenGL 4.5 core context of EGL without a surface, current on this thread, and the
    few GL calls the tests make. Raises OSError where there is none to be had."""

    def __init__(self):
        vp, u32, i32 = ctypes.c_void_p, ctypes.c_uint, ctypes.c_int
        # plinth's core looks the GL functions up in an already loaded libOpenGL or libGL.
        self.libgl = ctypes.CDLL("libOpenGL.so.0", mode=ctypes.RTLD_GLOBAL)
        self.libegl = ctypes.CDLL("libEGL.so.1", mode=ctypes.RTLD_GLOBAL)
        egl = self.libegl
        self.egl_get_error = _function(egl, "eglGetError", i32)
        get_proc_address = _function(egl, "eglGetProcAddress", vp, ctypes.c_char_p)
        initialize = _function(egl, "eglInitialize", u32, vp, vp, vp)
        bind_api = _function(egl, "eglBindAPI", u32, u32)
        create_context = _function(egl, "eglCreateContext", vp, vp, vp, vp, vp)
        self.make_current = _function(egl, "eglMakeCurrent", u32, vp, vp, vp, vp)
        self.destroy_context = _function(egl, "eglDestroyContext", u32, vp, vp)

        def extension(name, restype, *argtypes):
            address = get_proc_address(name.encode())
            if not address:
                raise OSError(f"EGL has no {name}")
            return ctypes.CFUNCTYPE(restype, *argtypes)(address)

        get_platform_display = extension("eglGetPlatformDisplayEXT", vp, u32, vp, vp)
        displays = [lambda: get_platform_display(EGL_PLATFORM_SURFACELESS_MESA,
                                                 EGL_DEFAULT_DISPLAY, None)]
        try:
            query_devices = extension("eglQueryDevicesEXT", u32, i32, vp, ctypes.POINTER(i32))
            devices = (vp * 8)()
            count = i32(0)
            if query_devices(8, ctypes.cast(devices, vp), ctypes.byref(count)) == EGL_TRUE:
                displays += [lambda d=d: get_platform_display(EGL_PLATFORM_DEVICE_EXT, d, None)
                             for d in devices[:count.value]]
        except OSError:
            pass

        attributes = (i32 * 7)(EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 5,
                               EGL_CONTEXT_OPENGL_PROFILE_MASK,
                               EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE)
        failures = []
        self.display = self.context = None
        for make_display in displays:
            display = make_display()
            major, minor = i32(0), i32(0)
            if not display or initialize(display, ctypes.byref(major), ctypes.byref(minor)) != \
                    EGL_TRUE or bind_api(EGL_OPENGL_API) != EGL_TRUE:
                failures.append(f"display: EGL error {self.egl_get_error():#x}")
                continue
            # EGL_NO_CONFIG_KHR, no shared context
            context = create_context(display, None, None, ctypes.cast(attributes, vp))
            if not context or self.make_current(display, None, None, context) != EGL_TRUE:
                failures.append(f"context: EGL error {self.egl_get_error():#x}")
                if context:
                    self.destroy_context(display, context)
                continue
            self.display, self.context = display, context
            break
        if self.context is None:
            raise OSError("no headless OpenGL 4.5 context: " + "; ".join(failures))

        gl = self.libgl
        self.renderer = _function(gl, "glGetString", ctypes.c_char_p, u32)(GL_RENDERER).decode()
        self.gl_finish = _function(gl, "glFinish", None)
        self.gl_create_buffers = _function(gl, "glCreateBuffers", None, i32, ctypes.POINTER(u32))
        self.gl_delete_buffers = _function(gl, "glDeleteBuffers", None, i32, ctypes.POINTER(u32))
        self.gl_named_buffer_data = _function(gl, "glNamedBufferData", None, u32, ctypes.c_ssize_t,
                                              vp, u32)
        self.gl_get_named_buffer_sub_data = _function(gl, "glGetNamedBufferSubData", None, u32,
                                                      ctypes.c_ssize_t, ctypes.c_ssize_t, vp)
        self.gl_create_textures = _function(gl, "glCreateTextures", None, u32, i32,
                                            ctypes.POINTER(u32))
        self.gl_delete_textures = _function(gl, "glDeleteTextures", None, i32,
                                            ctypes.POINTER(u32))
        self.gl_texture_storage_2d = _function(gl, "glTextureStorage2D", None, u32, i32, u32, i32,
                                               i32)
        self.gl_get_texture_image = _function(gl, "glGetTextureImage", None, u32, i32, u32, u32,
                                              i32, vp)

    @property
    def gl_context(self):
        return plinth.GlContext(plinth.GlWindowSystem.egl, self.display, self.context)

    def close(self):
        self.make_current(self.display, None, None, None)
        self.destroy_context(self.display, self.context)

    def buffer(self, data):
        """A new GL buffer holding the bytes of `data` (a numpy array)."""
        name = ctypes.c_uint(0)
        self.gl_create_buffers(1, ctypes.byref(name))
        data = np.ascontiguousarray(data)
        self.gl_named_buffer_data(name, data.nbytes, data.ctypes.data, GL_DYNAMIC_DRAW)
        return name.value

    def buffer_data(self, name, like):
        """The GL buffer's first bytes, as an array like `like`."""
        out = np.empty_like(like)
        self.gl_get_named_buffer_sub_data(name, 0, out.nbytes, out.ctypes.data)
        return out

    def delete_buffer(self, name):
        self.gl_delete_buffers(1, ctypes.byref(ctypes.c_uint(name)))

    def texture_rgba32f(self, width, height):
        """A new GL_TEXTURE_2D of one GL_RGBA32F level (contents undefined)."""
        name = ctypes.c_uint(0)
        self.gl_create_textures(GL_TEXTURE_2D, 1, ctypes.byref(name))
        self.gl_texture_storage_2d(name, 1, GL_RGBA32F, width, height)
        return name.value

    def texture_data(self, name, shape):
        out = np.empty(shape, np.float32)
        self.gl_get_texture_image(name, 0, GL_RGBA, GL_FLOAT, out.nbytes, out.ctypes.data)
        return out

    def delete_texture(self, name):
        self.gl_delete_textures(1, ctypes.byref(ctypes.c_uint(name)))


@pytest.fixture(scope="module")
def gl():
    try:
        headless = HeadlessGL()
    except (OSError, AttributeError) as error:  # no libEGL/libOpenGL, a missing entry point
        pytest.skip(f"no headless OpenGL context: {error}")
    yield headless
    headless.close()


@pytest.fixture
def gl_buffer(gl):
    name = gl.buffer(np.arange(16, dtype=np.int32))
    yield name
    gl.delete_buffer(name)


def all_devices(api):
    return [device for platform in api.platforms for device in platform.devices]


def is_pocl(device):
    return device.platform.api.shortcut == "opencl" and \
        device.platform.name == "Portable Computing Language"


# ---- Value types and enums -------------------------------------------------------------------


def test_enums_have_the_cpp_names():
    assert [s.name for s in plinth.GlWindowSystem] == ["egl", "glx"]
    assert [a.name for a in plinth.GlAccess] == ["read_write", "read_only", "write_only"]


def test_gl_context_round_trips():
    default = plinth.GlContext()
    assert (default.system, default.display, default.context) == (plinth.GlWindowSystem.egl, 0, 0)
    gl = plinth.GlContext(plinth.GlWindowSystem.glx, display=0x1234, context=2**64 - 16)
    assert (gl.system, gl.display, gl.context) == (plinth.GlWindowSystem.glx, 0x1234, 2**64 - 16)
    assert repr(gl) == ("plinth.GlContext(system=plinth.GlWindowSystem.glx, display=0x1234, "
                        "context=0xfffffffffffffff0)")
    gl.system, gl.display, gl.context = plinth.GlWindowSystem.egl, 7, 8
    assert (gl.system, gl.display, gl.context) == (plinth.GlWindowSystem.egl, 7, 8)
    assert gl == plinth.GlContext(plinth.GlWindowSystem.egl, 7, 8)
    assert gl != plinth.GlContext(plinth.GlWindowSystem.egl, 7, 9)
    with pytest.raises(TypeError):
        plinth.GlContext(display=-1)  # a pointer is no negative int


def test_gl_sharing_of_an_ordinary_context(context):
    for device in context.devices:
        sharing = plinth.gl_sharing(device)
        assert isinstance(sharing, plinth.GlSharing)
        assert isinstance(sharing.available, bool) and isinstance(sharing.reason, str)
        if sharing.available:  # CUDA shares from any context
            assert repr(sharing) == "plinth.GlSharing(available=True)"
            continue
        assert sharing.reason
        assert repr(sharing) == f"plinth.GlSharing(available=False, reason={sharing.reason!r})"
        if is_pocl(device.device):
            assert "cl_khr_gl_sharing" in sharing.reason


# ---- Refusals --------------------------------------------------------------------------------


def test_make_gl_context_with_null_handles(api):
    device = api.platforms[0].devices[0]
    with pytest.raises(plinth.LogicError, match="display"):
        plinth.make_gl_context([device], plinth.GlContext())
    with pytest.raises(plinth.LogicError, match="context"):
        plinth.make_gl_context([device], plinth.GlContext(display=1))
    with pytest.raises(plinth.LogicError):
        plinth.make_gl_context([], plinth.GlContext(display=1, context=1))


def test_make_gl_context_refused_without_cl_khr_gl_sharing(api, gl):
    pocl = [device for device in all_devices(api) if is_pocl(device)]
    if not pocl:
        pytest.skip("written for PoCL, which has no cl_khr_gl_sharing")
    for device in pocl:
        with pytest.raises(plinth.LogicError, match="cl_khr_gl_sharing"):
            plinth.make_gl_context([device], gl.gl_context)


def test_gl_objects_of_an_ordinary_context_refused(context, gl, gl_buffer):
    device = context.devices[0]
    if plinth.gl_sharing(device).available:
        pytest.skip("the device shares with OpenGL from any context")
    with pytest.raises(plinth.LogicError, match="cannot share with OpenGL"):
        plinth.GlBuffer(device, gl_buffer)
    with pytest.raises(plinth.LogicError, match="cannot share with OpenGL"):
        plinth.GlBuffer(device, gl_buffer, plinth.GlAccess.write_only)
    texture = gl.texture_rgba32f(4, 4)
    try:
        with pytest.raises(plinth.LogicError, match="cannot share with OpenGL"):
            plinth.GlTexture(device, texture, GL_TEXTURE_2D)
    finally:
        gl.delete_texture(texture)
    with pytest.raises(plinth.LogicError, match="buffer 0"):
        plinth.GlBuffer(device, 0)


# ---- Sharing devices -------------------------------------------------------------------------


def check_buffer(gl, context):
    device = context.devices[0]
    queue = plinth.Queue(device)
    program = plinth.Program(context, SOURCE)
    n = 256
    name = gl.buffer(np.full(n, -1, np.int32))
    try:
        registered = plinth.GlBuffer(device, name, plinth.GlAccess.write_only)
        assert (registered.name, registered.device, registered.access) == (
            name, device, plinth.GlAccess.write_only)
        assert str(name) in repr(registered)
        gl.gl_finish()
        mapping = registered.map(queue)
        with mapping as mapped:
            assert mapped is mapping and mapped.mapped
            assert isinstance(mapped.buffer, plinth.Buffer)
            assert mapped.buffer.size == n * 4 and mapped.buffer.device == device
            program.fill(queue, n, None, mapped.buffer, np.int32(1000))
            with pytest.raises(plinth.LogicError, match="mapped already"):
                registered.map(queue)
        assert not mapping.mapped
        assert "unmapped" in repr(mapping)
        with pytest.raises(plinth.LogicError, match="unmapped"):
            mapping.buffer  # noqa: B018
        with pytest.raises(plinth.LogicError, match="unmapped"):
            mapping.unmap()
        np.testing.assert_array_equal(gl.buffer_data(name, np.empty(n, np.int32)),
                                      1000 + np.arange(n, dtype=np.int32))

        # Mapped again once unmapped; unmap() ends it, and __exit__ then does nothing.
        with registered.map(queue) as mapped:
            program.fill(queue, n, None, mapped.buffer, np.int32(-5))
            mapped.unmap()
            assert not mapped.mapped
        np.testing.assert_array_equal(gl.buffer_data(name, np.empty(n, np.int32)),
                                      -5 + np.arange(n, dtype=np.int32))

        # A mapping dropped while mapped is unmapped with it: the buffer maps again.
        registered.map(queue)
        registered.map(queue).unmap()
        del registered
    finally:
        gl.delete_buffer(name)


def check_texture(gl, context):
    device = context.devices[0]
    if not plinth.image_support(device).available:
        return
    queue = plinth.Queue(device)
    width, height = 16, 8
    name = gl.texture_rgba32f(width, height)
    try:
        registered = plinth.GlTexture(device, name, GL_TEXTURE_2D)
        assert (registered.name, registered.target, registered.level) == (name, GL_TEXTURE_2D, 0)
        assert registered.access == plinth.GlAccess.read_write
        assert registered.type == plinth.ImageType.image2d
        assert registered.format == plinth.ImageFormat(plinth.ChannelOrder.rgba,
                                                       plinth.ChannelType.float32)
        assert registered.extent == plinth.ImageExtent(width, height)
        assert registered.internal_format == GL_RGBA32F
        pixels = np.arange(height * width * 4, dtype=np.float32).reshape(height, width, 4)
        gl.gl_finish()
        with registered.map(queue) as mapped:
            assert isinstance(mapped.image, plinth.Image)
            assert mapped.image.shape == (height, width, 4)
            mapped.image.set(queue, pixels)
            with pytest.raises(plinth.LogicError, match="mapped already"):
                registered.map(queue)
        assert not mapped.mapped
        with pytest.raises(plinth.LogicError, match="unmapped"):
            mapped.image  # noqa: B018
        np.testing.assert_array_equal(gl.texture_data(name, pixels.shape), pixels)
        del registered
    finally:
        gl.delete_texture(name)


def test_sharing_devices_fill_gl_objects(api, gl):
    """Every device of the API that can share with this GL context does: a kernel fills a GL
    buffer, Image.set a GL texture, and GL reads them back."""
    refusals = []
    for device in all_devices(api):
        try:
            context = plinth.make_gl_context([device], gl.gl_context)
        except plinth.LogicError as error:
            refusals.append(f"{device.name}: {error}")
            continue
        assert context.unbound_devices == [device]
        sharing = plinth.gl_sharing(context.devices[0])
        assert sharing.available, sharing.reason
        check_buffer(gl, context)
        check_texture(gl, context)
    if refusals and len(refusals) == len(all_devices(api)):
        pytest.skip(f"no device shares with the GL context ({gl.renderer}): " +
                    "; ".join(refusals))
