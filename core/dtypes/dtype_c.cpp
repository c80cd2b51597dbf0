#include <plinth/dtype_c.hpp>
#include <plinth/errors.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <utility>

namespace plinth {

namespace {

// --- Module caches: equal keys give the same Module while any copy of it is alive ---

template <class Key, class Hash = std::hash<Key>>
class ModuleCache {
 public:
  // The cached module for `key`, or the one `make` builds. `make` runs unlocked: it may
  // consult this cache again (nested structs).
  template <class Make>
  Module get(const Key& key, Make make) {
    {
      std::lock_guard lock(mutex_);
      if (auto found = lookup(key)) return detail::Access::make<Module>(std::move(found));
    }
    Module made = make();
    std::lock_guard lock(mutex_);
    if (auto found = lookup(key))
      return detail::Access::make<Module>(std::move(found));  // another thread won
    std::erase_if(entries_, [](const auto& entry) { return entry.second.expired(); });
    entries_.insert_or_assign(key, detail::Access::impl(made));
    return made;
  }

 private:
  std::shared_ptr<const detail::ModuleData> lookup(const Key& key) const {
    const auto it = entries_.find(key);
    return it == entries_.end() ? nullptr : it->second.lock();
  }

  std::mutex mutex_;
  std::unordered_map<Key, std::weak_ptr<const detail::ModuleData>, Hash> entries_;
};

struct StructKey {
  DType dtype;
  bool ignore_alignment;
  bool operator==(const StructKey& other) const = default;
};

struct StructKeyHash {
  std::size_t operator()(const StructKey& key) const noexcept {
    return key.dtype.hash() ^ static_cast<std::size_t>(key.ignore_alignment);
  }
};

ModuleCache<StructKey, StructKeyHash>& struct_cache() {
  static ModuleCache<StructKey, StructKeyHash> cache;
  return cache;
}

ModuleCache<DType>& complex_ctr_cache() {
  static ModuleCache<DType> cache;
  return cache;
}

// --- Scalar C types ---

const char* scalar_ctype(const DType& dtype) {
  switch (dtype.kind()) {
    case DTypeKind::boolean: return "bool";
    case DTypeKind::signed_integer:
      switch (dtype.itemsize()) {
        case 1: return "signed char";
        case 2: return "short";
        case 4: return "int";
        default: return "long";
      }
    case DTypeKind::unsigned_integer:
      switch (dtype.itemsize()) {
        case 1: return "unsigned char";
        case 2: return "unsigned short";
        case 4: return "unsigned int";
        default: return "unsigned long";
      }
    case DTypeKind::floating:
      if (dtype.itemsize() == 2)
        throw LogicError(
            "float16 has no C type common to every backend (OpenCL's half needs cl_khr_fp16, "
            "CUDA's __half a header); store it as uint16 and convert in the kernel with "
            "plinth_half_to_float and plinth_float_to_half_rte (docs/kernel-dialect.md)");
      return dtype.itemsize() == 4 ? "float" : "double";
    case DTypeKind::complex:
      return dtype.itemsize() == 8 ? "plinth_complex64" : "plinth_complex128";
    case DTypeKind::structure: break;
  }
  throw LogicError(fmt::format("{} is not a scalar dtype", dtype.name()));
}

// --- Struct layout: which ALIGN(n) reproduces the DType's offsets ---

// grunnur's _find_minimum_alignment: the smallest alignment, a power-of-two multiple of the
// field type's own (`base`), with which a C compiler puts `field` at its offset right after
// a field ending at `previous_end`.
std::size_t minimum_alignment(const DType& owner, const Field& field, std::size_t base,
                              std::size_t previous_end) {
  if (field.offset % base != 0)
    throw LogicError(fmt::format(
        "ctype_struct: field '{}' of {} is at offset {}, which is not a multiple of the "
        "alignment {} its type has in C",
        field.name, owner.name(), field.offset, base));
  for (std::size_t alignment = base; field.offset % alignment == 0; alignment *= 2) {
    if (field.offset - previous_end < alignment) return alignment;
  }
  throw LogicError(fmt::format(
      "ctype_struct: field '{}' of {} is at offset {}, {} bytes after the previous field ends; "
      "no ALIGN(n) makes a C compiler put it there (add an explicit padding field, or use "
      "ignore_alignment)",
      field.name, owner.name(), field.offset, field.offset - previous_end));
}

// How the declaration of a struct reproduces its DType's layout.
struct CLayout {
  std::vector<std::size_t> field_alignments;  // ALIGN(n) per field, or 0 where none is needed
  std::size_t struct_alignment = 0;           // ALIGN(n) after the closing brace, or 0
  std::size_t padding = 0;                    // bytes of the trailing char array
  std::size_t alignment = 1;                  // the alignment the declared type has in C
};

CLayout c_layout(const DType& dtype);

// The alignment of `dtype`'s C type: a scalar's own, or what a struct's declaration gets from
// its fields' ALIGN(n) (which may be more than the DType's alignment).
std::size_t c_alignment(const DType& dtype) {
  return dtype.is_struct() ? c_layout(dtype).alignment : dtype.alignment();
}

// As grunnur's _align for an aligned struct: each field gets the smallest ALIGN(n) that puts
// it at its offset; the struct's alignment in C is the largest of them (so offsets such as 0,
// 4, 16 imply an alignment of 16, whatever the DType's), raised by ALIGN(n) after the brace
// to the DType's alignment where that is larger.
CLayout c_layout(const DType& dtype) {
  const auto& fields = dtype.fields();
  CLayout layout;
  layout.field_alignments.assign(fields.size(), 0);
  if (fields.front().offset != 0)
    throw LogicError(fmt::format(
        "ctype_struct: the first field of {} is at offset {}; C puts it at 0 (add an explicit "
        "padding field, or use ignore_alignment)",
        dtype.name(), fields.front().offset));
  std::size_t natural = c_alignment(fields.front().dtype);
  for (std::size_t i = 1; i < fields.size(); ++i) {
    const auto base = c_alignment(fields[i].dtype);
    const auto previous_end = fields[i - 1].offset + fields[i - 1].itemsize();
    const auto alignment = minimum_alignment(dtype, fields[i], base, previous_end);
    if (alignment != base) layout.field_alignments[i] = alignment;
    natural = std::max(natural, alignment);
  }
  layout.alignment = std::max(natural, dtype.alignment());
  if (dtype.alignment() > natural) layout.struct_alignment = dtype.alignment();
  const auto end = fields.back().offset + fields.back().itemsize();
  const auto c_itemsize = (end + layout.alignment - 1) / layout.alignment * layout.alignment;
  if (dtype.itemsize() < c_itemsize || dtype.itemsize() % layout.alignment != 0)
    throw LogicError(fmt::format(
        "ctype_struct: the field offsets of {} give its C declaration an alignment of {}, so its "
        "itemsize must be a multiple of {} and at least {}, not {} (set StructLayout::itemsize, "
        "or use ignore_alignment)",
        dtype.name(), layout.alignment, layout.alignment, c_itemsize, dtype.itemsize()));
  layout.padding = dtype.itemsize() - c_itemsize;
  return layout;
}

std::string alignment_attribute(std::size_t alignment) {
  return alignment == 0 ? std::string() : fmt::format("ALIGN({}) ", alignment);
}

std::string array_suffix(const std::vector<std::size_t>& shape) {
  std::string suffix;
  for (const auto extent : shape) suffix += fmt::format("[{}]", extent);
  return suffix;
}

Module make_struct_module(const DType& dtype, bool ignore_alignment) {
  const auto& fields = dtype.fields();
  const CLayout layout = ignore_alignment
                             ? CLayout{std::vector<std::size_t>(fields.size(), 0), 0, 0, 1}
                             : c_layout(dtype);
  const auto& field_alignments = layout.field_alignments;
  const auto struct_alignment = layout.struct_alignment;
  const auto padding = layout.padding;

  // The tag (`${prefix}_`) is not needed by C, but CUDA has failed to compile nested
  // initialisers of untagged structs (grunnur's note on CUDA bug 1409907).
  std::string text = "typedef struct ${prefix}_\n{\n";
  RenderGlobals globals;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const auto& field = fields[i];
    const auto type_name = "typename_" + field.name;
    globals.insert_or_assign(type_name,
                             field.dtype.is_struct()
                                 ? RenderValue(ctype_struct(field.dtype, ignore_alignment))
                                 : RenderValue(scalar_ctype(field.dtype)));
    text +=
        fmt::format("    ${{{}}} {}{}{};\n", type_name, alignment_attribute(field_alignments[i]),
                    field.name, array_suffix(field.shape));
  }
  if (padding != 0) text += fmt::format("    char ${{prefix}}padding[{}];\n", padding);
  text += fmt::format("}} {}${{prefix}};\n", alignment_attribute(struct_alignment));
  return Module::from_string(std::move(text), "struct", std::move(globals));
}

// --- Constants ---

// The shortest text that reads back as `value` in C, with a `.` or an exponent.
template <class F>
std::string float_literal(F value, const DType& dtype) {
  if (!std::isfinite(value))
    throw LogicError(
        fmt::format("c_constant: {} has no portable C literal (as {})", value, dtype.name()));
  auto text = fmt::format("{}", value);
  if (text.find_first_of(".e") == std::string::npos) text += ".0";
  if constexpr (std::is_same_v<F, float>) text += 'f';
  return text;
}

std::string signed_literal(std::int64_t value, std::size_t itemsize) {
  if (itemsize == 8) {
    if (value == std::numeric_limits<std::int64_t>::min()) return "(-9223372036854775807L - 1L)";
    return fmt::format("{}L", value);
  }
  if (value == std::numeric_limits<std::int32_t>::min()) return "(-2147483647 - 1)";
  return fmt::format("{}", value);
}

std::string unsigned_literal(std::uint64_t value, std::size_t itemsize) {
  return fmt::format("{}{}", value, itemsize == 8 ? "UL" : "u");
}

template <class T>
T load(const std::byte* bytes) {
  T value;
  std::memcpy(&value, bytes, sizeof(T));
  return value;
}

std::int64_t load_signed(const std::byte* bytes, std::size_t itemsize) {
  switch (itemsize) {
    case 1: return load<std::int8_t>(bytes);
    case 2: return load<std::int16_t>(bytes);
    case 4: return load<std::int32_t>(bytes);
    default: return load<std::int64_t>(bytes);
  }
}

std::uint64_t load_unsigned(const std::byte* bytes, std::size_t itemsize) {
  switch (itemsize) {
    case 1: return load<std::uint8_t>(bytes);
    case 2: return load<std::uint16_t>(bytes);
    case 4: return load<std::uint32_t>(bytes);
    default: return load<std::uint64_t>(bytes);
  }
}

std::string constant_at(const std::byte* bytes, const DType& dtype, bool nested);

// A complex value from its parts' literals: grunnur's COMPLEX_CTR(float2)(re, im), an
// expression (the preludes define COMPLEX_CTR), or inside an aggregate initialiser the plain
// braces, which are a constant initialiser on every backend (CUDA's make_float2 is not).
std::string complex_text(const std::string& re, const std::string& im, const DType& dtype,
                         bool nested) {
  if (nested) return fmt::format("{{{}, {}}}", re, im);
  return fmt::format("COMPLEX_CTR({})({}, {})", dtype.itemsize() == 8 ? "float2" : "double2", re,
                     im);
}

// The elements of an array field with extents shape[dim...], as nested braces.
std::string array_constant(const std::byte* bytes, const DType& dtype,
                           const std::vector<std::size_t>& shape, std::size_t dim) {
  if (dim == shape.size()) return constant_at(bytes, dtype, true);
  std::size_t stride = dtype.itemsize();
  for (std::size_t d = dim + 1; d < shape.size(); ++d) stride *= shape[d];
  std::string text = "{";
  for (std::size_t i = 0; i < shape[dim]; ++i) {
    if (i != 0) text += ", ";
    text += array_constant(bytes + i * stride, dtype, shape, dim + 1);
  }
  return text + "}";
}

std::string constant_at(const std::byte* bytes, const DType& dtype, bool nested) {
  switch (dtype.kind()) {
    case DTypeKind::boolean: return load<std::uint8_t>(bytes) != 0 ? "true" : "false";
    case DTypeKind::signed_integer:
      return signed_literal(load_signed(bytes, dtype.itemsize()), dtype.itemsize());
    case DTypeKind::unsigned_integer:
      return unsigned_literal(load_unsigned(bytes, dtype.itemsize()), dtype.itemsize());
    case DTypeKind::floating:
      scalar_ctype(dtype);  // rejects float16
      if (dtype.itemsize() == 4) return float_literal(load<float>(bytes), dtype);
      return float_literal(load<double>(bytes), dtype);
    case DTypeKind::complex: {
      const auto part = real_for(dtype);
      return complex_text(constant_at(bytes, part, true),
                          constant_at(bytes + part.itemsize(), part, true), dtype, nested);
    }
    case DTypeKind::structure: break;
  }
  std::string text = "{";
  bool first = true;
  for (const auto& field : dtype.fields()) {
    if (!first) text += ", ";
    first = false;
    text += array_constant(bytes + field.offset, field.dtype, field.shape, 0);
  }
  return text + "}";
}

// Stores `value` as an element of the integer `dtype`, or throws.
template <class V>
std::string integer_constant(V value, const DType& dtype) {
  const bool is_signed = dtype.kind() == DTypeKind::signed_integer;
  const auto bits = 8 * dtype.itemsize();
  bool fits;
  if (is_signed) {
    const auto max = static_cast<std::int64_t>((std::uint64_t{1} << (bits - 1)) - 1);
    fits = std::cmp_greater_equal(value, -max - 1) && std::cmp_less_equal(value, max);
  } else {
    const auto max =
        bits == 64 ? std::numeric_limits<std::uint64_t>::max() : (std::uint64_t{1} << bits) - 1;
    fits = std::cmp_greater_equal(value, 0) && std::cmp_less_equal(value, max);
  }
  if (!fits) throw LogicError(fmt::format("c_constant: {} does not fit {}", value, dtype.name()));
  if (is_signed) return signed_literal(static_cast<std::int64_t>(value), dtype.itemsize());
  return unsigned_literal(static_cast<std::uint64_t>(value), dtype.itemsize());
}

void check_not_struct(const DType& dtype) {
  if (dtype.is_struct())
    throw LogicError(fmt::format(
        "c_constant: a single value cannot be converted to the struct {}; pass the element's "
        "bytes instead",
        dtype.name()));
}

// `value` as a float, or a LogicError where it is out of float's range (the conversion would
// be undefined).
float to_float(double value, const DType& dtype) {
  if (std::isfinite(value) && std::abs(value) > std::numeric_limits<float>::max())
    throw LogicError(fmt::format("c_constant: {} is out of the range of {}", value, dtype.name()));
  return static_cast<float>(value);
}

std::string complex_constant(std::complex<double> value, const DType& dtype) {
  if (dtype.itemsize() == 8)
    return complex_text(float_literal(to_float(value.real(), dtype), dtype),
                        float_literal(to_float(value.imag(), dtype), dtype), dtype, false);
  return complex_text(float_literal(value.real(), dtype), float_literal(value.imag(), dtype), dtype,
                      false);
}

template <class V>
std::string from_integer(V value, const DType& dtype) {
  check_not_struct(dtype);
  switch (dtype.kind()) {
    case DTypeKind::boolean: return value != 0 ? "true" : "false";
    case DTypeKind::signed_integer:
    case DTypeKind::unsigned_integer: return integer_constant(value, dtype);
    case DTypeKind::floating: return detail::c_constant_of(static_cast<double>(value), dtype);
    default: return complex_constant(static_cast<double>(value), dtype);
  }
}

// --- Paths ---

void flatten(const DType& dtype, FieldPath& path, std::size_t offset,
             std::vector<FlatField>& result);

void flatten_array(const Field& field, std::size_t dim, FieldPath& path, std::size_t offset,
                   std::vector<FlatField>& result) {
  if (dim == field.shape.size()) {
    flatten(field.dtype, path, offset, result);
    return;
  }
  std::size_t stride = field.dtype.itemsize();
  for (std::size_t d = dim + 1; d < field.shape.size(); ++d) stride *= field.shape[d];
  for (std::size_t i = 0; i < field.shape[dim]; ++i) {
    path.emplace_back(i);
    flatten_array(field, dim + 1, path, offset + i * stride, result);
    path.pop_back();
  }
}

void flatten(const DType& dtype, FieldPath& path, std::size_t offset,
             std::vector<FlatField>& result) {
  if (!dtype.is_struct()) {
    result.push_back(FlatField{path, dtype, offset});
    return;
  }
  for (const auto& field : dtype.fields()) {
    path.emplace_back(field.name);
    flatten_array(field, 0, path, offset + field.offset, result);
    path.pop_back();
  }
}

}  // namespace

