"""Images and samplers: the value types and enums, image_support(), round trips through numpy,
bytes and Arrays, box copies, kernels that sample and write images, and the errors.

Written for any device with images (skipped elsewhere). PoCL 3 deviates from OpenCL for R and
RG images' integer reads and border colour and for layers with normalised coordinates
(tests/conformance/image_test.cpp), so the kernels here use RGBA formats and unnormalised
coordinates for exact answers; CUDA's linear filtering has 8 fractional bits of weight, so the
sampling reference allows 2^-8 of the texels' range there."""

import numpy as np
import pytest

import plinth

RGBA_F32 = plinth.ImageFormat(plinth.ChannelOrder.rgba, plinth.ChannelType.float32)
RGBA_U8 = plinth.ImageFormat(plinth.ChannelOrder.rgba, plinth.ChannelType.uint8)
RGBA_UNORM8 = plinth.ImageFormat(plinth.ChannelOrder.rgba, plinth.ChannelType.unorm_int8)


@pytest.fixture(scope="module")
def support(context):
    support = plinth.image_support(context.devices[0])
    if not support.available:
        pytest.skip("the device has no images: " + support.reason)
    return support


@pytest.fixture
def device(queue, support):
    return queue.device


def allocate(device, type_, format_, **extent):
    return plinth.Image.allocate(device, type_, format_, plinth.ImageExtent(**extent))


def random_pixels(shape, dtype, seed):
    rng = np.random.default_rng(seed)
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        return rng.uniform(-100, 100, shape).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, shape, dtype=dtype, endpoint=True)


# ---- Value types and enums -------------------------------------------------------------------


def test_enums_have_the_cpp_names():
    assert [t.name for t in plinth.ImageType] == [
        "image1d", "image2d", "image3d", "image1d_array", "image2d_array"]
    assert [o.name for o in plinth.ChannelOrder] == ["r", "rg", "rgba"]
    assert [t.name for t in plinth.ChannelType] == [
        "unorm_int8", "unorm_int16", "snorm_int8", "snorm_int16", "int8", "int16", "int32",
        "uint8", "uint16", "uint32", "float16", "float32"]
    assert [m.name for m in plinth.AddressMode] == [
        "clamp_to_edge", "clamp_to_border", "repeat", "mirrored_repeat"]
    assert [f.name for f in plinth.FilterMode] == ["nearest", "linear"]
    assert [k.name for k in plinth.ImageReadKind] == ["float_", "int_", "uint_"]


def test_image_format():
    default = plinth.ImageFormat()
    assert (default.order, default.type) == (plinth.ChannelOrder.rgba, plinth.ChannelType.float32)
    f = plinth.ImageFormat(order=plinth.ChannelOrder.rg, type=plinth.ChannelType.snorm_int16)
    assert (f.channels, f.channel_size, f.pixel_size) == (2, 2, 4)
    assert f.normalized and f.read_kind == plinth.ImageReadKind.float_
    assert RGBA_U8.read_kind == plinth.ImageReadKind.uint_ and not RGBA_U8.normalized
    assert plinth.ImageFormat(type=plinth.ChannelType.int16).read_kind == plinth.ImageReadKind.int_
    assert f.index == 1 * 12 + 3
    assert str(f) == "rg snorm_int16"
    assert repr(f) == ("plinth.ImageFormat(order=plinth.ChannelOrder.rg, "
                       "type=plinth.ChannelType.snorm_int16)")
    assert f == plinth.ImageFormat(plinth.ChannelOrder.rg, plinth.ChannelType.snorm_int16)
    assert f != RGBA_F32
    assert len({f, plinth.ImageFormat(plinth.ChannelOrder.rg, plinth.ChannelType.snorm_int16),
                RGBA_F32}) == 2
    f.type = plinth.ChannelType.uint32
    assert (f.pixel_size, str(f)) == (8, "rg uint32")


