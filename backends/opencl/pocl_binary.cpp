#include "pocl_binary.hpp"

#include <cstdint>
#include <cstring>
#include <optional>

namespace plinth::opencl {

namespace {

constexpr char magic[8] = {'p', 'o', 'c', 'l', 'b', 'i', 'n', '\0'};
constexpr std::size_t build_hash_size = 41;  // a SHA-1 in hex and its NUL
constexpr std::uint64_t has_scope_variables = 1u << 1;
constexpr std::uint32_t has_workgroup_metadata = 1u << 1;
constexpr std::uint32_t has_subgroup_metadata = 1u << 2;
constexpr std::size_t dimensions = 3;
/// PoCL copies a file's relative path after its cache directory in a 1024- or 4096-byte
/// buffer: longer paths overflow it.
constexpr std::uint32_t longest_path = 512;

/// A cursor over the bytes; every read checks the bounds and sets `problem` on failure.
class Reader {
 public:
  Reader(std::span<const std::byte> bytes, std::size_t begin, std::size_t end)
      : bytes_(bytes), at_(begin), end_(end) {}

  std::size_t at() const { return at_; }
  std::size_t left() const { return end_ - at_; }

  template <class T>
  std::optional<T> read() {
    if (left() < sizeof(T)) return std::nullopt;
    T value;
    std::memcpy(&value, bytes_.data() + at_, sizeof(T));
    at_ += sizeof(T);
    return value;
  }
  bool skip(std::uint64_t count) {
    if (count > left()) return false;
    at_ += static_cast<std::size_t>(count);
    return true;
  }
  /// A length-prefixed string; nullopt when it does not fit.
  std::optional<std::span<const std::byte>> string() {
    const auto length = read<std::uint32_t>();
    if (!length || *length > left()) return std::nullopt;
    const auto text = bytes_.subspan(at_, *length);
    at_ += *length;
    return text;
  }