RenderValue ctype(const DType& dtype) {
  if (dtype.is_struct()) return ctype_struct(dtype);
  return scalar_ctype(dtype);
}

Module ctype_struct(const DType& dtype, bool ignore_alignment) {
  if (!dtype.is_struct())
    throw LogicError(fmt::format("ctype_struct: {} is not a struct dtype", dtype.name()));
  return struct_cache().get(StructKey{dtype, ignore_alignment},
                            [&] { return make_struct_module(dtype, ignore_alignment); });
}

DType align(const DType& dtype) {
  if (!dtype.is_struct()) return dtype;
  std::vector<FieldSpec> fields;
  fields.reserve(dtype.fields().size());
  for (const auto& field : dtype.fields())
    fields.emplace_back(field.name, align(field.dtype), field.shape);
  return DType::make_struct(std::move(fields));
}

Module complex_ctr(const DType& dtype) {
  if (!is_complex(dtype))
    throw LogicError(fmt::format("complex_ctr: {} is not a complex dtype", dtype.name()));
  // FUNCTION without INLINE, as in functions.cpp (OpenCL's C99 inline emits no symbol).
  return complex_ctr_cache().get(dtype, [&] {
    const char* complex_type = scalar_ctype(dtype);
    const char* real_type = scalar_ctype(real_for(dtype));
    return Module::from_string(fmt::format(R"(FUNCTION {0} ${{prefix}}({1} re, {1} im)
{{
    {0} result;
    result.x = re;
    result.y = im;
    return result;
}}
)",
                                           complex_type, real_type),
                               "complex_ctr");
  });
}