def test_extent_box_sampler_desc_and_region():
    e = plinth.ImageExtent(width=7, height=5)
    assert (e.width, e.height, e.depth, e.layers) == (7, 5, 1, 1)
    assert e == plinth.ImageExtent(7, 5, 1, 1) and e != plinth.ImageExtent(7)
    assert repr(e) == "plinth.ImageExtent(width=7, height=5, depth=1, layers=1)"

    box = plinth.ImageBox()
    assert (box.origin, box.size) == ((0, 0, 0), (1, 1, 1))
    box = plinth.ImageBox(origin=(1, 2), size=(3,))  # missing origins 0, sizes 1
    assert (box.origin, box.size) == ((1, 2, 0), (3, 1, 1))
    box.size = (4, 5, 6)
    assert repr(box) == "plinth.ImageBox(origin=(1, 2, 0), size=(4, 5, 6))"
    with pytest.raises(plinth.LogicError, match="origin has 4 axes"):
        plinth.ImageBox(origin=(0, 0, 0, 0))
    with pytest.raises(plinth.LogicError, match="size has 0 axes"):
        box.size = ()

    d = plinth.SamplerDesc()
    assert (d.address, d.filter, d.normalized_coords) == (
        plinth.AddressMode.clamp_to_edge, plinth.FilterMode.nearest, False)
    d = plinth.SamplerDesc(filter=plinth.FilterMode.linear, normalized_coords=True)
    assert d == plinth.SamplerDesc(plinth.AddressMode.clamp_to_edge, plinth.FilterMode.linear, True)
    assert hash(d) == hash(plinth.SamplerDesc(filter=plinth.FilterMode.linear,
                                              normalized_coords=True))
    assert repr(d) == ("plinth.SamplerDesc(address=plinth.AddressMode.clamp_to_edge, "
                       "filter=plinth.FilterMode.linear, normalized_coords=True)")

    r = plinth.RectRegion(x_bytes=8, row_pitch=64)
    assert (r.x_bytes, r.y, r.z, r.row_pitch, r.slice_pitch) == (8, 0, 0, 64, 0)
    assert repr(r) == "plinth.RectRegion(x_bytes=8, y=0, z=0, row_pitch=64, slice_pitch=0)"


def test_image_support(support, context):
    limits = support.limits
    assert support.available and support.reason == ""
    for name in ("max_width_1d", "max_width_2d", "max_height_2d", "max_width_3d",
                 "max_height_3d", "max_depth_3d"):
        assert getattr(limits, name) > 0, name
    assert repr(limits).startswith("plinth.ImageLimits(max_width_1d=")
    assert isinstance(support.formats, tuple) and len(support.formats) == 5
    assert isinstance(support.writes_3d, bool)
    # OpenCL's minimum: RGBA float32 and unorm_int8 2-D images.
    assert support.supports(plinth.ImageType.image2d, RGBA_F32)
    assert support.supports(plinth.ImageType.image2d, RGBA_UNORM8)
    # supports() is the mask's bit.
    for t in plinth.ImageType:
        for order in plinth.ChannelOrder:
            for ct in plinth.ChannelType:
                f = plinth.ImageFormat(order, ct)
                bit = bool((support.formats[list(plinth.ImageType).index(t)] >> f.index) & 1)
                assert support.supports(t, f) == bit
    assert repr(support).startswith("plinth.ImageSupport(available=True, ")
    # Every device of the context answers (never raises).
    for device in context.devices:
        assert isinstance(plinth.image_support(device), plinth.ImageSupport)


# ---- Images, samplers, round trips -------------------------------------------------------------

