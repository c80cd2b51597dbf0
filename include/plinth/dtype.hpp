#pragma once

#include <plinth/export.hpp>

#include <complex>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace plinth {

namespace detail {
struct DTypeData;
}

/// What a DType holds (numpy's `dtype.kind`: 'b', 'i', 'u', 'f', 'c', 'V').
enum class DTypeKind { boolean, signed_integer, unsigned_integer, floating, complex, structure };

/// Returns "bool", "int", "uint", "float", "complex" or "struct".
PLINTH_EXPORT const char* to_string(DTypeKind kind) noexcept;

/// Optional overrides of a struct's computed layout, for DType::make_struct.
struct StructLayout {
  /// The struct's size in bytes; must hold every field and be a multiple of the alignment.
  std::optional<std::size_t> itemsize = std::nullopt;
  /// The struct's alignment (as with `alignas`); a power of two, at least the largest
  /// alignment of its fields.
  std::optional<std::size_t> alignment = std::nullopt;
};

struct Field;
struct FieldSpec;

/// The run-time type of an array element (numpy's `dtype`, restricted to what GPUs support):
/// bool, int8 ... uint64, float16, float32, float64, complex64, complex128, or a struct of
/// named fields (scalars, nested structs, fixed-size arrays of either) laid out as a C
/// compiler lays it out, or at explicit offsets.
///
/// A value type: cheap to copy (copies share one immutable representation), compared by
/// value, hashable, and never empty (a moved-from DType keeps its value).
///
/// A scalar's alignment is its itemsize, as for the device types that hold it: complex64 is
/// `float2` (alignment 8) and complex128 is `double2` (alignment 16), where numpy's host
/// alignment is that of one component. Struct layouts follow (grunnur's `align`).
///
///     auto point = DType::make_struct({{"x", DType::float32()}, {"y", DType::float32()}});
///     auto particle = DType::make_struct({
///         {"position", point},             // offset 0
///         {"weights", DType::float32(), {3}},  // float32[3] at offset 8
///         {"id", DType::uint64()},         // offset 24; itemsize 32, alignment 8
///     });
class PLINTH_EXPORT DType {
 public:
  ///@{
  /// The scalar type of that name (numpy's `bool_`, `int8`, ..., `complex128`): `boolean` is
  /// one byte holding 0 or 1, `float16` IEEE half precision, `complex64` two float32 (real,
  /// imaginary). Never throw.
  static DType boolean();
  static DType int8();
  static DType uint8();
  static DType int16();
  static DType uint16();
  static DType int32();
  static DType uint32();
  static DType int64();
  static DType uint64();
  static DType float16();
  static DType float32();
  static DType float64();
  static DType complex64();
  static DType complex128();
  ///@}

  /// The scalar type named as numpy names it: "bool", "int8", ..., "float16", ...,
  /// "complex128" (the inverse of name() for scalars).
  /// Throws LogicError for any other name, listing the valid ones.
  static DType from_name(std::string_view name);

  /// A struct of `fields`, in this order. A field without an offset is placed after the
  /// previous one, at the next multiple of its alignment (C layout); an explicit offset must
  /// be a multiple of the field's alignment and must not overlap the previous field. The
  /// struct's alignment is its largest field alignment and its itemsize the end of its last
  /// field rounded up to that; `layout` may raise either (numpy's `align=True` with
  /// `offsets`/`itemsize`, plus C's `alignas`).
  /// Throws LogicError for no fields, a field name that is not a C identifier or repeats,
  /// an array extent of 0, a misaligned or overlapping offset, an alignment that is not a
  /// power of two or below the natural one, or an itemsize too small or not a multiple of
  /// the alignment.
  static DType make_struct(std::vector<FieldSpec> fields, const StructLayout& layout = {});

  ///@{
  /// Copies share the description (a DType is immutable).
  DType(const DType& other) = default;
  DType& operator=(const DType& other) = default;
  ///@}
  // No move operations on purpose: moving copies, so no DType is ever empty.
  ~DType() = default;

  /// The category (DTypeKind::structure for structs).
  DTypeKind kind() const noexcept;
  /// True for struct dtypes.
  bool is_struct() const noexcept;
  /// Size in bytes of one element (numpy's `dtype.itemsize`).
  std::size_t itemsize() const noexcept;
  /// Required alignment in bytes of one element, a power of two.
  std::size_t alignment() const noexcept;
  /// A readable name: numpy's for scalars ("float32", "complex64"); for structs
  /// "struct{a: int32 @0, b: float32[3] @4}", followed by "; itemsize N" and
  /// "; alignment N" inside the braces where those differ from the computed ones.
  const std::string& name() const noexcept;
  /// A struct's fields in offset order; empty for scalar dtypes.
  const std::vector<Field>& fields() const noexcept;
  /// The field called `name`. Throws LogicError if this is not a struct or has no such
  /// field.
  const Field& field(std::string_view name) const;
  /// A hash consistent with ==, computed once at construction.
  std::size_t hash() const noexcept;