std::string c_constant(std::span<const std::byte> value, const DType& dtype) {
  if (value.size() < dtype.itemsize())
    throw LogicError(fmt::format("c_constant: {} bytes given for an element of {} ({} bytes)",
                                 value.size(), dtype.name(), dtype.itemsize()));
  return constant_at(value.data(), dtype, false);
}

namespace detail {

std::string c_constant_of(bool value, const DType& dtype) {
  return from_integer(static_cast<std::int64_t>(value), dtype);
}

std::string c_constant_of(std::int64_t value, const DType& dtype) {
  return from_integer(value, dtype);
}

std::string c_constant_of(std::uint64_t value, const DType& dtype) {
  return from_integer(value, dtype);
}

std::string c_constant_of(double value, const DType& dtype) {
  check_not_struct(dtype);
  switch (dtype.kind()) {
    case DTypeKind::boolean: return value != 0 ? "true" : "false";
    case DTypeKind::signed_integer:
    case DTypeKind::unsigned_integer:
      // Exactly representable integers only: 2^63 and beyond fail the range check.
      if (!std::isfinite(value) || std::trunc(value) != value || std::abs(value) >= 0x1p64)
        throw LogicError(
            fmt::format("c_constant: {} is not an integer that fits {}", value, dtype.name()));
      if (value < 0) return integer_constant(static_cast<std::int64_t>(value), dtype);
      return integer_constant(static_cast<std::uint64_t>(value), dtype);
    case DTypeKind::floating:
      scalar_ctype(dtype);  // rejects float16
      if (dtype.itemsize() == 4) return float_literal(to_float(value, dtype), dtype);
      return float_literal(value, dtype);
    default: return complex_constant(value, dtype);
  }
}

std::string c_constant_of(std::complex<double> value, const DType& dtype) {
  check_not_struct(dtype);
  if (!is_complex(dtype))
    throw LogicError(fmt::format(
        "c_constant: the complex value ({}, {}) cannot be converted to the real dtype {}",
        value.real(), value.imag(), dtype.name()));
  return complex_constant(value, dtype);
}

void check_extract_type(const Field& part, const DType& requested) {
  if (part.dtype != requested)
    throw LogicError(fmt::format("extract_field: '{}' holds {}, not {}", part.name,
                                 part.dtype.name(), requested.name()));
}

}  // namespace detail