 private:
  std::span<const std::byte> bytes_;
  std::size_t at_;
  std::size_t end_;
};

std::string at_byte(const Reader& reader, std::size_t size) {
  return " (at byte " + std::to_string(reader.at()) + " of " + std::to_string(size) + ")";
}

/// Why the files in [begin, begin + count) are not a sequence of (path, content) pairs that
/// fills it exactly; "" when they are.
std::string files_problem(std::span<const std::byte> bytes, std::size_t begin, std::uint64_t count,
                          const std::string& what) {
  Reader files(bytes, begin, begin + static_cast<std::size_t>(count));
  std::size_t index = 0;
  while (files.left() > 0) {
    const auto at = files.at();
    const auto path = files.string();
    if (!path)
      return what + "'s file " + std::to_string(index) + " has a path that runs past its end" +
             at_byte(files, bytes.size());
    if (path->empty() || path->size() > longest_path)
      return what + "'s file " + std::to_string(index) + " has a path of " +
             std::to_string(path->size()) + " bytes (at byte " + std::to_string(at) + ")";
    for (std::size_t i = 0; i < path->size(); ++i) {
      const auto c = static_cast<unsigned char>((*path)[i]);
      const bool dots =
          c == '.' && i + 1 < path->size() && static_cast<unsigned char>((*path)[i + 1]) == '.' &&
          (i + 2 == path->size() || static_cast<unsigned char>((*path)[i + 2]) == '/');
      if (c < 0x20 || c == 0x7f || (dots && (i == 0 || (*path)[i - 1] == std::byte{'/'})))
        return what + "'s file " + std::to_string(index) +
               " has a path that is not a plain relative name (at byte " + std::to_string(at) + ")";
    }
    if (!files.string())
      return what + "'s file " + std::to_string(index) + " has contents that run past its end" +
             at_byte(files, bytes.size());
    ++index;
  }
  return {};
}

/// Why kernel record `index` at the reader's position is malformed; "" when it is whole.
/// Advances past it.
std::string kernel_problem(std::span<const std::byte> bytes, Reader& reader, std::uint32_t version,
                           std::uint32_t index) {
  const std::string what = "kernel " + std::to_string(index);
  const std::size_t begin = reader.at();
  const auto struct_size = reader.read<std::uint64_t>();
  const auto binaries_size = reader.read<std::uint64_t>();
  const auto arginfo_size = reader.read<std::uint32_t>();
  if (!arginfo_size) return what + "'s record is cut short" + at_byte(reader, bytes.size());
  if (*struct_size > bytes.size() - begin)
    return what + "'s record (" + std::to_string(*struct_size) + " bytes) runs past the end" +
           at_byte(reader, bytes.size());
  if (*binaries_size > *struct_size)
    return what + "'s files (" + std::to_string(*binaries_size) + " bytes) exceed its record (" +
           std::to_string(*struct_size) + " bytes)";
  const std::size_t end = begin + static_cast<std::size_t>(*struct_size);
  const std::size_t files_begin = end - static_cast<std::size_t>(*binaries_size);
  if (files_begin < reader.at()) return what + "'s record is smaller than its fixed fields";
  Reader record(bytes, reader.at(), files_begin);
  const auto name = record.string();
  if (!name) return what + "'s name runs past its record";
  if (name->empty()) return what + " has no name";
  const auto num_args = record.read<std::uint32_t>();
  const auto num_locals = record.read<std::uint32_t>();
  if (!num_locals || !record.skip(dimensions * sizeof(std::uint64_t)))
    return what + "'s counts run past its record";
  if (*num_locals > record.left() / sizeof(std::uint64_t))
    return what + " declares " + std::to_string(*num_locals) +
           " local variables, more than its record holds";
  record.skip(std::uint64_t{*num_locals} * sizeof(std::uint64_t));
  if (!record.string()) return what + "'s attributes run past its record";
  if (version == 9) {
    if (!record.read<std::uint64_t>()) return what + "'s metadata runs past its record";
  } else {
    record.read<std::uint32_t>();
    const auto flags = record.read<std::uint32_t>();
    if (!flags) return what + "'s metadata runs past its record";
    std::uint64_t extra = 0;
    if ((*flags & has_subgroup_metadata) != 0) extra += 2 * sizeof(std::uint32_t);
    if ((*flags & has_workgroup_metadata) != 0) extra += 5 * sizeof(std::uint32_t);
    if (!record.skip(extra)) return what + "'s work-group metadata runs past its record";
  }
  const std::size_t args_begin = record.at();
  for (std::uint32_t a = 0; a < *num_args; ++a) {
    // Access and address qualifiers (cl_uint), type qualifier (cl_bitfield), type, size.
    if (!record.skip(4 + 4 + 8 + 4 + 4) || !record.string() || !record.string())
      return what + "'s argument " + std::to_string(a) + " of " + std::to_string(*num_args) +
             " runs past its record";
  }
  if (record.at() - args_begin != *arginfo_size)
    return what + "'s argument info is " + std::to_string(record.at() - args_begin) +
           " bytes, its record says " + std::to_string(*arginfo_size);
  if (record.left() != 0)
    return what + "'s record has " + std::to_string(record.left()) +
           " bytes its fields do not account for";
  if (auto problem = files_problem(bytes, files_begin, *binaries_size, what); !problem.empty())
    return problem;
  reader = Reader(bytes, end, bytes.size());
  return {};
}

}  // namespace

bool is_pocl_binary(std::span<const std::byte> bytes) noexcept {
  return bytes.size() >= sizeof(magic) && std::memcmp(bytes.data(), magic, sizeof(magic)) == 0;
}

std::string pocl_binary_problem(std::span<const std::byte> bytes) {
  if (bytes.empty()) return "an empty PoCL binary";
  if (!is_pocl_binary(bytes)) return "not a PoCL binary (no \"poclbin\" magic)";
  Reader reader(bytes, sizeof(magic), bytes.size());
  reader.read<std::uint64_t>();  // the device's hash: PoCL compares it itself
  const auto version = reader.read<std::uint32_t>();
  const auto num_kernels = reader.read<std::uint32_t>();
  const auto flags = reader.read<std::uint64_t>();
  const auto root_entries = reader.read<std::uint32_t>();
  if (!root_entries || !reader.skip(build_hash_size))
    return "a PoCL binary shorter than its header (" + std::to_string(bytes.size()) + " bytes)";
  if (*version != 9 && *version != 11)
    return "a PoCL binary of format version " + std::to_string(*version) +
           ", which plinth cannot check (it knows 9, PoCL 3.x, and 11, PoCL 5.0)";
  if (*version >= 10 && (*flags & has_scope_variables) != 0 && !reader.read<std::uint64_t>())
    return "a PoCL binary shorter than its header (" + std::to_string(bytes.size()) + " bytes)";
  // A device serializes a handful of root entries (program.bc, the global-variable kernel).
  if (*root_entries == 0 || *root_entries > 16)
    return "a PoCL binary declaring " + std::to_string(*root_entries) + " root entries";
  for (std::uint32_t i = 0; i < *root_entries; ++i) {
    const auto size = reader.read<std::uint64_t>();
    if (!size) return "a PoCL binary whose root entry " + std::to_string(i) + " is cut short";
    if (*size == 0 || *size > reader.left())
      return "a PoCL binary whose root entry " + std::to_string(i) + " declares " +
             std::to_string(*size) + " bytes" + at_byte(reader, bytes.size());
    if (auto problem = files_problem(bytes, reader.at(), *size, "root entry " + std::to_string(i));
        !problem.empty())
      return "a PoCL binary whose " + problem;
    reader.skip(*size);
  }
  if (*num_kernels > reader.left())
    return "a PoCL binary declaring " + std::to_string(*num_kernels) +
           " kernels, more than its bytes hold";
  for (std::uint32_t k = 0; k < *num_kernels; ++k) {
    if (auto problem = kernel_problem(bytes, reader, *version, k); !problem.empty())
      return "a PoCL binary whose " + problem;
  }
  if (reader.left() != 0)
    return "a PoCL binary with " + std::to_string(reader.left()) + " bytes after its last kernel" +
           at_byte(reader, bytes.size());
  return {};
}

}  // namespace plinth::opencl