ROUND_TRIPS = [
    (plinth.ImageType.image2d, RGBA_F32, dict(width=7, height=5), (5, 7, 4)),
    (plinth.ImageType.image2d, RGBA_UNORM8, dict(width=7, height=5), (5, 7, 4)),
    (plinth.ImageType.image1d,
     plinth.ImageFormat(plinth.ChannelOrder.r, plinth.ChannelType.uint16), dict(width=13),
     (13, 1)),
    (plinth.ImageType.image3d,
     plinth.ImageFormat(plinth.ChannelOrder.rgba, plinth.ChannelType.int16),
     dict(width=5, height=4, depth=3), (3, 4, 5, 4)),
    (plinth.ImageType.image1d_array,
     plinth.ImageFormat(plinth.ChannelOrder.r, plinth.ChannelType.float32),
     dict(width=9, layers=3), (3, 9, 1)),
    (plinth.ImageType.image2d_array,
     plinth.ImageFormat(plinth.ChannelOrder.rgba, plinth.ChannelType.uint32),
     dict(width=6, height=4, layers=3), (3, 4, 6, 4)),
]


@pytest.mark.parametrize("type_, format_, extent, shape", ROUND_TRIPS,
                         ids=[f"{t.name}-{f}".replace(" ", "_") for t, f, _, _ in ROUND_TRIPS])
def test_round_trips_through_numpy_bytes_and_arrays(device, queue, support, type_, format_,
                                                    extent, shape):
    if not support.supports(type_, format_):
        pytest.skip(f"the device makes no {type_.name} {format_}")
    image = allocate(device, type_, format_, **extent)
    dtype = image.channel_dtype
    assert image.shape == shape and image.type == type_ and image.format == format_
    assert image.extent == plinth.ImageExtent(**extent) and image.device == device
    assert image.nbytes == int(np.prod(shape)) * dtype.itemsize
    assert isinstance(image.handle, int) and image.handle != 0
    assert image == image and hash(image) == hash(image)
    assert repr(image).startswith(f"<plinth.Image {type_.name} {format_} of ")

    # numpy array in, new numpy array out.
    values = random_pixels(shape, dtype, 1)
    image.set(queue, values)
    back = image.get(queue)
    assert back.shape == shape and back.dtype == dtype
    np.testing.assert_array_equal(back, values)
    # A non-contiguous source is packed first; `out` arrays and bytearrays are filled.
    strided = np.zeros(shape[:-1] + (2 * shape[-1],), dtype)
    strided[..., ::2] = random_pixels(shape, dtype, 2)
    image.set(queue, strided[..., ::2])
    out = np.empty(shape, dtype)
    assert image.get(queue, out) is out
    np.testing.assert_array_equal(out, strided[..., ::2])
    raw = bytearray(image.nbytes)
    assert image.get(queue, out=raw) is raw
    assert bytes(raw) == out.tobytes()
    # Packed bytes in.
    values = random_pixels(shape, dtype, 3)
    image.set(queue, values.tobytes())
    np.testing.assert_array_equal(image.get(queue), values)
    # A list is converted to the channel dtype.
    image.set(queue, values.tolist())
    np.testing.assert_array_equal(image.get(queue), values)
    # Device arrays, both ways, ordered in the queue.
    values = random_pixels(shape, dtype, 4)
    image.set(queue, plinth.to_device(queue, values))
    target = plinth.zeros(queue, shape, dtype)
    assert image.get(queue, target) is target
    np.testing.assert_array_equal(target.get(), values)
    # An asynchronous read into a new array, valid after synchronize().
    pending = image.get(queue, async_=True)
    queue.synchronize()
    np.testing.assert_array_equal(pending, values)
    if format_.channels == 1:  # an R image takes arrays without the trailing 1
        values = random_pixels(shape[:-1], dtype, 5)
        image.set(queue, values)
        flat = np.empty(shape[:-1], dtype)
        image.get(queue, flat)
        np.testing.assert_array_equal(flat, values)


def test_images_are_shared_handles(device, queue):
    image = allocate(device, plinth.ImageType.image2d, RGBA_U8, width=4, height=2)
    other = allocate(device, plinth.ImageType.image2d, RGBA_U8, width=4, height=2)
    assert image != other
    assert len({image, other, image}) == 2