  /// Scalars are equal when they are the same type; structs when their fields (names,
  /// dtypes, shapes, offsets, in order), itemsizes and alignments are equal.
  bool operator==(const DType& other) const noexcept;

 private:
  explicit DType(std::shared_ptr<const detail::DTypeData> data) : data_(std::move(data)) {}

  std::shared_ptr<const detail::DTypeData> data_;
};

/// Writes name().
PLINTH_EXPORT std::ostream& operator<<(std::ostream& os, const DType& dtype);

/// A field of a struct to be built by DType::make_struct: an element type, an optional
/// fixed-array shape (`{3}` is `T name[3]`, `{2, 3}` is `T name[2][3]`) and an optional
/// explicit byte offset.
struct FieldSpec {
  /// A field `name` of `dtype` elements, of `shape` (empty: one element), at `offset`
  /// (absent: after the previous field, aligned). Checked by DType::make_struct.
  FieldSpec(std::string name_, DType dtype_, std::vector<std::size_t> shape_ = {},
            std::optional<std::size_t> offset_ = std::nullopt)
      : name(std::move(name_)),
        dtype(std::move(dtype_)),
        shape(std::move(shape_)),
        offset(offset_) {}

  std::string name;                   ///< a C identifier, unique in the struct
  DType dtype;                        ///< the type of one element
  std::vector<std::size_t> shape;     ///< extents of a fixed-size array; empty for one element
  std::optional<std::size_t> offset;  ///< byte offset; absent: placed as C would
};

/// A field of a struct DType, as laid out.
struct Field {
  /// The field's name, as given to DType::make_struct.
  std::string name;
  /// The element type (for an array field, the type of one element).
  DType dtype;
  /// Empty for a single element; the extents of a fixed-size array field otherwise.
  std::vector<std::size_t> shape;
  /// Byte offset from the start of the struct.
  std::size_t offset = 0;

  /// Number of elements: the product of `shape` (1 when it is empty).
  std::size_t count() const noexcept {
    std::size_t n = 1;
    for (const auto extent : shape) n *= extent;
    return n;
  }
  /// Bytes the field occupies: dtype.itemsize() * count().
  std::size_t itemsize() const noexcept { return dtype.itemsize() * count(); }

  /// Equal names, dtypes, shapes and offsets.
  bool operator==(const Field& other) const = default;
};

// --- Predicates and conversions (grunnur's `dtypes` functions, numpy's rules) ---

/// True for complex64 and complex128.
PLINTH_EXPORT bool is_complex(const DType& dtype) noexcept;
/// True for the double-precision types, float64 and complex128.
PLINTH_EXPORT bool is_double(const DType& dtype) noexcept;
/// True for the signed and unsigned integer types (not bool).
PLINTH_EXPORT bool is_integer(const DType& dtype) noexcept;
/// True for the real floating-point types, float16, float32 and float64 (not integers).
PLINTH_EXPORT bool is_real(const DType& dtype) noexcept;

/// The complex type whose components are `real`: float32 → complex64, float64 → complex128.
/// Throws LogicError for any other dtype.
PLINTH_EXPORT DType complex_for(const DType& real);
/// The type of a component of `complex`: complex64 → float32, complex128 → float64.
/// Throws LogicError for any other dtype.
PLINTH_EXPORT DType real_for(const DType& complex);

/// The type arrays of `dtypes` combine to (numpy's `np.result_type` on dtypes): the
/// smallest type every one of them casts to safely, e.g. int64, uint64 → float64;
/// int32, float32 → float64; uint8, int8 → int16; float16, int16 → float32; bool, int8 →
/// int8. Does not depend on the order of `dtypes`.
/// Throws LogicError for an empty list or a struct dtype.
PLINTH_EXPORT DType result_type(std::span<const DType> dtypes);

/// result_type of the arguments: `result_type(a, b, c)`.
template <std::same_as<DType>... Rest>
DType result_type(const DType& first, const Rest&... rest) {
  const DType all[] = {first, rest...};
  return result_type(std::span<const DType>(all));
}

namespace detail {

template <class T>
inline constexpr bool always_false = false;

PLINTH_EXPORT DType min_scalar_type_of(bool value);
PLINTH_EXPORT DType min_scalar_type_of(std::int64_t value);
PLINTH_EXPORT DType min_scalar_type_of(std::uint64_t value);
PLINTH_EXPORT DType min_scalar_type_of(float value);
PLINTH_EXPORT DType min_scalar_type_of(double value);
PLINTH_EXPORT DType min_scalar_type_of(std::complex<float> value);
PLINTH_EXPORT DType min_scalar_type_of(std::complex<double> value);
// The smallest signed integer dtype that holds `value` (numpy's min_scalar_type(-value - 1)).
// Throws LogicError above the int64 range.
PLINTH_EXPORT DType min_signed_scalar_type_of(std::uint64_t value);
// grunnur's _promote_type: integers and reals below 4 bytes become int32, uint32, float32.
PLINTH_EXPORT DType promote_to_32_bits(const DType& dtype);

}  // namespace detail

