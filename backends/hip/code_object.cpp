#include "code_object.hpp"

#include "comgr.hpp"
#include "error.hpp"

#include <plinth/errors.hpp>

#include <charconv>
#include <cstdint>

namespace plinth::hip {

namespace {

// Releases comgr objects with the scope.
struct Data {
  amd_comgr_data_t handle{};
  bool valid = false;
  Data() = default;
  Data(const Data&) = delete;
  Data& operator=(const Data&) = delete;
  ~Data() {
    if (valid) PLINTH_CHECK_IN_DESTRUCTOR(comgr().release_data(handle));
  }
};

struct Node {
  amd_comgr_metadata_node_t handle{};
  bool valid = false;
  Node() = default;
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;
  ~Node() {
    if (valid) PLINTH_CHECK_IN_DESTRUCTOR(comgr().destroy_metadata(handle));
  }
};

// The entry `key` of map `map`; false if there is none.
bool lookup(const Node& map, const char* key, Node& entry) {
  if (comgr().metadata_lookup(map.handle, key, &entry.handle) != AMD_COMGR_STATUS_SUCCESS)
    return false;
  entry.valid = true;
  return true;
}

std::string text(const Node& node) {
  amd_comgr_metadata_kind_t kind{};
  PLINTH_CHECK(comgr().get_metadata_kind(node.handle, &kind));
  if (kind != AMD_COMGR_METADATA_KIND_STRING) return {};
  std::size_t size = 0;
  PLINTH_CHECK(comgr().get_metadata_string(node.handle, &size, nullptr));
  std::string value(size, '\0');
  PLINTH_CHECK(comgr().get_metadata_string(node.handle, &size, value.data()));
  while (!value.empty() && value.back() == '\0') value.pop_back();
  return value;
}

// The string entry `key` of `map`, or "" if there is none.
std::string text_of(const Node& map, const char* key) {
  Node entry;
  return lookup(map, key, entry) ? text(entry) : std::string();
}

// comgr gives numbers as their decimal text.
std::size_t number_of(const Node& map, const char* key) {
  const std::string value = text_of(map, key);
  std::size_t number = 0;
  std::from_chars(value.data(), value.data() + value.size(), number);
  return number;
}

std::size_t list_size(const Node& list) {
  amd_comgr_metadata_kind_t kind{};
  PLINTH_CHECK(comgr().get_metadata_kind(list.handle, &kind));
  if (kind != AMD_COMGR_METADATA_KIND_LIST) return 0;
  std::size_t size = 0;
  PLINTH_CHECK(comgr().get_metadata_list_size(list.handle, &size));
  return size;
}

void element(const Node& list, std::size_t index, Node& entry) {
  PLINTH_CHECK(comgr().index_list_metadata(list.handle, index, &entry.handle));
  entry.valid = true;
}

}  // namespace

std::string code_object_problem(std::span<const std::byte> bytes) {
  auto byte = [&](std::size_t i) { return static_cast<unsigned>(bytes[i]); };
  if (bytes.size() < 64 || byte(0) != 0x7f || byte(1) != 'E' || byte(2) != 'L' || byte(3) != 'F')
    return "not an ELF file";
  if (byte(4) != 2 || byte(5) != 1) return "not a 64-bit little-endian ELF file";
  if (byte(18) + (byte(19) << 8) != em_amdgpu)
    return "an ELF file for machine " + std::to_string(byte(18) + (byte(19) << 8)) +
           ", not an AMD GPU (" + std::to_string(em_amdgpu) + ")";
  if (byte(7) != elfosabi_amdgpu_hsa)
    return "an AMD GPU ELF file for OS ABI " + std::to_string(byte(7)) + ", not HSA (" +
           std::to_string(elfosabi_amdgpu_hsa) + ")";
  return {};
}

std::vector<KernelInfo> read_kernels(std::span<const std::byte> code) {
  Data data;
  PLINTH_CHECK(comgr().create_data(AMD_COMGR_DATA_KIND_EXECUTABLE, &data.handle));
  data.valid = true;
  PLINTH_CHECK(
      comgr().set_data(data.handle, code.size(), reinterpret_cast<const char*>(code.data())));
  Node root;
  PLINTH_CHECK(comgr().get_data_metadata(data.handle, &root.handle));
  root.valid = true;
  Node kernels;
  if (!lookup(root, "amdhsa.kernels", kernels))
    throw LogicError(
        "the code object has no kernel metadata of code object version 3 or later "
        "(amdhsa.kernels)");
  std::vector<KernelInfo> infos;
  for (std::size_t k = 0, count = list_size(kernels); k < count; ++k) {
    Node kernel;
    element(kernels, k, kernel);
    KernelInfo info;
    info.name = text_of(kernel, ".name");
    info.max_flat_workgroup_size = number_of(kernel, ".max_flat_workgroup_size");
    Node args;
    if (lookup(kernel, ".args", args)) {
      for (std::size_t a = 0, arg_count = list_size(args); a < arg_count; ++a) {
        Node arg;
        element(args, a, arg);
        if (text_of(arg, ".value_kind").starts_with("hidden_")) continue;
        info.parameters.push_back({backend::ParamKind::unknown, number_of(arg, ".size"),
                                   text_of(arg, ".type_name"), text_of(arg, ".name")});
      }
    }
    infos.push_back(std::move(info));
  }
  return infos;
}

}  // namespace plinth::hip