def test_sampler(context, support):
    sampler = plinth.Sampler.create(context)
    assert sampler.desc == plinth.SamplerDesc()
    assert sampler.context == context
    assert isinstance(sampler.handle, int)
    desc = plinth.SamplerDesc(plinth.AddressMode.repeat, plinth.FilterMode.linear, True)
    linear = plinth.Sampler.create(context, desc)
    assert linear.desc == desc
    assert repr(linear) == "<plinth.Sampler repeat, linear, normalised coordinates>"


# ---- Box copies --------------------------------------------------------------------------------


def test_box_copies_through_host_buffers_arrays_and_images(device, queue):
    # A 2-D RGBA uint8 image of 8 x 6, and the box [1, 6) x [2, 5).
    image = allocate(device, plinth.ImageType.image2d, RGBA_U8, width=8, height=6)
    expected = random_pixels((6, 8, 4), np.uint8, 5)
    image.set(queue, expected)
    box = plinth.ImageBox(origin=(1, 2), size=(5, 3))
    row = 5 * 4

    # Host to image from a pitched region of a numpy array: rows 32 bytes apart, 8 bytes in.
    host = random_pixels((3, 32), np.uint8, 6)
    plinth.write_image(queue, image, box, host, plinth.RectRegion(x_bytes=8, row_pitch=32))
    expected[2:5, 1:6] = host[:, 8:8 + row].reshape(3, 5, 4)
    np.testing.assert_array_equal(image.get(queue), expected)
    # Packed bytes (no region).
    packed = random_pixels((3, 5, 4), np.uint8, 7)
    plinth.write_image(queue, image, box, packed.tobytes())
    expected[2:5, 1:6] = packed
    np.testing.assert_array_equal(image.get(queue), expected)

    # Image to host: a new array of the box's shape, or a pitched region of `dst`.
    got = plinth.read_image(queue, None, None, image, box)
    assert got.shape == (3, 5, 4) and got.dtype == np.uint8
    np.testing.assert_array_equal(got, expected[2:5, 1:6])
    dst = np.zeros((3, 40), np.uint8)
    assert plinth.read_image(queue, dst, plinth.RectRegion(x_bytes=4, row_pitch=40), image,
                             box) is dst
    np.testing.assert_array_equal(dst[:, 4:4 + row].reshape(3, 5, 4), expected[2:5, 1:6])
    assert not dst[:, :4].any() and not dst[:, 4 + row:].any()
    raw = bytearray(3 * row)
    plinth.read_image(queue, raw, None, image, box, async_=True)
    queue.synchronize()
    assert bytes(raw) == expected[2:5, 1:6].tobytes()

    # Image to buffer and back into another image, with a pitched buffer region.
    buffer = plinth.Buffer.allocate(device, 3 * 64)
    buffer.set(queue, np.zeros(3 * 64, np.uint8))
    plinth.copy_image_to_buffer(queue, buffer, plinth.RectRegion(x_bytes=16, row_pitch=64),
                                image, box)
    rows = buffer.get(queue).reshape(3, 64)
    np.testing.assert_array_equal(rows[:, 16:16 + row].reshape(3, 5, 4), expected[2:5, 1:6])
    other = allocate(device, plinth.ImageType.image2d, RGBA_U8, width=5, height=3)
    other.set(queue, np.zeros((3, 5, 4), np.uint8))
    plinth.copy_buffer_to_image(queue, other, other.box, buffer,
                                plinth.RectRegion(x_bytes=16, row_pitch=64))
    np.testing.assert_array_equal(other.get(queue), expected[2:5, 1:6])
    other_pixels = expected[2:5, 1:6].copy()

    # Arrays stand for their memory from the first element on.
    array = plinth.zeros(queue, (3, 5, 4), np.uint8)
    plinth.copy_image_to_buffer(queue, array, None, image, box)
    np.testing.assert_array_equal(array.get(), expected[2:5, 1:6])
    plinth.copy_buffer_to_image(queue, image, plinth.ImageBox(size=(5, 3)), array * 0 + 9)
    expected[0:3, 0:5] = 9
    np.testing.assert_array_equal(image.get(queue), expected)

    # Image to image, and within one image where the boxes do not overlap.
    third = allocate(device, plinth.ImageType.image2d, RGBA_U8, width=8, height=6)
    third.set(queue, np.zeros((6, 8, 4), np.uint8))
    plinth.copy_image(queue, third, (2, 1, 0), other, plinth.ImageBox(size=(5, 3)))
    reference = np.zeros((6, 8, 4), np.uint8)
    reference[1:4, 2:7] = other_pixels
    np.testing.assert_array_equal(third.get(queue), reference)
    plinth.copy_image(queue, third, (4, 0, 0), third, plinth.ImageBox(size=(4, 6)))
    reference[:, 4:8] = reference[:, 0:4]
    np.testing.assert_array_equal(third.get(queue), reference)


