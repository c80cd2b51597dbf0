#pragma once

// The code object manager (libamd_comgr), opened on first use rather than linked. Debian's
// comgr has clang built in over the shared libLLVM-15, and PoCL uses libclang-cpp.so.15 over the
// same libLLVM: in one process their command-line options collide and LLVM aborts ("Option
// '...' registered more than once"). Linked, comgr would load with the plugin and take down
// every process that also loads the OpenCL plugin on PoCL; opened here (and by hiprtc, which
// libamdhip64 also opens it for) only when a program is compiled or the targets are listed.

#include <amd_comgr.h>

namespace plinth::hip {

/// The comgr functions the backend uses.
struct Comgr {
  decltype(&amd_comgr_status_string) status_string;
  decltype(&amd_comgr_get_version) get_version;
  decltype(&amd_comgr_get_isa_count) get_isa_count;
  decltype(&amd_comgr_get_isa_name) get_isa_name;
  decltype(&amd_comgr_get_isa_metadata) get_isa_metadata;
  decltype(&amd_comgr_create_data) create_data;
  decltype(&amd_comgr_set_data) set_data;
  decltype(&amd_comgr_release_data) release_data;
  decltype(&amd_comgr_get_data_metadata) get_data_metadata;
  decltype(&amd_comgr_destroy_metadata) destroy_metadata;
  decltype(&amd_comgr_get_metadata_kind) get_metadata_kind;
  decltype(&amd_comgr_get_metadata_string) get_metadata_string;
  decltype(&amd_comgr_get_metadata_list_size) get_metadata_list_size;
  decltype(&amd_comgr_index_list_metadata) index_list_metadata;
  decltype(&amd_comgr_metadata_lookup) metadata_lookup;
  decltype(&amd_comgr_iterate_map_metadata) iterate_map_metadata;
};

/// comgr, opened on the first call (thread-safe; never closed). Throws Error naming the
/// library and the loader's text when it cannot be opened or lacks a function.
const Comgr& comgr();

/// comgr if it has been opened already, else null (for error descriptions, which must not
/// open it).
const Comgr* comgr_if_open() noexcept;

}  // namespace plinth::hip
