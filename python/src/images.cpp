// plinth.Image and plinth.Sampler (image.hpp), their value types and enums (image_format.hpp:
// ImageFormat, ImageExtent, ImageBox, SamplerDesc, ImageLimits, ImageSupport, ImageType,
// ChannelOrder, ChannelType, ImageReadKind, AddressMode, FilterMode), image_support(), the box
// copies, and RectRegion (rect_copy.hpp), which the box copies take for their host or buffer
// side.

#include <plinth/array.hpp>
#include <plinth/buffer.hpp>
#include <plinth/errors.hpp>
#include <plinth/host_array.hpp>
#include <plinth/image.hpp>
#include <plinth/image_format.hpp>
#include <plinth/rect_copy.hpp>

#include "array_arguments.hpp"
#include "bindings.hpp"
#include "dtypes.hpp"
#include "host_arrays.hpp"
#include "host_bytes.hpp"
#include "py_array.hpp"

#include <nanobind/stl/array.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <array>
#include <bit>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace plinth::python {

namespace {

// Names below are prefixed `image_`: the extension may be built as one unity source.

std::string image_sizes_text(const std::array<std::size_t, 3>& sizes) {
  return "(" + std::to_string(sizes[0]) + ", " + std::to_string(sizes[1]) + ", " +
         std::to_string(sizes[2]) + ")";
}

/// 1 to 3 extents, the missing ones `fill`: how Python gives an ImageBox's origin and size.
std::array<std::size_t, 3> image_axes(const std::vector<std::size_t>& given, std::size_t fill,
                                      const char* what) {
  if (given.empty() || given.size() > 3) {
    throw LogicError(std::string("ImageBox: ") + what + " has " + std::to_string(given.size()) +
                     " axes: it takes 1 to 3 (x, y, z)");
  }
  std::array<std::size_t, 3> axes{fill, fill, fill};
  for (std::size_t i = 0; i < given.size(); ++i) axes[i] = given[i];
  return axes;
}

std::string image_format_repr(const ImageFormat& f) {
  return "plinth.ImageFormat(order=plinth.ChannelOrder." + to_string(f.order) +
         ", type=plinth.ChannelType." + to_string(f.type) + ")";
}

std::string image_extent_text(const Image& image) {
  const auto& e = image.extent();
  switch (image.type()) {
    case ImageType::image1d: return std::to_string(e.width);
    case ImageType::image2d: return std::to_string(e.width) + " x " + std::to_string(e.height);
    case ImageType::image3d:
      return std::to_string(e.width) + " x " + std::to_string(e.height) + " x " +
             std::to_string(e.depth);
    case ImageType::image1d_array:
      return std::to_string(e.layers) + " layers of " + std::to_string(e.width);
    case ImageType::image2d_array:
      return std::to_string(e.layers) + " layers of " + std::to_string(e.width) + " x " +
             std::to_string(e.height);
  }
  return "?";
}

std::string image_repr(const Image& image) {
  return "<plinth.Image " + to_string(image.type()) + " " + to_string(image.format()) + " of " +
         image_extent_text(image) + " on device " + std::to_string(image.device().index()) + " (" +
         image.device().device().full_name() + ")>";
}

std::string image_sampler_desc_repr(const SamplerDesc& d) {
  return "plinth.SamplerDesc(address=plinth.AddressMode." + to_string(d.address) +
         ", filter=plinth.FilterMode." + to_string(d.filter) +
         ", normalized_coords=" + (d.normalized_coords ? "True" : "False") + ")";
}

bool image_is_ndarray(nb::handle object) { return nb::isinstance(object, numpy().attr("ndarray")); }

/// bytes, bytearray and memoryview: host memory taken as packed bytes, not as an array.
bool image_is_bytes_like(nb::handle object) {
  PyObject* o = object.ptr();
  return PyBytes_Check(o) || PyByteArray_Check(o) || PyMemoryView_Check(o);
}

/// The buffer side of a box copy: a Buffer, or an Array's memory from its first element on
/// (a source may be an Expression: its value).
Buffer image_buffer_side(nb::handle object, bool source) {
  if (nb::isinstance<Buffer>(object)) return nb::cast<const Buffer&>(object);
  if (nb::isinstance<PyArray>(object)) {
    return nb::cast<const PyArray&>(object).array.first_element_buffer();
  }
  if (source) {
    if (const auto array = array_or_expression(object)) return array->array.first_element_buffer();
  }
  throw nb::type_error((std::string(source ? "src" : "dst") +
                        " must be a plinth.Buffer or plinth.Array, not " +
                        nb::cast<std::string>(nb::type_name(nb::handle(Py_TYPE(object.ptr())))))
                           .c_str());
}

/// The numpy shape of `box`'s pixels packed, as Image.shape has it for the whole image: the
/// type's axes, outermost first, then the channels.
std::vector<std::size_t> image_box_shape(const Image& image, const ImageBox& box) {
  const std::size_t channels = image.format().channels();
  switch (image.type()) {
    case ImageType::image1d: return {box.size[0], channels};
    case ImageType::image2d:
    case ImageType::image1d_array: return {box.size[1], box.size[0], channels};
    case ImageType::image3d:
    case ImageType::image2d_array: return {box.size[2], box.size[1], box.size[0], channels};
  }
  return {box.size[2], box.size[1], box.size[0], channels};
}

/// Image.set's host source: a numpy array as it is (the C++ call checks its shape and dtype;
/// one that is not C-contiguous is packed first), anything else numpy.asarray() takes
/// converted to the channel dtype.
void image_set_from_host(const Image& image, const Queue& queue, nb::handle src) {
  nb::object array = image_is_ndarray(src)
                         ? nb::borrow(src)
                         : numpy().attr("asarray")(src, to_numpy_dtype(image.channel_dtype()));
  array = numpy().attr("ascontiguousarray")(array);
  nb::object converted;
  const HostArray host = host_view(array, converted);
  nb::gil_scoped_release release;
  image.set(queue, host, /*no_async=*/true);
}

void bind_image_enums(nb::module_& m) {
  nb::enum_<ImageType>(m, "ImageType",
                       "The shape of an image. Layered (array) images are stacks of 1-D or 2-D "
                       "images that a kernel addresses by layer and never filters across.")
      .value("image1d", ImageType::image1d, "width")
      .value("image2d", ImageType::image2d, "width x height")
      .value("image3d", ImageType::image3d, "width x height x depth")
      .value("image1d_array", ImageType::image1d_array, "`layers` images of width")
      .value("image2d_array", ImageType::image2d_array, "`layers` images of width x height");

  nb::enum_<ChannelOrder>(m, "ChannelOrder",
                          "Which channels a pixel has, in memory order. A read returns four "
                          "components: the missing ones are 0 and alpha 1.")
      .value("r", ChannelOrder::r)
      .value("rg", ChannelOrder::rg)
      .value("rgba", ChannelOrder::rgba);

  nb::enum_<ChannelType>(m, "ChannelType",
                         "What one channel holds. unorm_*/snorm_* are integers that kernels "
                         "read as floats in [0, 1] and [-1, 1] (read_imagef) and write from "
                         "floats; the others are read as they are (read_imagei, read_imageui, "
                         "read_imagef).")
      .value("unorm_int8", ChannelType::unorm_int8)
      .value("unorm_int16", ChannelType::unorm_int16)
      .value("snorm_int8", ChannelType::snorm_int8)
      .value("snorm_int16", ChannelType::snorm_int16)
      .value("int8", ChannelType::int8)
      .value("int16", ChannelType::int16)
      .value("int32", ChannelType::int32)
      .value("uint8", ChannelType::uint8)
      .value("uint16", ChannelType::uint16)
      .value("uint32", ChannelType::uint32)
      .value("float16", ChannelType::float16)
      .value("float32", ChannelType::float32);

  nb::enum_<ImageReadKind>(m, "ImageReadKind",
                           "Which read function returns a channel type's values (and which "
                           "write function takes them).")
      .value("float_", ImageReadKind::float_, "read_imagef")
      .value("int_", ImageReadKind::int_, "read_imagei")
      .value("uint_", ImageReadKind::uint_, "read_imageui");

  nb::enum_<AddressMode>(m, "AddressMode", "What coordinates outside the image read.")
      .value("clamp_to_edge", AddressMode::clamp_to_edge, "The nearest edge pixel.")
      .value("clamp_to_border", AddressMode::clamp_to_border,
             "The border colour: 0 in every channel, alpha 1 where the format has none.")
      .value("repeat", AddressMode::repeat, "The image tiled (normalised coordinates only).")
      .value("mirrored_repeat", AddressMode::mirrored_repeat,
             "The image tiled, every other tile mirrored (normalised coordinates only).");

  nb::enum_<FilterMode>(m, "FilterMode", "How a read between pixel centres is resolved.")
      .value("nearest", FilterMode::nearest, "The pixel the coordinate falls in.")
      .value("linear", FilterMode::linear,
             "The weighted mean of the 2, 4 or 8 nearest pixels (read_imagef of a float or "
             "normalised format only).");
}

void bind_image_values(nb::module_& m) {
  nb::class_<ImageFormat>(m, "ImageFormat", "A pixel format: channel order and channel type.")
      .def(
          "__init__",
          [](ImageFormat* self, ChannelOrder order, ChannelType type) {
            new (self) ImageFormat{order, type};
          },
          nb::arg("order") = ChannelOrder::rgba, nb::arg("type") = ChannelType::float32)
      .def_rw("order", &ImageFormat::order, "A ChannelOrder.")
      .def_rw("type", &ImageFormat::type, "A ChannelType.")
      .def_prop_ro("channels", &ImageFormat::channels, "1, 2 or 4.")
      .def_prop_ro("channel_size", &ImageFormat::channel_size, "Bytes per channel: 1, 2 or 4.")
      .def_prop_ro("pixel_size", &ImageFormat::pixel_size,
                   "Bytes per pixel as copies pack them: channels * channel_size.")
      .def_prop_ro("normalized", &ImageFormat::normalized,
                   "Whether kernels read it as normalised floats (unorm_*, snorm_*).")
      .def_prop_ro("read_kind", &ImageFormat::read_kind,
                   "The ImageReadKind: which read function returns its values.")
      .def_prop_ro("index", &ImageFormat::index,
                   "A number below 36, the format's bit in ImageSupport.formats.")
      .def(
          "__eq__", [](const ImageFormat& a, const ImageFormat& b) { return a == b; },
          nb::is_operator())
      .def("__hash__", [](const ImageFormat& f) { return f.index(); })
      .def(
          "__str__", [](const ImageFormat& f) { return to_string(f); }, "'rgba unorm_int8'.")
      .def("__repr__", &image_format_repr);

  nb::class_<ImageExtent>(m, "ImageExtent",
                          "How many pixels an image has along each axis. Unused axes are 1 (a "
                          "2-D image's depth and layers); layered images count `layers` and "
                          "leave depth 1.")
      .def(
          "__init__",
          [](ImageExtent* self, std::size_t width, std::size_t height, std::size_t depth,
             std::size_t layers) {
            new (self) ImageExtent{width, height, depth, layers};
          },
          nb::arg("width") = 1, nb::arg("height") = 1, nb::arg("depth") = 1, nb::arg("layers") = 1)
      .def_rw("width", &ImageExtent::width)
      .def_rw("height", &ImageExtent::height)
      .def_rw("depth", &ImageExtent::depth)
      .def_rw("layers", &ImageExtent::layers)
      .def(
          "__eq__", [](const ImageExtent& a, const ImageExtent& b) { return a == b; },
          nb::is_operator())
      .def("__repr__", [](const ImageExtent& e) {
        return "plinth.ImageExtent(width=" + std::to_string(e.width) +
               ", height=" + std::to_string(e.height) + ", depth=" + std::to_string(e.depth) +
               ", layers=" + std::to_string(e.layers) + ")";
      });

  nb::class_<ImageBox>(m, "ImageBox",
                       "A box of pixels of an image, for copies: `origin` is its first pixel's "
                       "(x, y, z), `size` its width, height and depth in pixels. A layered "
                       "image's layer takes the next free axis (a 1-D array's y, a 2-D array's "
                       "z). Unused axes have origin 0 and size 1.")
      .def(
          "__init__",
          [](ImageBox* self, const std::vector<std::size_t>& origin,
             const std::vector<std::size_t>& size) {
            new (self) ImageBox{image_axes(origin, 0, "origin"), image_axes(size, 1, "size")};
          },
          nb::sig("def __init__(self, origin: collections.abc.Sequence[int] = (0, 0, 0), size: "
                  "collections.abc.Sequence[int] = (1, 1, 1)) -> None"),
          nb::arg("origin") = std::vector<std::size_t>{0, 0, 0},
          nb::arg("size") = std::vector<std::size_t>{1, 1, 1},
          "`origin` and `size`: 1 to 3 ints (x, y, z); missing origins are 0, missing sizes "
          "1. Raises LogicError for more than 3.")
      .def_prop_rw(
          "origin", [](const ImageBox& b) { return nb::tuple(nb::cast(b.origin)); },
          [](ImageBox& b, const std::vector<std::size_t>& v) {
            b.origin = image_axes(v, 0, "origin");
          },
          "The first pixel's (x, y, z).")
      .def_prop_rw(
          "size", [](const ImageBox& b) { return nb::tuple(nb::cast(b.size)); },
          [](ImageBox& b, const std::vector<std::size_t>& v) { b.size = image_axes(v, 1, "size"); },
          "(width, height, depth) in pixels.")
      .def("__repr__", [](const ImageBox& b) {
        return "plinth.ImageBox(origin=" + image_sizes_text(b.origin) +
               ", size=" + image_sizes_text(b.size) + ")";
      });

  nb::class_<SamplerDesc>(m, "SamplerDesc", "A sampler's settings.")
      .def(
          "__init__",
          [](SamplerDesc* self, AddressMode address, FilterMode filter, bool normalized_coords) {
            new (self) SamplerDesc{address, filter, normalized_coords};
          },
          nb::arg("address") = AddressMode::clamp_to_edge, nb::arg("filter") = FilterMode::nearest,
          nb::arg("normalized_coords") = false)
      .def_rw("address", &SamplerDesc::address, "An AddressMode.")
      .def_rw("filter", &SamplerDesc::filter, "A FilterMode.")
      .def_rw("normalized_coords", &SamplerDesc::normalized_coords,
              "Coordinates in [0, 1) across the image rather than in pixels [0, width).")
      .def(
          "__eq__", [](const SamplerDesc& a, const SamplerDesc& b) { return a == b; },
          nb::is_operator())
      .def("__hash__",
           [](const SamplerDesc& d) {
             return static_cast<std::size_t>(d.address) * 4 +
                    static_cast<std::size_t>(d.filter) * 2 + (d.normalized_coords ? 1 : 0);
           })
      .def("__repr__", &image_sampler_desc_repr);

  nb::class_<ImageLimits>(m, "ImageLimits", "The largest images a device makes (0: none).")
      .def_ro("max_width_1d", &ImageLimits::max_width_1d)
      .def_ro("max_width_2d", &ImageLimits::max_width_2d)
      .def_ro("max_height_2d", &ImageLimits::max_height_2d)
      .def_ro("max_width_3d", &ImageLimits::max_width_3d)
      .def_ro("max_height_3d", &ImageLimits::max_height_3d)
      .def_ro("max_depth_3d", &ImageLimits::max_depth_3d)
      .def_ro("max_layers", &ImageLimits::max_layers,
              "Of 1-D and 2-D layered images (0: no layered images).")
      .def("__repr__", [](const ImageLimits& l) {
        return "plinth.ImageLimits(max_width_1d=" + std::to_string(l.max_width_1d) +
               ", max_width_2d=" + std::to_string(l.max_width_2d) +
               ", max_height_2d=" + std::to_string(l.max_height_2d) +
               ", max_width_3d=" + std::to_string(l.max_width_3d) +
               ", max_height_3d=" + std::to_string(l.max_height_3d) +
               ", max_depth_3d=" + std::to_string(l.max_depth_3d) +
               ", max_layers=" + std::to_string(l.max_layers) + ")";
      });

  nb::class_<ImageSupport>(m, "ImageSupport",
                           "Whether and how a device makes images (plinth.image_support()).")
      .def_ro("available", &ImageSupport::available, "The device makes images and samplers.")
      .def_ro("reason", &ImageSupport::reason, "Why not, where `available` is False.")
      .def_ro("limits", &ImageSupport::limits, "An ImageLimits.")
      .def_prop_ro(
          "formats", [](const ImageSupport& s) { return nb::tuple(nb::cast(s.formats)); },
          "Per ImageType (in its order: formats[0] for image1d...), a mask with bit "
          "ImageFormat.index set for each format the device makes images of that type in.")
      .def_ro("writes_3d", &ImageSupport::writes_3d,
              "Kernels can write 3-D images (OpenCL: cl_khr_3d_image_writes); the other types "
              "are always writable.")
      .def("supports", &ImageSupport::supports, nb::arg("type"), nb::arg("format"),
           "Whether the device makes images of `type` (an ImageType) in `format` (an "
           "ImageFormat).")
      .def("__repr__", [](const ImageSupport& s) {
        if (!s.available) return "plinth.ImageSupport(available=False, reason='" + s.reason + "')";
        std::size_t formats = 0;
        for (const auto mask : s.formats) formats += static_cast<std::size_t>(std::popcount(mask));
        return "plinth.ImageSupport(available=True, " + std::to_string(formats) +
               " (type, format) pairs, writes_3d=" + (s.writes_3d ? "True" : "False") + ")";
      });

  nb::class_<RectRegion>(m, "RectRegion",
                         "Where a rectangular region lies in one side of a copy (host memory "
                         "or a buffer), in bytes: its first byte is at x_bytes + y * row_pitch "
                         "+ z * slice_pitch, its rows row_pitch bytes apart, its slices "
                         "slice_pitch apart. row_pitch 0: the copy's row (packed); slice_pitch "
                         "0: row_pitch times the copy's height.")
      .def(
          "__init__",
          [](RectRegion* self, std::size_t x_bytes, std::size_t y, std::size_t z,
             std::size_t row_pitch, std::size_t slice_pitch) {
            new (self) RectRegion{x_bytes, y, z, row_pitch, slice_pitch};
          },
          nb::arg("x_bytes") = 0, nb::arg("y") = 0, nb::arg("z") = 0, nb::arg("row_pitch") = 0,
          nb::arg("slice_pitch") = 0)
      .def_rw("x_bytes", &RectRegion::x_bytes)
      .def_rw("y", &RectRegion::y)
      .def_rw("z", &RectRegion::z)
      .def_rw("row_pitch", &RectRegion::row_pitch)
      .def_rw("slice_pitch", &RectRegion::slice_pitch)
      .def("__repr__", [](const RectRegion& r) {
        return "plinth.RectRegion(x_bytes=" + std::to_string(r.x_bytes) +
               ", y=" + std::to_string(r.y) + ", z=" + std::to_string(r.z) +
               ", row_pitch=" + std::to_string(r.row_pitch) +
               ", slice_pitch=" + std::to_string(r.slice_pitch) + ")";
      });
}

}  // namespace