def test_box_copies_of_a_3d_image(device, queue, support):
    if not support.supports(plinth.ImageType.image3d, RGBA_U8):
        pytest.skip("no 3-D RGBA uint8 images")
    image = allocate(device, plinth.ImageType.image3d, RGBA_U8, width=5, height=4, depth=3)
    expected = random_pixels((3, 4, 5, 4), np.uint8, 8)
    image.set(queue, expected)
    box = plinth.ImageBox(origin=(1, 1, 1), size=(3, 2, 2))
    got = plinth.read_image(queue, None, None, image, box)
    assert got.shape == (2, 2, 3, 4)
    np.testing.assert_array_equal(got, expected[1:3, 1:3, 1:4])
    # Slices 100 bytes apart, rows 16.
    host = random_pixels((2, 100), np.uint8, 9)
    plinth.write_image(queue, image, box, host, plinth.RectRegion(row_pitch=16, slice_pitch=100))
    expected[1:3, 1:3, 1:4] = host[:, :32].reshape(2, 2, 16)[:, :, :12].reshape(2, 2, 3, 4)
    np.testing.assert_array_equal(image.get(queue), expected)


# ---- Kernels -----------------------------------------------------------------------------------

KERNELS = """
KERNEL void sample2(READ_IMAGE2D img, SAMPLER s, GLOBAL_MEM const float4 *at,
                    GLOBAL_MEM float4 *out)
{
    const int i = get_global_id(0);
    out[i] = read_imagef(img, s, make_float2(at[i].x, at[i].y));
}
KERNEL void write_f(WRITE_IMAGE2D img, GLOBAL_MEM const float4 *in, int w)
{
    const int x = get_global_id(0), y = get_global_id(1);
    write_imagef(img, make_int2(x, y), in[y * w + x]);
}
KERNEL void write_ui(WRITE_IMAGE2D img, GLOBAL_MEM const uint4 *in, int w)
{
    const int x = get_global_id(0), y = get_global_id(1);
    write_imageui(img, make_int2(x, y), in[y * w + x]);
}
KERNEL void read_ui(READ_IMAGE2D img, GLOBAL_MEM uint4 *out)
{
    const int x = get_global_id(0), y = get_global_id(1);
    out[y * get_image_width(img) + x] = read_imageui(img, make_int2(x, y));
}
"""


@pytest.fixture(scope="module")
def program(context, support):
    return plinth.Program(context, KERNELS)


def is_pocl(context):
    return context.platform.name == "Portable Computing Language"