/// The DType of the C++ type T: bool; an integer type (char types included) by its size and
/// signedness, e.g. `long` → int64, `unsigned char` → uint8; float → float32;
/// double → float64; std::complex<float> → complex64; std::complex<double> → complex128.
/// Any other T (long double, pointers, classes) fails to compile.
template <class T>
DType dtype_of() {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_same_v<U, bool>) {
    return DType::boolean();
  } else if constexpr (std::is_integral_v<U>) {
    static_assert(sizeof(U) <= 8, "dtype_of<T>: integers wider than 64 bits have no DType");
    constexpr bool is_signed = std::is_signed_v<U>;
    if constexpr (sizeof(U) == 1) return is_signed ? DType::int8() : DType::uint8();
    if constexpr (sizeof(U) == 2) return is_signed ? DType::int16() : DType::uint16();
    if constexpr (sizeof(U) == 4) return is_signed ? DType::int32() : DType::uint32();
    if constexpr (sizeof(U) == 8) return is_signed ? DType::int64() : DType::uint64();
  } else if constexpr (std::is_same_v<U, float>) {
    return DType::float32();
  } else if constexpr (std::is_same_v<U, double>) {
    return DType::float64();
  } else if constexpr (std::is_same_v<U, std::complex<float>>) {
    return DType::complex64();
  } else if constexpr (std::is_same_v<U, std::complex<double>>) {
    return DType::complex128();
  } else {
    static_assert(detail::always_false<T>,
                  "dtype_of<T>: T has no DType (supported: bool, integers up to 64 bits, float, "
                  "double, std::complex<float>, std::complex<double>)");
  }
}

/// The smallest dtype that holds `value` as numpy computes it (`np.min_scalar_type`), without
/// grunnur's promotion to the 32-bit types GPUs handle natively (min_scalar_type has it):
/// - bool → bool;
/// - an integer → the smallest unsigned type if it is >= 0 (0 → uint8, 300 → uint16), else
///   the smallest signed type (-1 → int8);
/// - double → float16 if -65000 < value < 65000 or it is infinite or NaN, float32 if
///   -3.4e38 < value < 3.4e38, else float64 (only the range counts, not the precision:
///   0.1 → float16); float → float16 or float32 by the same rule;
/// - std::complex<double> → complex64 if both parts are in (-3.4e38, 3.4e38), else
///   complex128; std::complex<float> → complex64.
/// T is one of the types dtype_of accepts; any other fails to compile. Throws nothing.
template <class T>
DType numpy_min_scalar_type(T value) {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_same_v<U, bool>) {
    return detail::min_scalar_type_of(value);
  } else if constexpr (std::is_integral_v<U>) {
    static_assert(sizeof(U) <= 8, "min_scalar_type: integers wider than 64 bits have no DType");
    if constexpr (std::is_signed_v<U>) {
      return detail::min_scalar_type_of(static_cast<std::int64_t>(value));
    } else {
      return detail::min_scalar_type_of(static_cast<std::uint64_t>(value));
    }
  } else if constexpr (std::is_same_v<U, float> || std::is_same_v<U, double> ||
                       std::is_same_v<U, std::complex<float>> ||
                       std::is_same_v<U, std::complex<double>>) {
    return detail::min_scalar_type_of(value);
  } else {
    static_assert(detail::always_false<T>,
                  "min_scalar_type: T has no DType (supported: bool, integers up to 64 bits, "
                  "float, double, std::complex<float>, std::complex<double>)");
  }
}

/// The dtype a kernel should use for `value` (grunnur's `dtypes.min_scalar_type`):
/// numpy_min_scalar_type(value) promoted to the 32-bit types GPUs handle natively, so
/// 1 → uint32, -1 → int32, 1.0 → float32, 5000000000 → uint64, 1e39 → float64,
/// true → bool, std::complex<double>(1, 2) → complex64.
/// With `force_signed`, a value >= 0 of an integer type or bool gets the smallest signed type
/// (at least int32) that holds it, as grunnur's does (1 → int32, 2147483648 → int64); real
/// and complex values are not affected.
/// T is one of the types dtype_of accepts; any other fails to compile.
/// Throws LogicError with `force_signed` for an unsigned value above the int64 range.
template <class T>
DType min_scalar_type(T value, bool force_signed = false) {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_integral_v<U>) {
    bool non_negative = true;
    if constexpr (std::is_signed_v<U>) non_negative = value >= 0;
    if (force_signed && non_negative) {
      return detail::promote_to_32_bits(
          detail::min_signed_scalar_type_of(static_cast<std::uint64_t>(value)));
    }
  }
  return detail::promote_to_32_bits(numpy_min_scalar_type(value));
}

}  // namespace plinth

namespace std {

/// Hashes a DType (DType::hash), so it can key unordered containers.
template <>
struct hash<plinth::DType> {
  /// DType::hash(): equal DTypes hash alike. Never throws.
  std::size_t operator()(const plinth::DType& dtype) const noexcept { return dtype.hash(); }
};

}  // namespace std
