#include "templates/identifiers.hpp"

#include <plinth/dtype.hpp>
#include <plinth/errors.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <limits>
#include <ostream>
#include <unordered_set>

namespace plinth {

namespace detail {

// The immutable representation shared by copies of a DType.
struct DTypeData {
  DTypeKind kind;
  std::size_t itemsize;
  std::size_t alignment;
  std::string name;
  std::vector<Field> fields;  // empty for scalars
  std::size_t hash;
};

}  // namespace detail

namespace {

constexpr std::size_t hash_combine(std::size_t seed, std::size_t value) noexcept {
  return seed ^ (value + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2));
}

std::shared_ptr<const detail::DTypeData> make_scalar(DTypeKind kind, std::size_t itemsize,
                                                     const char* name) {
  const auto hash =
      hash_combine(std::hash<int>{}(static_cast<int>(kind)), std::hash<std::size_t>{}(itemsize));
  return std::make_shared<const detail::DTypeData>(
      detail::DTypeData{kind, itemsize, itemsize, name, {}, hash});
}

std::size_t checked_mul(std::size_t a, std::size_t b, const std::string& field) {
  if (b != 0 && a > std::numeric_limits<std::size_t>::max() / b) {
    throw LogicError(fmt::format("DType::make_struct: field '{}' is too large", field));
  }
  return a * b;
}

std::size_t checked_add(std::size_t a, std::size_t b, const std::string& field) {
  if (a > std::numeric_limits<std::size_t>::max() - b) {
    throw LogicError(fmt::format("DType::make_struct: field '{}' is too large", field));
  }
  return a + b;
}

std::size_t round_up(std::size_t value, std::size_t alignment, const std::string& field) {
  return checked_add(value, (alignment - value % alignment) % alignment, field);
}

bool is_power_of_two(std::size_t value) { return value != 0 && (value & (value - 1)) == 0; }

std::string field_name(const Field& field) {
  std::string text = fmt::format("{}: {}", field.name, field.dtype.name());
  for (const auto extent : field.shape) text += fmt::format("[{}]", extent);
  return text + fmt::format(" @{}", field.offset);
}

std::size_t field_hash(const Field& field) {
  auto seed = std::hash<std::string>{}(field.name);
  seed = hash_combine(seed, field.dtype.hash());
  for (const auto extent : field.shape) seed = hash_combine(seed, extent);
  return hash_combine(seed, field.offset);
}

}  // namespace

const char* to_string(DTypeKind kind) noexcept {
  switch (kind) {
    case DTypeKind::boolean: return "bool";
    case DTypeKind::signed_integer: return "int";
    case DTypeKind::unsigned_integer: return "uint";
    case DTypeKind::floating: return "float";
    case DTypeKind::complex: return "complex";
    case DTypeKind::structure: return "struct";
  }
  return "unknown";
}