def sample_reference(texels, x, y, desc):
    """OpenCL's sampling of a 2-D RGBA float image (texels: (h, w, 4)) at texel coordinates
    (x, y) (unnormalised), for clamp_to_edge and clamp_to_border, nearest and linear."""
    h, w = texels.shape[:2]
    border = np.zeros(4)  # RGBA: the border colour is 0 in every channel

    def texel(i, j):
        if desc.address == plinth.AddressMode.clamp_to_edge:
            return texels[min(max(j, 0), h - 1), min(max(i, 0), w - 1)].astype(np.float64)
        return texels[j, i].astype(np.float64) if 0 <= i < w and 0 <= j < h else border

    if desc.filter == plinth.FilterMode.nearest:
        return texel(int(np.floor(x)), int(np.floor(y)))
    i0, j0 = int(np.floor(x - 0.5)), int(np.floor(y - 0.5))
    a, b = x - 0.5 - i0, y - 0.5 - j0
    return ((1 - a) * (1 - b) * texel(i0, j0) + a * (1 - b) * texel(i0 + 1, j0)
            + (1 - a) * b * texel(i0, j0 + 1) + a * b * texel(i0 + 1, j0 + 1))


@pytest.mark.parametrize("address", [plinth.AddressMode.clamp_to_edge,
                                     plinth.AddressMode.clamp_to_border])
@pytest.mark.parametrize("filter_", [plinth.FilterMode.linear, plinth.FilterMode.nearest])
def test_kernel_samples_an_image(program, context, device, queue, address, filter_):
    w, h = 7, 5
    image = allocate(device, plinth.ImageType.image2d, RGBA_F32, width=w, height=h)
    texels = random_pixels((h, w, 4), np.float32, 10)
    image.set(queue, texels)
    desc = plinth.SamplerDesc(address, filter_, False)
    sampler = plinth.Sampler.create(context, desc)
    # Quarter texels (never on a texel's edge or centre), inside and beyond both edges.
    xs = np.arange(-2.25, w + 2.3, 0.5)
    ys = np.arange(-2.25, h + 2.3, 0.5)
    points = np.array([(x, y) for y in ys for x in xs])
    at = np.zeros((len(points), 4), np.float32)
    at[:, :2] = points
    out = plinth.zeros(queue, (len(points), 4), np.float32)
    program.sample2(queue, len(points), None, image, sampler, plinth.to_device(queue, at), out)
    got = out.get()
    expected = np.array([sample_reference(texels, x, y, desc) for x, y in points])
    # PoCL's weights are exact; CUDA's have 8 fractional bits.
    tolerance = 1e-4 if is_pocl(context) or filter_ == plinth.FilterMode.nearest else (
        float(texels.max() - texels.min()) * 2.0 ** -8)
    np.testing.assert_allclose(got, expected, rtol=1e-6, atol=tolerance)


def test_kernel_writes_images(program, device, queue):
    w, h = 6, 4
    # write_imagef to unorm_int8: x * 255 rounded to nearest and saturated (values 0.3 away from
    # a tie, and beyond both ends).
    image = allocate(device, plinth.ImageType.image2d, RGBA_UNORM8, width=w, height=h)
    image.set(queue, np.zeros((h, w, 4), np.uint8))
    k = np.arange(h * w * 4, dtype=np.float32).reshape(h, w, 4) * 3 - 20
    values = (k + np.float32(0.3)) / np.float32(255)
    program.write_f(queue, (w, h), None, image, plinth.to_device(queue, values), np.int32(w))
    expected = np.clip(k, 0, 255).astype(np.uint8)
    np.testing.assert_array_equal(image.get(queue), expected)

    # write_imageui to uint8 saturates; read back through a kernel too.
    image = allocate(device, plinth.ImageType.image2d, RGBA_U8, width=w, height=h)
    values = np.arange(h * w * 4, dtype=np.uint32).reshape(h, w, 4) * 11
    program.write_ui(queue, (w, h), None, image, plinth.to_device(queue, values), np.int32(w))
    expected = np.minimum(values, 255).astype(np.uint8)
    np.testing.assert_array_equal(image.get(queue), expected)
    out = plinth.zeros(queue, (h, w, 4), np.uint32)
    program.read_ui(queue, (w, h), None, image, out)
    np.testing.assert_array_equal(out.get(), expected)
    # A prepared launch takes images too.
    program.read_ui.prepare((w, h))(queue, image, out)
    np.testing.assert_array_equal(out.get(), expected)


