#pragma once

/// \file
/// DTypes in kernel source (grunnur's `dtypes.ctype`, `ctype_struct`, `c_constant`, ...): the
/// C type of a DType, struct declarations whose layout equals the DType's on every backend,
/// constants, and the paths to the scalar fields of a struct.
///
///     auto point = DType::make_struct({{"x", DType::float32()}, {"y", DType::float32()}});
///     Program program(context, R"(
///     KERNEL void shift(GLOBAL_MEM ${point} *points)
///     {
///         const SIZE_T i = get_global_id(0);
///         points[i].x += ${dx};
///     })", {.render_globals = {{"point", ctype(point)}, {"dx", c_constant(0.5f)}}});
///     // typedef struct _mod_struct_0__ { float x; float y; } _mod_struct_0_;
///     // ... GLOBAL_MEM _mod_struct_0_ *points ... points[i].x += 0.5f;

#include <plinth/dtype.hpp>
#include <plinth/export.hpp>
#include <plinth/module.hpp>
#include <plinth/template.hpp>

#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

namespace plinth {

/// The C type of `dtype` in the kernel dialect, as a render global: for a scalar, its name
/// ("signed char", "unsigned char", "short", "unsigned short", "int", "unsigned int", "long",
/// "unsigned long", "float", "double", "plinth_complex64", "plinth_complex128", "bool"); for a
/// struct, ctype_struct(dtype), whose placeholder renders as the typedef's name.
/// int8 is `signed char` because plain `char` is unsigned on some CUDA hosts (aarch64).
/// Throws LogicError for float16, which has no type common to every backend, and as
/// ctype_struct.
PLINTH_EXPORT RenderValue ctype(const DType& dtype);

/// A Module that declares the struct `dtype` as `typedef struct ... ${prefix};`, so that the
/// placeholder bound to it names the type. Nested structs are their own modules (declared
/// before it), fields are in offset order, and array fields keep their shape (`float w[3];`).
///
/// Unless `ignore_alignment`, the declaration reproduces the DType's layout exactly — each
/// offset and the itemsize — on every backend: a field placed further than C would place it
/// gets `ALIGN(n)` with the smallest power of two that puts it there (grunnur's
/// `_find_minimum_alignment`), a struct whose alignment is raised gets `ALIGN(n)` after its
/// closing brace, and an itemsize beyond that gets a trailing `char` array named
/// `<prefix>padding` (last, so `{...}` initialisers from c_constant still match the fields).
/// As in grunnur, the alignment the offsets imply is inferred: fields at 0, 4 and 16 (int8,
/// int16, int32) with itemsize 32 give `ALIGN(4)` and `ALIGN(16)` fields, and the C struct
/// then has alignment 16 even though the DType's is 4 (a struct holding it as a field must
/// place it at a multiple of 16). With `ignore_alignment` the fields are declared plainly and
/// the compiler lays them out as C does (align(dtype)'s layout).
///
/// Equal DTypes give the same Module object (while any copy of it is alive), so a struct used
/// by several modules of one program is declared once.
/// Throws LogicError if `dtype` is not a struct, if a field has no C type (float16), or if the
/// layout cannot be written with `ALIGN` alone: a first field at a non-zero offset, an offset
/// no power-of-two alignment produces (e.g. an int at 12 right after 4 bytes), a field (e.g. a
/// nested struct) at an offset that is not a multiple of its type's C alignment, or an
/// itemsize that is not a multiple of the inferred alignment or is below the C itemsize (an
/// int at 0 and one at 16 need itemsize 32, not 20).
PLINTH_EXPORT Module ctype_struct(const DType& dtype, bool ignore_alignment = false);

/// The struct `dtype` with every offset, itemsize and alignment as a C compiler lays it out
/// without alignment attributes (nested structs too): explicit offsets and StructLayout
/// overrides are dropped. A scalar dtype is returned as it is.
PLINTH_EXPORT DType align(const DType& dtype);

/// A Module with a function `${prefix}(re, im)` that builds a value of the complex `dtype`
/// from its two parts (grunnur's COMPLEX_CTR, which the dialect does not have: OpenCL writes
/// `(float2)(re, im)`, CUDA `make_float2(re, im)`). Equal dtypes give the same Module object.
/// Throws LogicError if `dtype` is not complex64 or complex128.
PLINTH_EXPORT Module complex_ctr(const DType& dtype);

/// The element at the start of `value` (dtype.itemsize() bytes, laid out as `dtype` says) as
/// a C constant:
/// - integers in decimal, `L` after a 64-bit signed one and `u`/`UL` after an unsigned one
///   (the smallest int and long are written `(-2147483647 - 1)` and
///   `(-9223372036854775807L - 1L)`, as their literals would overflow);
/// - float32 and float64 with the fewest digits that read back exactly, always with a `.` or
///   an exponent, float32 with an `f` (`0.1f`, `1.0`, `1e+100`);
/// - bool as `true` or `false`;
/// - a complex value as grunnur writes it, `COMPLEX_CTR(float2)(1.0f, -2.0f)` (complex128:
///   `COMPLEX_CTR(double2)(...)`), an expression usable anywhere (every backend's prelude
///   defines COMPLEX_CTR: OpenCL's vector literal `(float2)(re, im)`, CUDA's
///   `make_float2(re, im)`);
/// - struct values as `{...}` initialisers (struct fields in order, array fields as nested
///   braces), valid wherever a variable of the type is initialised, on every backend; complex
///   parts inside them are written `{1.0f, -2.0f}`, a constant initialiser even for constant
///   memory (where CUDA rejects make_float2).
/// Throws LogicError if `value` is shorter than the itemsize, for float16, and for infinite or
/// NaN values (C has no portable literal for them).
PLINTH_EXPORT std::string c_constant(std::span<const std::byte> value, const DType& dtype);

namespace detail {
template <class T>
concept CScalar = std::is_arithmetic_v<T> || std::is_same_v<T, std::complex<float>> ||
                  std::is_same_v<T, std::complex<double>>;

PLINTH_EXPORT std::string c_constant_of(bool value, const DType& dtype);
PLINTH_EXPORT std::string c_constant_of(std::int64_t value, const DType& dtype);
PLINTH_EXPORT std::string c_constant_of(std::uint64_t value, const DType& dtype);
PLINTH_EXPORT std::string c_constant_of(double value, const DType& dtype);
PLINTH_EXPORT std::string c_constant_of(std::complex<double> value, const DType& dtype);
}  // namespace detail

/// `value` converted to `dtype` as C converts it, as a C constant (see above):
/// `c_constant(1, DType::complex64())` is `COMPLEX_CTR(float2)(1.0f, 0.0f)`, `c_constant(2.5,
/// DType::float32())` is `2.5f`. T is a type dtype_of accepts. Throws LogicError if the value does
/// not fit `dtype` (an integer out of range, a real with a fraction or out of range for an integer
/// dtype, a complex value for a real dtype), for a struct dtype, or as the byte form.
template <detail::CScalar T>
std::string c_constant(const T& value, const DType& dtype) {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_same_v<U, bool>) {
    return detail::c_constant_of(value, dtype);
  } else if constexpr (std::is_integral_v<U> && std::is_signed_v<U>) {
    return detail::c_constant_of(static_cast<std::int64_t>(value), dtype);
  } else if constexpr (std::is_integral_v<U>) {
    return detail::c_constant_of(static_cast<std::uint64_t>(value), dtype);
  } else if constexpr (std::is_floating_point_v<U>) {
    return detail::c_constant_of(static_cast<double>(value), dtype);
  } else {
    return detail::c_constant_of(std::complex<double>(value), dtype);
  }
}