// Each scalar is one shared representation, made on first use (safe from static
// initialisation order: a user's global may call these before ours are constructed).
#define PLINTH_SCALAR_DTYPE(function, kind, itemsize)                            \
  DType DType::function() {                                                      \
    static const DType dtype(make_scalar(DTypeKind::kind, itemsize, #function)); \
    return dtype;                                                                \
  }

DType DType::boolean() {
  static const DType dtype(make_scalar(DTypeKind::boolean, 1, "bool"));
  return dtype;
}
PLINTH_SCALAR_DTYPE(int8, signed_integer, 1)
PLINTH_SCALAR_DTYPE(uint8, unsigned_integer, 1)
PLINTH_SCALAR_DTYPE(int16, signed_integer, 2)
PLINTH_SCALAR_DTYPE(uint16, unsigned_integer, 2)
PLINTH_SCALAR_DTYPE(int32, signed_integer, 4)
PLINTH_SCALAR_DTYPE(uint32, unsigned_integer, 4)
PLINTH_SCALAR_DTYPE(int64, signed_integer, 8)
PLINTH_SCALAR_DTYPE(uint64, unsigned_integer, 8)
PLINTH_SCALAR_DTYPE(float16, floating, 2)
PLINTH_SCALAR_DTYPE(float32, floating, 4)
PLINTH_SCALAR_DTYPE(float64, floating, 8)
PLINTH_SCALAR_DTYPE(complex64, complex, 8)
PLINTH_SCALAR_DTYPE(complex128, complex, 16)

#undef PLINTH_SCALAR_DTYPE

DType DType::from_name(std::string_view name) {
  const std::array<DType, 14> scalars = {boolean(), int8(),    uint8(),     int16(),     uint16(),
                                         int32(),   uint32(),  int64(),     uint64(),    float16(),
                                         float32(), float64(), complex64(), complex128()};
  std::vector<std::string> names;
  for (const auto& dtype : scalars) {
    if (dtype.name() == name) return dtype;
    names.push_back(dtype.name());
  }
  throw LogicError(fmt::format("DType::from_name: unknown dtype '{}' (valid names: {})", name,
                               fmt::join(names, ", ")));
}

DType DType::make_struct(std::vector<FieldSpec> specs, const StructLayout& layout) {
  if (specs.empty()) throw LogicError("DType::make_struct: a struct needs at least one field");

  std::vector<Field> fields;
  fields.reserve(specs.size());
  std::unordered_set<std::string> names;
  std::size_t natural_alignment = 1;
  std::size_t end = 0;  // the end of the previous field

  for (auto& spec : specs) {
    if (!detail::is_c_identifier(spec.name)) {
      throw LogicError(
          fmt::format("DType::make_struct: field name '{}' is not a C identifier", spec.name));
    }
    if (!names.insert(spec.name).second) {
      throw LogicError(fmt::format("DType::make_struct: field '{}' appears twice", spec.name));
    }
    std::size_t count = 1;
    for (const auto extent : spec.shape) {
      if (extent == 0) {
        throw LogicError(
            fmt::format("DType::make_struct: field '{}' has an array extent of 0", spec.name));
      }
      count = checked_mul(count, extent, spec.name);
    }
    const auto size = checked_mul(spec.dtype.itemsize(), count, spec.name);
    const auto alignment = spec.dtype.alignment();

    std::size_t offset = 0;
    if (spec.offset) {
      offset = *spec.offset;
      if (offset % alignment != 0) {
        throw LogicError(fmt::format(
            "DType::make_struct: field '{}' at offset {} is not aligned to its alignment {}",
            spec.name, offset, alignment));
      }
      if (offset < end) {
        throw LogicError(fmt::format(
            "DType::make_struct: field '{}' at offset {} overlaps the previous field '{}', "
            "which ends at {} (fields must be given in offset order)",
            spec.name, offset, fields.back().name, end));
      }
    } else {
      offset = round_up(end, alignment, spec.name);
    }
    end = checked_add(offset, size, spec.name);
    natural_alignment = std::max(natural_alignment, alignment);
    fields.push_back(Field{std::move(spec.name), spec.dtype, std::move(spec.shape), offset});
  }

  auto alignment = natural_alignment;
  if (layout.alignment) {
    if (!is_power_of_two(*layout.alignment) || *layout.alignment < natural_alignment) {
      throw LogicError(fmt::format(
          "DType::make_struct: alignment {} must be a power of two and at least {}, the "
          "largest alignment of the fields",
          *layout.alignment, natural_alignment));
    }
    alignment = *layout.alignment;
  }
  const auto computed_itemsize = round_up(end, alignment, fields.back().name);
  auto itemsize = computed_itemsize;
  if (layout.itemsize) {
    if (*layout.itemsize < end || *layout.itemsize % alignment != 0) {
      throw LogicError(fmt::format(
          "DType::make_struct: itemsize {} must be at least {}, where the last field ends, "
          "and a multiple of the alignment {}",
          *layout.itemsize, end, alignment));
    }
    itemsize = *layout.itemsize;
  }

  std::vector<std::string> parts;
  std::size_t hash = hash_combine(static_cast<std::size_t>(DTypeKind::structure), itemsize);
  hash = hash_combine(hash, alignment);
  for (const auto& field : fields) {
    parts.push_back(field_name(field));
    hash = hash_combine(hash, field_hash(field));
  }
  auto name = fmt::format("struct{{{}", fmt::join(parts, ", "));
  if (itemsize != computed_itemsize) name += fmt::format("; itemsize {}", itemsize);
  if (alignment != natural_alignment) name += fmt::format("; alignment {}", alignment);
  name += "}";

  return DType(std::make_shared<const detail::DTypeData>(detail::DTypeData{
      DTypeKind::structure, itemsize, alignment, std::move(name), std::move(fields), hash}));
}

DTypeKind DType::kind() const noexcept { return data_->kind; }
bool DType::is_struct() const noexcept { return data_->kind == DTypeKind::structure; }
std::size_t DType::itemsize() const noexcept { return data_->itemsize; }
std::size_t DType::alignment() const noexcept { return data_->alignment; }
const std::string& DType::name() const noexcept { return data_->name; }
const std::vector<Field>& DType::fields() const noexcept { return data_->fields; }
std::size_t DType::hash() const noexcept { return data_->hash; }

const Field& DType::field(std::string_view name) const {
  if (!is_struct()) {
    throw LogicError(
        fmt::format("DType::field: {} is not a struct, so has no field '{}'", data_->name, name));
  }
  for (const auto& field : data_->fields) {
    if (field.name == name) return field;
  }
  throw LogicError(fmt::format("DType::field: {} has no field '{}'", data_->name, name));
}

bool DType::operator==(const DType& other) const noexcept {
  if (data_ == other.data_) return true;
  const auto& a = *data_;
  const auto& b = *other.data_;
  return a.hash == b.hash && a.kind == b.kind && a.itemsize == b.itemsize &&
         a.alignment == b.alignment && a.fields == b.fields;
}

std::ostream& operator<<(std::ostream& os, const DType& dtype) { return os << dtype.name(); }

bool is_complex(const DType& dtype) noexcept { return dtype.kind() == DTypeKind::complex; }

bool is_double(const DType& dtype) noexcept {
  return (dtype.kind() == DTypeKind::floating && dtype.itemsize() == 8) ||
         (dtype.kind() == DTypeKind::complex && dtype.itemsize() == 16);
}

bool is_integer(const DType& dtype) noexcept {
  return dtype.kind() == DTypeKind::signed_integer || dtype.kind() == DTypeKind::unsigned_integer;
}

bool is_real(const DType& dtype) noexcept { return dtype.kind() == DTypeKind::floating; }

DType complex_for(const DType& real) {
  if (real == DType::float32()) return DType::complex64();
  if (real == DType::float64()) return DType::complex128();
  throw LogicError(fmt::format(
      "complex_for: {} has no complex counterpart (only float32 and float64 do)", real.name()));
}

DType real_for(const DType& complex) {
  if (complex == DType::complex64()) return DType::float32();
  if (complex == DType::complex128()) return DType::float64();
  throw LogicError(fmt::format(
      "real_for: {} is not complex64 or complex128, so has no real counterpart", complex.name()));
}

}  // namespace plinth