def test_kernel_argument_errors(program, context, device, queue):
    image = allocate(device, plinth.ImageType.image2d, RGBA_U8, width=4, height=4)
    sampler = plinth.Sampler.create(context)
    out = plinth.zeros(queue, (4, 4, 4), np.uint32)
    # An image where a buffer goes, a sampler or a buffer where an image goes.
    with pytest.raises(plinth.LogicError, match="argument 1"):
        program.read_ui(queue, (4, 4), None, image, image)
    with pytest.raises(plinth.LogicError, match="argument 0"):
        program.read_ui(queue, (4, 4), None, sampler, out)
    with pytest.raises(plinth.LogicError, match="argument 0"):
        program.read_ui(queue, (4, 4), None, out, out)
    with pytest.raises(TypeError, match="plinth.Image, plinth.Sampler"):
        program.read_ui(queue, (4, 4), None, "image", out)


# ---- Errors ------------------------------------------------------------------------------------


def test_transfer_errors(device, queue):
    image = allocate(device, plinth.ImageType.image2d, RGBA_F32, width=5, height=3)
    with pytest.raises(plinth.LogicError, match=r"has shape \(5, 3, 4\), the image \(3, 5, 4\)"):
        image.set(queue, np.zeros((5, 3, 4), np.float32))
    with pytest.raises(plinth.LogicError, match="has dtype float64, the image's channels float32"):
        image.set(queue, np.zeros((3, 5, 4)))
    with pytest.raises(ValueError):  # LogicError is a ValueError
        image.get(queue, np.zeros((3, 5, 4), np.int32))
    with pytest.raises(plinth.LogicError, match=r"Image::get: the array has shape \(5, 3, 4\)"):
        image.get(queue, plinth.zeros(queue, (5, 3, 4), np.float32))
    with pytest.raises(plinth.LogicError, match="not C-contiguous"):
        image.get(queue, np.zeros((3, 5, 8), np.float32)[..., ::2])
    with pytest.raises(plinth.LogicError, match="the host data has 100 bytes, the image 240"):
        image.set(queue, bytes(100))
    with pytest.raises(plinth.LogicError, match="the host memory has 16 bytes, the image 240"):
        image.get(queue, bytearray(16))
    readonly = np.zeros((3, 5, 4), np.float32)
    readonly.flags.writeable = False
    with pytest.raises(plinth.LogicError, match="read-only"):
        image.get(queue, readonly)
    with pytest.raises(TypeError, match="out must be"):
        image.get(queue, [0] * 60)


def test_allocation_and_sampler_errors(context, device, support):
    with pytest.raises(plinth.LogicError, match="width must be greater than 0"):
        allocate(device, plinth.ImageType.image2d, RGBA_F32, width=0, height=3)
    with pytest.raises(plinth.LogicError, match="has no depth: it must be 1, not 2"):
        allocate(device, plinth.ImageType.image2d, RGBA_F32, width=4, height=4, depth=2)
    with pytest.raises(plinth.LogicError, match="exceeds"):
        allocate(device, plinth.ImageType.image2d, RGBA_F32,
                 width=support.limits.max_width_2d + 1)
    with pytest.raises(plinth.LogicError, match="needs normalised coordinates"):
        plinth.Sampler.create(context, plinth.SamplerDesc(address=plinth.AddressMode.repeat))
    with pytest.raises(TypeError):
        plinth.Image.allocate(device, "image2d", RGBA_F32, plinth.ImageExtent(4, 4))