/// `value` as a C constant of its own type, dtype_of<T>(): `c_constant(0.1f)` is `0.1f`,
/// `c_constant(std::uint64_t{7})` is `7UL`. Throws LogicError as the byte form.
template <detail::CScalar T>
std::string c_constant(const T& value) {
  return c_constant(value, dtype_of<T>());
}

/// One step of a path into a struct: a field name, or an index into an array field.
using FieldPathElement = std::variant<std::string, std::size_t>;
/// A path from a struct to one of its parts: `{"arr", 1, "b"}` is `arr[1].b`.
using FieldPath = std::vector<FieldPathElement>;

/// A scalar part of a struct: its path, its type and its byte offset in the struct.
struct FlatField {
  FieldPath path;          ///< from the struct to the scalar (empty for a scalar dtype)
  DType dtype;             ///< the scalar's type
  std::size_t offset = 0;  ///< byte offset from the start of the struct
};

/// Every scalar of `dtype` in declaration order, array elements in row-major order:
/// `{a: int32, b: {c: float32[2]}}` gives `a`, `b.c[0]`, `b.c[1]`. A scalar dtype gives one
/// entry with an empty path.
PLINTH_EXPORT std::vector<FlatField> flatten_dtype(const DType& dtype);

/// The C expression that reaches `path` from a struct variable (grunnur's `c_path`). It has
/// no leading dot: `{"b", "c", 1}` gives `b.c[1]`, used as `var.${c_path(path)}` (grunnur's
/// templates write `res.${dtypes.c_path(path)}`). A path that starts with an index (into an
/// array of structs) starts with it: `{2, "x"}` gives `[2].x`, used as `var${...}`. An empty
/// path gives an empty string. Throws nothing but std::bad_alloc.
PLINTH_EXPORT std::string c_path(const FieldPath& path);

/// The part of `dtype` that `path` names, as a Field: name (c_path), element dtype,
/// remaining array extents (empty once every index is given) and byte offset.
/// Throws LogicError naming the path for a name that is not a field, an index where no array
/// is left, or an index out of range.
PLINTH_EXPORT Field field_at(const DType& dtype, const FieldPath& path);

/// The bytes of the part `path` of each element of `data`, an array of `dtype` elements laid
/// out contiguously, concatenated (grunnur's extract_field on the host).
/// Throws LogicError if the size of `data` is not a multiple of the itemsize, or as field_at.
PLINTH_EXPORT std::vector<std::byte> extract_field(std::span<const std::byte> data,
                                                   const DType& dtype, const FieldPath& path);

namespace detail {
PLINTH_EXPORT void check_extract_type(const Field& part, const DType& requested);
}  // namespace detail

/// As extract_field, as values of T: one per element of `data`, or several if `path` ends
/// at an array field. Throws LogicError if dtype_of<T>() is not the part's element dtype,
/// or as the byte form.
template <class T>
std::vector<T> extract_field(std::span<const std::byte> data, const DType& dtype,
                             const FieldPath& path) {
  detail::check_extract_type(field_at(dtype, path), dtype_of<T>());
  const auto bytes = extract_field(data, dtype, path);
  std::vector<T> values(bytes.size() / sizeof(T));
  if (!values.empty()) std::memcpy(values.data(), bytes.data(), values.size() * sizeof(T));
  return values;
}

}  // namespace plinth
