#include "comgr.hpp"

#include <plinth/errors.hpp>

#include <dlfcn.h>

#include <atomic>
#include <string>

namespace plinth::hip {

namespace {

std::atomic<const Comgr*> opened{nullptr};

Comgr open_comgr() {
  // The library found at build time, then its soname on the loader's path.
  void* library = dlopen(PLINTH_HIP_COMGR_PATH, RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) library = dlopen(PLINTH_HIP_COMGR_SONAME, RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    const char* why = dlerror();
    throw Error(std::string("HIP: cannot open the code object manager: ") +
                (why != nullptr ? why : PLINTH_HIP_COMGR_SONAME));
  }
  Comgr table{};
  const auto load = [&](auto& function, const char* name) {
    void* symbol = dlsym(library, name);
    if (symbol == nullptr)
      throw Error(std::string("HIP: ") + PLINTH_HIP_COMGR_SONAME + " has no " + name);
    function = reinterpret_cast<std::remove_reference_t<decltype(function)>>(symbol);
  };
  load(table.status_string, "amd_comgr_status_string");
  load(table.get_version, "amd_comgr_get_version");
  load(table.get_isa_count, "amd_comgr_get_isa_count");
  load(table.get_isa_name, "amd_comgr_get_isa_name");
  load(table.get_isa_metadata, "amd_comgr_get_isa_metadata");
  load(table.create_data, "amd_comgr_create_data");
  load(table.set_data, "amd_comgr_set_data");
  load(table.release_data, "amd_comgr_release_data");
  load(table.get_data_metadata, "amd_comgr_get_data_metadata");
  load(table.destroy_metadata, "amd_comgr_destroy_metadata");
  load(table.get_metadata_kind, "amd_comgr_get_metadata_kind");
  load(table.get_metadata_string, "amd_comgr_get_metadata_string");
  load(table.get_metadata_list_size, "amd_comgr_get_metadata_list_size");
  load(table.index_list_metadata, "amd_comgr_index_list_metadata");
  load(table.metadata_lookup, "amd_comgr_metadata_lookup");
  load(table.iterate_map_metadata, "amd_comgr_iterate_map_metadata");
  return table;  // the library stays open: libamdhip64 uses it too
}

}  // namespace

const Comgr& comgr() {
  static const Comgr table = open_comgr();  // thread-safe; tried again if it threw
  opened.store(&table, std::memory_order_release);
  return table;
}

const Comgr* comgr_if_open() noexcept { return opened.load(std::memory_order_acquire); }

}  // namespace plinth::hip