void bind_images(nb::module_& m) {
  bind_image_enums(m);
  bind_image_values(m);

  m.def("image_support", &image_support, nb::arg("device"),
        "An ImageSupport saying whether `device` (a BoundDevice) makes images, in which "
        "formats and how large, or why not. Never raises.");

  nb::class_<Image>(m, "Image",
                    "An image on one device: a 1-D, 2-D or 3-D (or layered 1-D or 2-D) grid of "
                    "pixels that kernels read through a Sampler and write pixel by pixel "
                    "(READ_IMAGE2D, WRITE_IMAGE2D... parameters: docs/kernel-dialect.md). A "
                    "shared handle: the image is freed with the last one, once no queued work "
                    "uses it. Its numpy view is `shape` and `channel_dtype`: e.g. (480, 640, "
                    "4) uint8 for a 640x480 RGBA unorm_int8 2-D image.")
      .def_static("allocate", &Image::allocate, nb::arg("device"), nb::arg("type"),
                  nb::arg("format"), nb::arg("extent"),
                  "A new image of `type` (an ImageType) and `format` (an ImageFormat) with "
                  "`extent` (an ImageExtent; unused axes 1) pixels on `device` (a BoundDevice). "
                  "Its contents are unspecified. Raises LogicError when the device has no "
                  "images (saying why), does not make this type in this format, or an axis is 0 "
                  "or beyond image_support(device).limits (naming it); OutOfMemoryError; "
                  "BackendError.")
      .def_prop_ro("type", &Image::type, "The ImageType.")
      .def_prop_ro("format", &Image::format, "The ImageFormat.")
      .def_prop_ro("extent", &Image::extent, "The ImageExtent.")
      .def_prop_ro("device", &Image::device, "The BoundDevice the image is on.")
      .def_prop_ro("box", &Image::box,
                   "The whole image as an ImageBox (a 1-D array's layers along y, a 2-D "
                   "array's along z).")
      .def_prop_ro("nbytes", &Image::nbytes,
                   "The bytes of the whole image packed: pixels of format.pixel_size, no gaps.")
      .def_prop_ro(
          "shape", [](const Image& image) { return nb::tuple(nb::cast(image.shape())); },
          "The numpy shape of the whole image packed: (layers or depth, height, width, "
          "channels) without the axes the type lacks, e.g. (480, 640, 4) for a 640x480 RGBA "
          "2-D image (channels stays, 1 for an R image).")
      .def_prop_ro("channel_dtype", &Image::channel_dtype,
                   "The numpy dtype of one channel (uint8 for unorm_int8 and uint8, float16 "
                   "for float16...).")
      .def_prop_ro("handle", &Image::native_handle,
                   "The native image (cl_mem, CUarray, hipArray_t, ze_image_handle_t) as an "
                   "int.")
      .def(
          "set",
          [](const Image& image, const Queue& queue, nb::handle src) {
            if (const auto array = array_or_expression(src)) {
              nb::gil_scoped_release release;
              image.set(queue, array->array);
              return;
            }
            if (image_is_bytes_like(src)) {
              const BufferView view(src, false);
              nb::gil_scoped_release release;
              image.set(queue, view.bytes(), /*no_async=*/true);
              return;
            }
            image_set_from_host(image, queue, src);
          },
          nb::sig("def set(self, queue: Queue, src: numpy.typing.ArrayLike | bytes | bytearray | "
                  "memoryview | Array | Expression) -> None"),
          nb::arg("queue"), nb::arg("src"),
          "Copies the whole image from `src` through `queue` (of the image's device): a numpy "
          "array of `shape` (an R image's trailing 1 may be left out) and `channel_dtype` "
          "(any layout; other dtypes are refused, not converted), anything else "
          "numpy.asarray() takes (converted to channel_dtype), or bytes, bytearray or "
          "memoryview of the packed pixels (nbytes of them): these block, the GIL released, "
          "until the data have left `src`. A plinth.Array (or Expression) of `shape` and "
          "channel_dtype, C-contiguous, on the image's device is copied in queue order, "
          "asynchronously. Raises LogicError naming a shape, dtype or size that does not "
          "match, or a queue of another device.")
      .def(
          "get",
          [](const Image& image, const Queue& queue, nb::handle out, bool async) -> nb::object {
            if (out.is_none()) {
              HostArray host = HostArray::empty(image.shape(), image.channel_dtype());
              {
                nb::gil_scoped_release release;
                image.get(queue, host, async);
              }
              return to_numpy(host);
            }
            if (nb::isinstance<PyArray>(out)) {
              const PyArray& array = nb::cast<const PyArray&>(out);
              nb::gil_scoped_release release;
              image.get(queue, array.array);
            } else if (image_is_ndarray(out)) {
              nb::object converted;
              const HostArray host = host_view(out, converted, true);
              nb::gil_scoped_release release;
              image.get(queue, host, async);
            } else if (image_is_bytes_like(out)) {
              const BufferView view(out, true);
              nb::gil_scoped_release release;
              image.get(queue, view.bytes(), async);
            } else {
              throw nb::type_error(
                  "out must be a numpy.ndarray, a plinth.Array, a bytearray or a memoryview");
            }
            return nb::borrow(out);
          },
          nb::sig(
              "def get(self, queue: Queue, out: numpy.ndarray | bytearray | memoryview | Array | "
              "None = None, async_: bool = False) -> numpy.ndarray | bytearray | memoryview | "
              "Array"),
          nb::arg("queue"), nb::arg("out") = nb::none(), nb::arg("async_") = false,
          "Copies the whole image through `queue` into a new numpy array of `shape` and "
          "`channel_dtype`, or into `out`, which is returned: a C-contiguous numpy array of "
          "that shape (an R image's trailing 1 may be left out) and dtype, a writable "
          "bytearray or memoryview of nbytes bytes, or a C-contiguous plinth.Array of that "
          "shape and dtype on the image's device (ordered in `queue`, asynchronous). Host "
          "copies block, the GIL released, unless `async_` (then the result is valid after "
          "queue.synchronize(), and `out` must be kept alive and untouched until then). "
          "Raises LogicError naming a shape, dtype or size that does not match, a layout that "
          "is not C-contiguous, or a queue of another device.")
      .def(
          "__eq__", [](const Image& a, const Image& b) { return a == b; }, nb::is_operator())
      .def("__hash__", [](const Image& image) { return std::hash<Image>{}(image); })
      .def("__repr__", &image_repr);

  nb::class_<Sampler>(m, "Sampler",
                      "How kernels sample an image (a SAMPLER parameter): address mode, "
                      "filter, normalised coordinates. Made for a context, valid on each of "
                      "its devices. A shared handle.")
      .def_static(
          "create",
          [](const Context& context, const std::optional<SamplerDesc>& desc) {
            return Sampler::create(context, desc ? *desc : SamplerDesc{});
          },
          nb::arg("context"), nb::arg("desc") = nb::none(),
          "A sampler of `context` with `desc`'s settings (a SamplerDesc; None: clamp to edge, "
          "nearest, unnormalised). Raises LogicError for repeat or mirrored repeat without "
          "normalised coordinates, or when no device of the context has images; "
          "BackendError.")
      .def_prop_ro("desc", &Sampler::desc, "The SamplerDesc.")
      .def_prop_ro("context", &Sampler::context, "The Context.")
      .def_prop_ro("handle", &Sampler::native_handle,
                   "The native sampler (cl_sampler, ze_sampler_handle_t) as an int; 0 on CUDA "
                   "and HIP, whose samplers are part of their texture objects.")
      .def("__repr__", [](const Sampler& s) {
        const SamplerDesc& d = s.desc();
        return "<plinth.Sampler " + to_string(d.address) + ", " + to_string(d.filter) + ", " +
               (d.normalized_coords ? "normalised" : "unnormalised") + " coordinates>";
      });

  const char* const box_copies =
      " Raises LogicError for a queue, buffer or image of another device, a box outside the "
      "image or of a size 0, a region outside its side, or a pitch smaller than a row "
      "(slice); OutOfMemoryError; BackendError.";

  m.def(
      "write_image",
      [](const Queue& queue, const Image& dst, const ImageBox& box, nb::handle src,
         const std::optional<RectRegion>& src_region) {
        const BufferView view(src, false);
        nb::gil_scoped_release release;
        write_image(queue, dst, box, view.bytes(), src_region.value_or(RectRegion{}),
                    /*no_async=*/true);
      },
      nb::sig("def write_image(queue: Queue, dst: Image, box: ImageBox, src: numpy.ndarray | "
              "bytes | bytearray | memoryview, src_region: RectRegion | None = None) -> None"),
      nb::arg("queue"), nb::arg("dst"), nb::arg("box"), nb::arg("src"),
      nb::arg("src_region").none() = nb::none(),
      (std::string("Copies host memory to the box `box` (an ImageBox) of image `dst`, through "
                   "`queue`. `src`: a C-contiguous bytes-like object (numpy array of any "
                   "dtype, bytes, bytearray, memoryview) read as bytes; `src_region` (a "
                   "RectRegion; None: packed rows from its start) says where the box's rows "
                   "lie in it, a row being box.size[0] * format.pixel_size bytes. Blocks, the "
                   "GIL released, until the data have left `src`.") +
       box_copies)
          .c_str());

  m.def(
      "read_image",
      [](const Queue& queue, nb::handle dst, const std::optional<RectRegion>& dst_region,
         const Image& src, const ImageBox& box, bool async) -> nb::object {
        nb::object target = nb::borrow(dst);
        if (dst.is_none()) {
          if (dst_region) {
            throw LogicError(
                "read_image: a new array (dst None) holds the box packed: pass a dst to read "
                "into a region of it");
          }
          target = numpy().attr("empty")(nb::tuple(nb::cast(image_box_shape(src, box))),
                                         to_numpy_dtype(src.channel_dtype()));
        }
        const BufferView view(target, true);
        {
          nb::gil_scoped_release release;
          read_image(queue, view.bytes(), dst_region.value_or(RectRegion{}), src, box, async);
        }
        return target;
      },
      nb::sig("def read_image(queue: Queue, dst: numpy.ndarray | bytearray | memoryview | None, "
              "dst_region: RectRegion | None, src: Image, box: ImageBox, async_: bool = False) "
              "-> numpy.ndarray | bytearray | memoryview"),
      nb::arg("queue"), nb::arg("dst").none(), nb::arg("dst_region").none(), nb::arg("src"),
      nb::arg("box"), nb::arg("async_") = false,
      (std::string(
           "Copies the box `box` (an ImageBox) of image `src` to host memory, through `queue`, "
           "and returns the destination. `dst`: a writable C-contiguous bytes-like object "
           "(numpy array of any dtype, bytearray, memoryview) written as bytes where "
           "`dst_region` (a RectRegion; None: packed rows from its start) says; or None for a "
           "new numpy array of the box packed (shape as Image.shape for the box's size, "
           "channel_dtype; dst_region must then be None). Blocks, the GIL released, unless "
           "`async_` (then `dst` is valid after queue.synchronize() and must be kept alive "
           "until then).") +
       box_copies)
          .c_str());

  m.def(
      "copy_buffer_to_image",
      [](const Queue& queue, const Image& dst, const ImageBox& box, nb::handle src,
         const std::optional<RectRegion>& src_region) {
        const Buffer buffer = image_buffer_side(src, true);
        nb::gil_scoped_release release;
        copy_buffer_to_image(queue, dst, box, buffer, src_region.value_or(RectRegion{}));
      },
      nb::sig("def copy_buffer_to_image(queue: Queue, dst: Image, box: ImageBox, src: Buffer | "
              "Array | Expression, src_region: RectRegion | None = None) -> None"),
      nb::arg("queue"), nb::arg("dst"), nb::arg("box"), nb::arg("src"),
      nb::arg("src_region").none() = nb::none(),
      (std::string("Copies the bytes of `src` (a Buffer, or an Array's memory from its first "
                   "element) that `src_region` (a RectRegion; None: packed rows from its "
                   "start) says to the box `box` of image `dst`, asynchronously in `queue`.") +
       box_copies)
          .c_str());

  m.def(
      "copy_image_to_buffer",
      [](const Queue& queue, nb::handle dst, const std::optional<RectRegion>& dst_region,
         const Image& src, const ImageBox& box) {
        const Buffer buffer = image_buffer_side(dst, false);
        nb::gil_scoped_release release;
        copy_image_to_buffer(queue, buffer, dst_region.value_or(RectRegion{}), src, box);
      },
      nb::sig("def copy_image_to_buffer(queue: Queue, dst: Buffer | Array, dst_region: RectRegion "
              "| None, src: Image, box: ImageBox) -> None"),
      nb::arg("queue"), nb::arg("dst"), nb::arg("dst_region").none(), nb::arg("src"),
      nb::arg("box"),
      (std::string("Copies the box `box` of image `src` to the bytes of `dst` (a Buffer, or an "
                   "Array's memory from its first element) that `dst_region` (a RectRegion; "
                   "None: packed rows from its start) says, asynchronously in `queue`.") +
       box_copies)
          .c_str());

  m.def(
      "copy_image",
      [](const Queue& queue, const Image& dst, const std::array<std::size_t, 3>& dst_origin,
         const Image& src, const ImageBox& src_box) {
        nb::gil_scoped_release release;
        copy_image(queue, dst, dst_origin, src, src_box);
      },
      nb::arg("queue"), nb::arg("dst"), nb::arg("dst_origin"), nb::arg("src"), nb::arg("src_box"),
      "Copies the box `src_box` of image `src` to the box of its size at `dst_origin` ((x, y, "
      "z)) of image `dst` (the same format, on the same device), asynchronously in `queue`. "
      "Raises LogicError also for different formats and for a copy within one image whose "
      "boxes overlap.");
}

}  // namespace plinth::python
