#include "targets.hpp"

#include "comgr.hpp"
#include "device_parameters.hpp"
#include "error.hpp"

#include <algorithm>
#include <cstddef>
#include <string>

namespace plinth::hip {

namespace {

constexpr std::string_view isa_prefix = "amdgcn-amd-amdhsa--";

// Destroys a comgr metadata node with the scope.
struct Metadata {
  amd_comgr_metadata_node_t node{};
  bool valid = false;
  Metadata() = default;
  Metadata(const Metadata&) = delete;
  Metadata& operator=(const Metadata&) = delete;
  ~Metadata() {
    if (valid) PLINTH_CHECK_IN_DESTRUCTOR(comgr().destroy_metadata(node));
  }
};

std::string metadata_string(amd_comgr_metadata_node_t node) {
  std::size_t size = 0;
  PLINTH_CHECK(comgr().get_metadata_string(node, &size, nullptr));
  std::string text(size, '\0');
  PLINTH_CHECK(comgr().get_metadata_string(node, &size, text.data()));
  while (!text.empty() && text.back() == '\0') text.pop_back();
  return text;
}

// The target features comgr's metadata of `isa_name` lists under "Features" (a map).
std::vector<std::string> features_of(const std::string& isa_name) {
  Metadata isa;
  PLINTH_CHECK(comgr().get_isa_metadata(isa_name.c_str(), &isa.node));
  isa.valid = true;
  Metadata features;
  if (comgr().metadata_lookup(isa.node, "Features", &features.node) != AMD_COMGR_STATUS_SUCCESS)
    return {};
  features.valid = true;
  amd_comgr_metadata_kind_t kind{};
  PLINTH_CHECK(comgr().get_metadata_kind(features.node, &kind));
  if (kind != AMD_COMGR_METADATA_KIND_MAP) return {};
  std::vector<std::string> names;
  PLINTH_CHECK(comgr().iterate_map_metadata(
      features.node,
      [](amd_comgr_metadata_node_t key, amd_comgr_metadata_node_t, void* data) {
        try {
          static_cast<std::vector<std::string>*>(data)->push_back(metadata_string(key));
          return AMD_COMGR_STATUS_SUCCESS;
        } catch (...) {
          return AMD_COMGR_STATUS_ERROR;
        }
      },
      &names));
  return names;
}

std::vector<Isa> read_isas() {
  std::size_t count = 0;
  PLINTH_CHECK(comgr().get_isa_count(&count));
  std::vector<Isa> list;
  for (std::size_t index = 0; index < count; ++index) {
    const char* name = nullptr;
    PLINTH_CHECK(comgr().get_isa_name(index, &name));
    std::string_view full(name != nullptr ? name : "");
    if (!full.starts_with(isa_prefix)) continue;  // not an amdhsa GPU ISA
    list.push_back({std::string(full.substr(isa_prefix.size())), features_of(std::string(full))});
  }
  return list;
}

const Isa* find_isa(std::string_view processor) {
  const auto& list = isas();
  const auto found =
      std::find_if(list.begin(), list.end(), [&](const Isa& isa) { return isa.name == processor; });
  return found == list.end() ? nullptr : &*found;
}

std::string supported_list() {
  std::string names;
  for (const auto& isa : isas()) names += (names.empty() ? "" : ", ") + isa.name;
  return names;
}

std::string join(const std::vector<std::string>& items) {
  std::string text;
  for (const auto& item : items) text += (text.empty() ? "" : ", ") + item;
  return text;
}

// The gfx major version: the digits between "gfx" and the last two characters (minor and
// stepping): 9 for gfx90a, 10 for gfx1030; 0 if `processor` is not of that form.
int gfx_major(std::string_view processor) {
  if (!processor.starts_with("gfx") || processor.size() < 6) return 0;
  int major = 0;
  for (char c : processor.substr(3, processor.size() - 5)) {
    if (c < '0' || c > '9') return 0;
    major = major * 10 + (c - '0');
  }
  return major;
}

std::string_view family(std::string_view processor) {
  switch (gfx_major(processor)) {
    case 6: return "GCN 1";
    case 7: return "GCN 2";
    case 8: return "GCN 3/4";
    case 9:
      if (processor == "gfx908") return "CDNA 1";
      if (processor == "gfx90a") return "CDNA 2";
      if (processor.starts_with("gfx94")) return "CDNA 3";
      return "GCN 5";
    case 10: return processor.starts_with("gfx101") ? "RDNA 1" : "RDNA 2";
    case 11: return "RDNA 3";
    default: return {};
  }
}

}  // namespace

const std::vector<Isa>& isas() {
  static const std::vector<Isa> list = read_isas();  // thread-safe; retried if it threw
  return list;
}

std::string comgr_version() {
  std::size_t major = 0, minor = 0;
  comgr().get_version(&major, &minor);
  return "comgr " + std::to_string(major) + "." + std::to_string(minor);
}

std::string_view processor_of(std::string_view target) {
  return target.substr(0, target.find(':'));
}

std::optional<std::string> target_problem(std::string_view target) {
  const std::string_view processor = processor_of(target);
  const Isa* isa = find_isa(processor);
  if (isa == nullptr) {
    return "HIP cannot compile for '" + std::string(target) + "': this installation (" +
           comgr_version() + ") knows " +
           (processor.empty() ? std::string("no such name")
                              : "no processor '" + std::string(processor) + "'") +
           "; it supports " + supported_list();
  }
  // The features: ":name+" or ":name-", each a feature of the processor, at most once.
  std::vector<std::string> seen;
  std::string_view rest = target.substr(processor.size());
  while (!rest.empty()) {
    rest.remove_prefix(1);  // the ':'
    const std::string_view item = rest.substr(0, rest.find(':'));
    rest.remove_prefix(item.size());
    const std::string feature(item.substr(0, item.empty() ? 0 : item.size() - 1));
    const char sign = item.empty() ? '\0' : item.back();
    const auto problem = [&](const std::string& what) {
      return "HIP cannot compile for '" + std::string(target) + "': " + what + " (" +
             std::string(processor) + " takes " +
             (isa->features.empty()
                  ? std::string("no features")
                  : join(isa->features) + ", each as :<feature>+ or :<feature>-") +
             "; " + comgr_version() + ")";
    };
    if (feature.empty() || (sign != '+' && sign != '-'))
      return problem("'" + std::string(item) + "' is not a feature followed by + or -");
    if (std::find(isa->features.begin(), isa->features.end(), feature) == isa->features.end())
      return problem("the processor has no feature '" + feature + "'");
    if (std::find(seen.begin(), seen.end(), feature) != seen.end())
      return problem("feature '" + feature + "' is given twice");
    seen.push_back(feature);
  }
  // comgr's own word on the whole ID, which is what hiprtc's compiler will parse.
  const std::string full = std::string(isa_prefix) + std::string(target);
  amd_comgr_metadata_node_t node{};
  if (comgr().get_isa_metadata(full.c_str(), &node) != AMD_COMGR_STATUS_SUCCESS)
    return "HIP cannot compile for '" + std::string(target) + "': " + comgr_version() +
           " does not accept this target ID";
  PLINTH_CHECK_IN_DESTRUCTOR(comgr().destroy_metadata(node));
  return std::nullopt;
}

std::size_t default_wavefront_size(std::string_view processor) {
  return gfx_major(processor) >= 10 ? 32 : 64;
}

std::string target_description(std::string_view processor) {
  const auto name = family(processor);
  return "AMD GPU code object for " + std::string(processor) + " (" +
         (name.empty() ? std::string() : std::string(name) + "; ") + "wavefront " +
         std::to_string(default_wavefront_size(processor)) + ")";
}

DeviceParameters target_parameters(std::string_view processor) {
  DeviceParameters params;
  params.type = DeviceType::gpu;
  params.local_mem_banks = 32;
  params.local_mem_size = 65536;
  params.max_local_sizes = {1024, 1024, 1024};
  params.max_num_groups = {2147483647, 65535, 65535};
  params.max_total_local_size = 1024;
  params.warp_size = default_wavefront_size(processor);
  params.address_alignment = 256;
  params.supports_double = true;
  params.compute_capability = std::string(processor);
  return params;
}

DeviceFeatures target_features(std::string_view processor) {
  return features_for_wavefront(default_wavefront_size(processor));
}

std::vector<backend::CompileTarget> compile_targets() {
  std::vector<backend::CompileTarget> targets;
  for (const auto& isa : isas())
    targets.push_back(
        {isa.name, target_description(isa.name), "hsaco", target_parameters(isa.name)});
  return targets;
}

}  // namespace plinth::hip