std::vector<FlatField> flatten_dtype(const DType& dtype) {
  std::vector<FlatField> result;
  FieldPath path;
  flatten(dtype, path, 0, result);
  return result;
}

std::string c_path(const FieldPath& path) {
  std::string text;
  for (const auto& element : path) {
    if (const auto* name = std::get_if<std::string>(&element))
      text += (text.empty() ? "" : ".") + *name;
    else
      text += fmt::format("[{}]", std::get<std::size_t>(element));
  }
  return text;
}

Field field_at(const DType& dtype, const FieldPath& path) {
  Field part{"", dtype, {}, 0};
  for (const auto& element : path) {
    if (const auto* name = std::get_if<std::string>(&element)) {
      if (!part.shape.empty() || !part.dtype.is_struct())
        throw LogicError(fmt::format("field_at: '{}' of {} is {}, which has no field '{}'",
                                     c_path(path), dtype.name(),
                                     part.shape.empty() ? part.dtype.name() : "an array", *name));
      const auto& fields = part.dtype.fields();
      const auto it = std::find_if(fields.begin(), fields.end(),
                                   [&](const Field& field) { return field.name == *name; });
      if (it == fields.end())
        throw LogicError(fmt::format("field_at: {} (in path '{}') has no field '{}'",
                                     part.dtype.name(), c_path(path), *name));
      part.offset += it->offset;
      part.dtype = it->dtype;
      part.shape = it->shape;
    } else {
      const auto index = std::get<std::size_t>(element);
      if (part.shape.empty())
        throw LogicError(fmt::format("field_at: path '{}' of {} indexes {}, which is not an array",
                                     c_path(path), dtype.name(), part.dtype.name()));
      if (index >= part.shape.front())
        throw LogicError(
            fmt::format("field_at: index {} in path '{}' of {} is out of range (0..{})", index,
                        c_path(path), dtype.name(), part.shape.front() - 1));
      part.shape.erase(part.shape.begin());
      part.offset += index * part.itemsize();  // itemsize() of the remaining extents
    }
  }
  part.name = c_path(path);
  return part;
}

std::vector<std::byte> extract_field(std::span<const std::byte> data, const DType& dtype,
                                     const FieldPath& path) {
  if (data.size() % dtype.itemsize() != 0)
    throw LogicError(fmt::format("extract_field: {} bytes is not a whole number of {} elements",
                                 data.size(), dtype.name()));
  const auto part = field_at(dtype, path);
  const auto size = part.itemsize();
  const auto count = data.size() / dtype.itemsize();
  std::vector<std::byte> result(count * size);
  for (std::size_t i = 0; i < count; ++i)
    std::memcpy(result.data() + i * size, data.data() + i * dtype.itemsize() + part.offset, size);
  return result;
}

}  // namespace plinth