def test_box_copy_errors(device, queue):
    image = allocate(device, plinth.ImageType.image2d, RGBA_U8, width=8, height=4)
    host = np.zeros(1024, np.uint8)
    with pytest.raises(plinth.LogicError, match="does not fit"):
        plinth.write_image(queue, image, plinth.ImageBox(origin=(6, 0), size=(3, 1)), host)
    with pytest.raises(plinth.LogicError, match="size along y is 0"):
        plinth.read_image(queue, host, None, image, plinth.ImageBox(size=(2, 0, 1)))
    with pytest.raises(plinth.LogicError, match="host source"):
        plinth.write_image(queue, image, image.box, host[:100])
    with pytest.raises(plinth.LogicError, match="source must be a C-contiguous"):
        plinth.write_image(queue, image, plinth.ImageBox(size=(2, 1)), host[::2])
    with pytest.raises(plinth.LogicError, match="dst None"):
        plinth.read_image(queue, None, plinth.RectRegion(row_pitch=64), image, image.box)
    other = allocate(device, plinth.ImageType.image2d,
                     plinth.ImageFormat(plinth.ChannelOrder.rgba, plinth.ChannelType.int8),
                     width=8, height=4)
    with pytest.raises(plinth.LogicError,
                       match="the source image is rgba uint8, the destination rgba int8"):
        plinth.copy_image(queue, other, (0, 0, 0), image, image.box)
    with pytest.raises(plinth.LogicError, match="overlap"):
        plinth.copy_image(queue, image, (1, 0, 0), image, plinth.ImageBox(size=(4, 4)))
    with pytest.raises(TypeError, match="plinth.Buffer or plinth.Array"):
        plinth.copy_image_to_buffer(queue, host, None, image, image.box)


def test_another_devices_queue_is_refused(context2):
    if not plinth.image_support(context2.devices[1]).available:
        pytest.skip("the second device has no images")
    image = allocate(context2.devices[0], plinth.ImageType.image2d, RGBA_U8, width=4, height=4)
    queue1 = plinth.Queue(context2.devices[1])
    with pytest.raises(plinth.LogicError, match="queue"):
        image.get(queue1)
    with pytest.raises(plinth.LogicError, match="queue"):
        plinth.read_image(queue1, None, None, image, image.box)


def test_images_per_device_on_a_multi_queue(context2):
    if not all(plinth.image_support(d).available for d in context2.devices):
        pytest.skip("a device has no images")
    program = plinth.Program(context2, KERNELS)
    queues = plinth.MultiQueue([plinth.Queue(d) for d in context2.devices])
    images, outs, expected = {}, {}, {}
    for i, (device, queue) in enumerate(zip(context2.devices, queues.queues)):
        images[device] = allocate(device, plinth.ImageType.image2d, RGBA_U8, width=4, height=2)
        expected[device] = random_pixels((2, 4, 4), np.uint8, 20 + i)
        images[device].set(queue, expected[device])
        outs[device] = plinth.zeros(queue, (2, 4, 4), np.uint32)
    program.read_ui(queues, (4, 2), None, images, outs)
    for device in context2.devices:
        np.testing.assert_array_equal(outs[device].get(), expected[device])
    # One sampler serves every device of its context.
    sampler = plinth.Sampler.create(context2)
    at = {}
    for device, queue in zip(context2.devices, queues.queues):
        points = np.zeros((8, 4), np.float32)
        points[:, 0] = np.arange(8) % 4 + 0.5
        points[:, 1] = np.arange(8) // 4 + 0.5
        at[device] = plinth.to_device(queue, points)
        images[device] = allocate(device, plinth.ImageType.image2d, RGBA_F32, width=4, height=2)
        expected[device] = random_pixels((2, 4, 4), np.float32, 30 + len(at))
        images[device].set(queue, expected[device])
        outs[device] = plinth.zeros(queue, (8, 4), np.float32)
    program.sample2(queues, 8, None, images, sampler, at, outs)
    for device in context2.devices:
        np.testing.assert_array_equal(outs[device].get(), expected[device].reshape(8, 4))
