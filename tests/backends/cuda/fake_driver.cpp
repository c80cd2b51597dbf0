#include "fake_driver.hpp"

#include "driver.hpp"

#include <array>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>
#include <utility>

namespace plinth::cuda::test {

namespace {

Driver saved;
std::vector<std::string> recorded;
thread_local CUcontext current_context = nullptr;
std::array<std::array<bool, 4>, 4> can_access{};
CUresult next_enable = CUDA_SUCCESS;
int max_pitch = 1 << 20;
std::map<std::pair<int, int>, int> attributes;  // (attribute, device) -> value; 9 unless set

// "dev1" for device 1's context, "none" for no context.
std::string describe(CUcontext context) {
  if (context == nullptr) return "none";
  return "dev" + std::to_string(reinterpret_cast<std::uintptr_t>(context) / 0x100 - 1);
}

CUresult CUDAAPI get_current(CUcontext* context) {
  *context = current_context;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI set_current(CUcontext context) {
  current_context = context;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI get_name(char* name, int length, CUdevice device) {
  const std::string text = "Fake GPU " + std::to_string(device);
  std::strncpy(name, text.c_str(), static_cast<std::size_t>(length));
  return CUDA_SUCCESS;
}

int ipc_attribute = 1;

CUresult CUDAAPI get_attribute(int* value, CUdevice_attribute attribute, CUdevice device) {
  const auto found = attributes.find({static_cast<int>(attribute), device});
  if (found != attributes.end()) {
    *value = found->second;
  } else if (attribute == CU_DEVICE_ATTRIBUTE_MAX_PITCH) {
    *value = max_pitch;
  } else if (attribute == CU_DEVICE_ATTRIBUTE_IPC_EVENT_SUPPORTED) {
    *value = ipc_attribute;
  } else {
    *value = 9;
  }
  return CUDA_SUCCESS;
}

// "dev 0x10020" or "host 0x..." (host pointers printed as offsets from `host_base`).
std::uintptr_t host_base = 0;

std::string side(CUmemorytype type, CUdeviceptr device, const void* host, std::size_t pitch) {
  std::ostringstream text;
  if (type == CU_MEMORYTYPE_DEVICE) {
    text << "dev=0x" << std::hex << device;
  } else if (type == CU_MEMORYTYPE_HOST) {
    text << "host+" << (reinterpret_cast<std::uintptr_t>(host) - host_base);
  } else {
    text << "type" << static_cast<int>(type);
  }
  text << std::dec << " pitch=" << pitch;
  return text.str();
}

CUresult CUDAAPI memcpy_2d(const CUDA_MEMCPY2D* copy, CUstream stream) {
  std::ostringstream line;
  line << "cuMemcpy2DAsync "
       << side(copy->dstMemoryType, copy->dstDevice, copy->dstHost, copy->dstPitch) << " <- "
       << side(copy->srcMemoryType, copy->srcDevice, copy->srcHost, copy->srcPitch)
       << " x=" << copy->srcXInBytes << "," << copy->dstXInBytes << " y=" << copy->srcY << ","
       << copy->dstY << " " << copy->WidthInBytes << "x" << copy->Height << " stream=0x" << std::hex
       << reinterpret_cast<std::uintptr_t>(stream) << " current=" << describe(current_context);
  recorded.push_back(line.str());
  return CUDA_SUCCESS;
}

// One end of a CUDA_MEMCPY3D that involves an array: "array=0xa100 x=12 y=0 z=2" or
// "host+16 pitch=64 height=1" (offsets in memory sides are printed when not 0).
std::string end_3d(CUmemorytype type, CUarray array, CUdeviceptr device, const void* host,
                   std::size_t pitch, std::size_t height, std::size_t x, std::size_t y,
                   std::size_t z) {
  std::ostringstream text;
  if (type == CU_MEMORYTYPE_ARRAY) {
    text << "array=0x" << std::hex << reinterpret_cast<std::uintptr_t>(array) << std::dec
         << " x=" << x << " y=" << y << " z=" << z;
  } else {
    text << side(type, device, host, pitch) << " height=" << height;
    if (x + y + z != 0) text << " x=" << x << " y=" << y << " z=" << z;
  }
  return text.str();
}

CUresult CUDAAPI memcpy_3d(const CUDA_MEMCPY3D* copy, CUstream stream) {
  std::ostringstream line;
  if (copy->srcMemoryType == CU_MEMORYTYPE_ARRAY || copy->dstMemoryType == CU_MEMORYTYPE_ARRAY) {
    line << "cuMemcpy3DAsync "
         << end_3d(copy->dstMemoryType, copy->dstArray, copy->dstDevice, copy->dstHost,
                   copy->dstPitch, copy->dstHeight, copy->dstXInBytes, copy->dstY, copy->dstZ)
         << " <- "
         << end_3d(copy->srcMemoryType, copy->srcArray, copy->srcDevice, copy->srcHost,
                   copy->srcPitch, copy->srcHeight, copy->srcXInBytes, copy->srcY, copy->srcZ)
         << " " << copy->WidthInBytes << "x" << copy->Height << "x" << copy->Depth << " stream=0x"
         << std::hex << reinterpret_cast<std::uintptr_t>(stream)
         << " current=" << describe(current_context);
    recorded.push_back(line.str());
    return CUDA_SUCCESS;
  }
  line << "cuMemcpy3DAsync "
       << side(copy->dstMemoryType, copy->dstDevice, copy->dstHost, copy->dstPitch)
       << " height=" << copy->dstHeight << " <- "
       << side(copy->srcMemoryType, copy->srcDevice, copy->srcHost, copy->srcPitch)
       << " height=" << copy->srcHeight << " xyz="
       << copy->srcXInBytes + copy->srcY + copy->srcZ + copy->dstXInBytes + copy->dstY +
              copy->dstZ + copy->srcLOD + copy->dstLOD
       << " " << copy->WidthInBytes << "x" << copy->Height << "x" << copy->Depth
       << " arrays=" << (copy->srcArray != nullptr || copy->dstArray != nullptr) << " stream=0x"
       << std::hex << reinterpret_cast<std::uintptr_t>(stream)
       << " current=" << describe(current_context);
  recorded.push_back(line.str());
  return CUDA_SUCCESS;
}

CUresult CUDAAPI memcpy_3d_peer(const CUDA_MEMCPY3D_PEER* copy, CUstream stream) {
  std::ostringstream line;
  line << "cuMemcpy3DPeerAsync "
       << side(copy->dstMemoryType, copy->dstDevice, copy->dstHost, copy->dstPitch)
       << " height=" << copy->dstHeight << " " << describe(copy->dstContext) << " <- "
       << side(copy->srcMemoryType, copy->srcDevice, copy->srcHost, copy->srcPitch)
       << " height=" << copy->srcHeight << " " << describe(copy->srcContext) << " "
       << copy->WidthInBytes << "x" << copy->Height << "x" << copy->Depth << " stream=0x"
       << std::hex << reinterpret_cast<std::uintptr_t>(stream)
       << " current=" << describe(current_context);
  recorded.push_back(line.str());
  return CUDA_SUCCESS;
}

CUresult CUDAAPI alloc_pitch(CUdeviceptr* pointer, size_t* pitch, size_t width, size_t height,
                             unsigned element_size) {
  recorded.push_back("cuMemAllocPitch " + std::to_string(width) + "x" + std::to_string(height) +
                     " element=" + std::to_string(element_size) +
                     " current=" + describe(current_context));
  *pointer = 0x70000;
  *pitch = (width + 511) / 512 * 512;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI mem_alloc(CUdeviceptr* pointer, size_t size) {
  recorded.push_back("cuMemAlloc size=" + std::to_string(size) +
                     " current=" + describe(current_context));
  *pointer = 0x80000;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI mem_free(CUdeviceptr pointer) {
  std::ostringstream line;
  line << "cuMemFree 0x" << std::hex << pointer;
  recorded.push_back(line.str());
  return CUDA_SUCCESS;
}

CUresult CUDAAPI synchronize_stream(CUstream stream) {
  std::ostringstream line;
  line << "cuStreamSynchronize 0x" << std::hex << reinterpret_cast<std::uintptr_t>(stream);
  recorded.push_back(line.str());
  return CUDA_SUCCESS;
}

std::string hex(std::uintptr_t value) {
  std::ostringstream text;
  text << "0x" << std::hex << value;
  return text.str();
}

// Interprocess memory: allocations are 64 KiB-aligned blocks of 64 KiB, a handle holds its
// base in its first 8 bytes, and a mapping lies at 0x900000 + base.
CUresult CUDAAPI get_address_range(CUdeviceptr* base, size_t* size, CUdeviceptr pointer) {
  recorded.push_back("cuMemGetAddressRange " + hex(pointer) +
                     " current=" + describe(current_context));
  *base = pointer & ~CUdeviceptr{0xffff};
  *size = 0x10000;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI ipc_get_mem_handle(CUipcMemHandle* handle, CUdeviceptr base) {
  recorded.push_back("cuIpcGetMemHandle " + hex(base) + " current=" + describe(current_context));
  *handle = CUipcMemHandle{};
  std::memcpy(handle->reserved, &base, sizeof(base));
  return CUDA_SUCCESS;
}

CUresult CUDAAPI ipc_open_mem_handle(CUdeviceptr* pointer, CUipcMemHandle handle, unsigned flags) {
  CUdeviceptr base = 0;
  std::memcpy(&base, handle.reserved, sizeof(base));
  recorded.push_back("cuIpcOpenMemHandle " + hex(base) + " flags=" + std::to_string(flags) +
                     " current=" + describe(current_context));
  if (base == 0) return CUDA_ERROR_INVALID_HANDLE;
  *pointer = 0x900000 + base;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI ipc_close_mem_handle(CUdeviceptr pointer) {
  recorded.push_back("cuIpcCloseMemHandle " + hex(pointer) +
                     " current=" + describe(current_context));
  return CUDA_SUCCESS;
}

// Events are numbered from 0x7000 on; a handle holds the event's number.
std::uintptr_t next_event = 0x7000;

CUresult CUDAAPI event_create(CUevent* event, unsigned flags) {
  *event = reinterpret_cast<CUevent>(next_event++);
  recorded.push_back("cuEventCreate " + hex(reinterpret_cast<std::uintptr_t>(*event)) +
                     " flags=" + std::to_string(flags) + " current=" + describe(current_context));
  return CUDA_SUCCESS;
}

CUresult CUDAAPI event_destroy(CUevent event) {
  recorded.push_back("cuEventDestroy " + hex(reinterpret_cast<std::uintptr_t>(event)));
  return CUDA_SUCCESS;
}

CUresult CUDAAPI event_record(CUevent event, CUstream stream) {
  recorded.push_back("cuEventRecord " + hex(reinterpret_cast<std::uintptr_t>(event)) +
                     " stream=" + hex(reinterpret_cast<std::uintptr_t>(stream)) +
                     " current=" + describe(current_context));
  return CUDA_SUCCESS;
}

CUresult CUDAAPI ipc_get_event_handle(CUipcEventHandle* handle, CUevent event) {
  recorded.push_back("cuIpcGetEventHandle " + hex(reinterpret_cast<std::uintptr_t>(event)) +
                     " current=" + describe(current_context));
  *handle = CUipcEventHandle{};
  const auto number = reinterpret_cast<std::uintptr_t>(event);
  std::memcpy(handle->reserved, &number, sizeof(number));
  return CUDA_SUCCESS;
}

CUresult CUDAAPI ipc_open_event_handle(CUevent* event, CUipcEventHandle handle) {
  std::uintptr_t number = 0;
  std::memcpy(&number, handle.reserved, sizeof(number));
  *event = reinterpret_cast<CUevent>(next_event++);
  recorded.push_back("cuIpcOpenEventHandle " + hex(number) + " as " +
                     hex(reinterpret_cast<std::uintptr_t>(*event)) +
                     " current=" + describe(current_context));
  return CUDA_SUCCESS;
}

std::string describe(CUmemLocation location) {
  if (location.type == CU_MEM_LOCATION_TYPE_HOST) return "host";
  if (location.type == CU_MEM_LOCATION_TYPE_DEVICE) return "device " + std::to_string(location.id);
  return "type " + std::to_string(static_cast<int>(location.type));
}

CUresult CUDAAPI alloc_managed(CUdeviceptr* pointer, size_t size, unsigned flags) {
  recorded.push_back("cuMemAllocManaged size=" + std::to_string(size) +
                     " flags=" + std::to_string(flags) + " current=" + describe(current_context));
  *pointer = 0x70000;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI prefetch(CUdeviceptr pointer, size_t size, CUmemLocation location, unsigned flags,
                          CUstream stream) {
  recorded.push_back("cuMemPrefetchAsync " + hex(pointer) + " size=" + std::to_string(size) +
                     " to=" + describe(location) + " flags=" + std::to_string(flags) +
                     " stream=" + hex(reinterpret_cast<std::uintptr_t>(stream)) +
                     " current=" + describe(current_context));
  return CUDA_SUCCESS;
}

CUresult CUDAAPI advise(CUdeviceptr pointer, size_t size, CUmem_advise advice,
                        CUmemLocation location) {
  recorded.push_back("cuMemAdvise " + hex(pointer) + " size=" + std::to_string(size) + " advice=" +
                     std::to_string(static_cast<int>(advice)) + " location=" + describe(location));
  return CUDA_SUCCESS;
}

CUresult CUDAAPI attach_memory(CUstream stream, CUdeviceptr pointer, size_t length,
                               unsigned flags) {
  recorded.push_back(
      "cuStreamAttachMemAsync stream=" + hex(reinterpret_cast<std::uintptr_t>(stream)) + " " +
      hex(pointer) + " length=" + std::to_string(length) + " flags=" + std::to_string(flags));
  return CUDA_SUCCESS;
}

CUresult CUDAAPI memory_info(size_t* free, size_t* total) {
  recorded.push_back("cuMemGetInfo current=" + describe(current_context));
  *free = std::size_t{3} << 30;
  *total = std::size_t{80} << 30;
  return CUDA_SUCCESS;
}

// Images: arrays are numbered from 0xa100 on (by 0x100), surface objects from 0x5100 and
// texture objects from 0x3100; each texture object's settings are kept for texture().
std::uintptr_t next_array = 0xa100;
unsigned long long next_surface = 0x5100;
unsigned long long next_texture = 0x3100;
std::map<unsigned long long, FakeDriver::Texture> textures;
// Surface and texture objects may be made on several threads at once (kernel_arg() of one
// image on two launching threads): their records are kept under this lock, after the delay.
std::mutex objects_mutex;
std::chrono::milliseconds object_create_delay{0};

// "u8" for CU_AD_FORMAT_UNSIGNED_INT8, "half", "float"...
std::string array_format(CUarray_format format) {
  switch (format) {
    case CU_AD_FORMAT_UNSIGNED_INT8: return "u8";
    case CU_AD_FORMAT_UNSIGNED_INT16: return "u16";
    case CU_AD_FORMAT_UNSIGNED_INT32: return "u32";
    case CU_AD_FORMAT_SIGNED_INT8: return "s8";
    case CU_AD_FORMAT_SIGNED_INT16: return "s16";
    case CU_AD_FORMAT_SIGNED_INT32: return "s32";
    case CU_AD_FORMAT_HALF: return "half";
    case CU_AD_FORMAT_FLOAT: return "float";
    default: return "format" + std::to_string(static_cast<int>(format));
  }
}

CUresult CUDAAPI array_3d_create(CUarray* array, const CUDA_ARRAY3D_DESCRIPTOR* desc) {
  *array = reinterpret_cast<CUarray>(next_array);
  next_array += 0x100;
  std::ostringstream line;
  line << "cuArray3DCreate " << hex(reinterpret_cast<std::uintptr_t>(*array)) << " " << desc->Width
       << "x" << desc->Height << "x" << desc->Depth << " " << array_format(desc->Format) << "x"
       << desc->NumChannels
       << " flags=" << ((desc->Flags & CUDA_ARRAY3D_LAYERED) != 0 ? "layered|" : "")
       << ((desc->Flags & CUDA_ARRAY3D_SURFACE_LDST) != 0 ? "surface_ldst" : "")
       << ((desc->Flags & ~unsigned{CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_SURFACE_LDST}) != 0
               ? "|others"
               : "")
       << " current=" << describe(current_context);
  recorded.push_back(line.str());
  return CUDA_SUCCESS;
}

CUresult CUDAAPI array_destroy(CUarray array) {
  recorded.push_back("cuArrayDestroy " + hex(reinterpret_cast<std::uintptr_t>(array)) +
                     " current=" + describe(current_context));
  return CUDA_SUCCESS;
}

// "array 0xa100", or what else the resource is.
std::string resource(const CUDA_RESOURCE_DESC* desc) {
  if (desc->resType != CU_RESOURCE_TYPE_ARRAY || desc->flags != 0)
    return "resource type " + std::to_string(static_cast<int>(desc->resType));
  return "array " + hex(reinterpret_cast<std::uintptr_t>(desc->res.array.hArray));
}

CUresult CUDAAPI surface_create(CUsurfObject* surface, const CUDA_RESOURCE_DESC* desc) {
  std::this_thread::sleep_for(object_create_delay);
  const std::lock_guard lock(objects_mutex);
  *surface = next_surface++;
  recorded.push_back("cuSurfObjectCreate " + hex(*surface) + " " + resource(desc) +
                     " current=" + describe(current_context));
  return CUDA_SUCCESS;
}

CUresult CUDAAPI surface_destroy(CUsurfObject surface) {
  recorded.push_back("cuSurfObjectDestroy " + hex(surface) +
                     " current=" + describe(current_context));
  return CUDA_SUCCESS;
}

CUresult CUDAAPI texture_create(CUtexObject* texture, const CUDA_RESOURCE_DESC* desc,
                                const CUDA_TEXTURE_DESC* settings,
                                const CUDA_RESOURCE_VIEW_DESC* view) {
  std::this_thread::sleep_for(object_create_delay);
  const std::lock_guard lock(objects_mutex);
  *texture = next_texture++;
  textures[*texture] = {desc->res.array.hArray, *settings, view != nullptr};
  recorded.push_back("cuTexObjectCreate " + hex(*texture) + " " + resource(desc) +
                     " current=" + describe(current_context));
  return CUDA_SUCCESS;
}

CUresult CUDAAPI texture_destroy(CUtexObject texture) {
  recorded.push_back("cuTexObjectDestroy " + hex(texture) +
                     " current=" + describe(current_context));
  return CUDA_SUCCESS;
}

// OpenGL interop: resources numbered from 0x6100 (by 0x100), each registered or mapped or
// not; a call named in `failures` fails once with the result given.
std::uintptr_t next_resource = 0x6100;
std::map<std::uintptr_t, bool> gl_resources;  // registered resource -> mapped
std::size_t gl_buffer_size = 4096;
std::vector<CUdevice> gl_devices{0};
CUresult gl_devices_result = CUDA_SUCCESS;
std::map<std::string, CUresult> failures;

// The failure set for `function`, once; CUDA_SUCCESS if none.
CUresult failure_of(const std::string& function) {
  const auto found = failures.find(function);
  if (found == failures.end()) return CUDA_SUCCESS;
  const CUresult result = found->second;
  failures.erase(found);
  return result;
}

// "read_only", "write_discard|surface_ldst", "none".
std::string register_flags(unsigned flags) {
  std::string text;
  const auto add = [&](unsigned flag, const char* name) {
    if ((flags & flag) == 0) return;
    text += (text.empty() ? "" : "|") + std::string(name);
    flags &= ~flag;
  };
  add(CU_GRAPHICS_REGISTER_FLAGS_READ_ONLY, "read_only");
  add(CU_GRAPHICS_REGISTER_FLAGS_WRITE_DISCARD, "write_discard");
  add(CU_GRAPHICS_REGISTER_FLAGS_SURFACE_LDST, "surface_ldst");
  add(CU_GRAPHICS_REGISTER_FLAGS_TEXTURE_GATHER, "texture_gather");
  if (flags != 0) text += (text.empty() ? "" : "|") + std::string("others");
  return text.empty() ? "none" : text;
}

CUresult CUDAAPI gl_register_buffer(CUgraphicsResource* resource, unsigned buffer, unsigned flags) {
  const std::string line = "cuGraphicsGLRegisterBuffer buffer=" + std::to_string(buffer) +
                           " flags=" + register_flags(flags) +
                           " current=" + describe(current_context);
  if (const CUresult result = failure_of("cuGraphicsGLRegisterBuffer"); result != CUDA_SUCCESS) {
    recorded.push_back(line + " failed");
    return result;
  }
  *resource = reinterpret_cast<CUgraphicsResource>(next_resource);
  gl_resources[next_resource] = false;
  recorded.push_back(line + " -> " + hex(next_resource));
  next_resource += 0x100;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI gl_register_image(CUgraphicsResource* resource, unsigned image, unsigned target,
                                   unsigned flags) {
  const std::string line = "cuGraphicsGLRegisterImage image=" + std::to_string(image) +
                           " target=" + hex(target) + " flags=" + register_flags(flags) +
                           " current=" + describe(current_context);
  if (const CUresult result = failure_of("cuGraphicsGLRegisterImage"); result != CUDA_SUCCESS) {
    recorded.push_back(line + " failed");
    return result;
  }
  *resource = reinterpret_cast<CUgraphicsResource>(next_resource);
  gl_resources[next_resource] = false;
  recorded.push_back(line + " -> " + hex(next_resource));
  next_resource += 0x100;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI gl_unregister(CUgraphicsResource resource) {
  const auto number = reinterpret_cast<std::uintptr_t>(resource);
  recorded.push_back("cuGraphicsUnregisterResource " + hex(number) +
                     " current=" + describe(current_context));
  return gl_resources.erase(number) == 1 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

// "0x6100" or "0x6100,0x6200".
std::string resource_list(unsigned count, const CUgraphicsResource* resources) {
  std::string text;
  for (unsigned i = 0; i < count; ++i)
    text += (i == 0 ? "" : ",") + hex(reinterpret_cast<std::uintptr_t>(resources[i]));
  return text;
}

CUresult CUDAAPI gl_map(unsigned count, CUgraphicsResource* resources, CUstream stream) {
  recorded.push_back("cuGraphicsMapResources " + resource_list(count, resources) +
                     " stream=" + hex(reinterpret_cast<std::uintptr_t>(stream)) +
                     " current=" + describe(current_context));
  if (const CUresult result = failure_of("cuGraphicsMapResources"); result != CUDA_SUCCESS)
    return result;
  for (unsigned i = 0; i < count; ++i) {
    const auto found = gl_resources.find(reinterpret_cast<std::uintptr_t>(resources[i]));
    if (found == gl_resources.end()) return CUDA_ERROR_INVALID_HANDLE;
    if (found->second) return CUDA_ERROR_ALREADY_MAPPED;
  }
  for (unsigned i = 0; i < count; ++i)
    gl_resources[reinterpret_cast<std::uintptr_t>(resources[i])] = true;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI gl_unmap(unsigned count, CUgraphicsResource* resources, CUstream stream) {
  recorded.push_back("cuGraphicsUnmapResources " + resource_list(count, resources) +
                     " stream=" + hex(reinterpret_cast<std::uintptr_t>(stream)) +
                     " current=" + describe(current_context));
  if (const CUresult result = failure_of("cuGraphicsUnmapResources"); result != CUDA_SUCCESS)
    return result;
  for (unsigned i = 0; i < count; ++i) {
    const auto found = gl_resources.find(reinterpret_cast<std::uintptr_t>(resources[i]));
    if (found == gl_resources.end()) return CUDA_ERROR_INVALID_HANDLE;
    if (!found->second) return CUDA_ERROR_NOT_MAPPED;
  }
  for (unsigned i = 0; i < count; ++i)
    gl_resources[reinterpret_cast<std::uintptr_t>(resources[i])] = false;
  return CUDA_SUCCESS;
}

// CUDA_SUCCESS where `resource` is registered and mapped.
CUresult mapped_state(CUgraphicsResource resource) {
  const auto found = gl_resources.find(reinterpret_cast<std::uintptr_t>(resource));
  if (found == gl_resources.end()) return CUDA_ERROR_INVALID_HANDLE;
  return found->second ? CUDA_SUCCESS : CUDA_ERROR_NOT_MAPPED;
}

CUresult CUDAAPI gl_mapped_pointer(CUdeviceptr* pointer, size_t* size,
                                   CUgraphicsResource resource) {
  const auto number = reinterpret_cast<std::uintptr_t>(resource);
  recorded.push_back("cuGraphicsResourceGetMappedPointer " + hex(number) +
                     " current=" + describe(current_context));
  if (const CUresult result = failure_of("cuGraphicsResourceGetMappedPointer");
      result != CUDA_SUCCESS)
    return result;
  if (const CUresult result = mapped_state(resource); result != CUDA_SUCCESS) return result;
  *pointer = 0xc00000 + number;
  *size = gl_buffer_size;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI gl_mapped_array(CUarray* array, CUgraphicsResource resource, unsigned index,
                                 unsigned level) {
  const auto number = reinterpret_cast<std::uintptr_t>(resource);
  recorded.push_back("cuGraphicsSubResourceGetMappedArray " + hex(number) +
                     " index=" + std::to_string(index) + " level=" + std::to_string(level) +
                     " current=" + describe(current_context));
  if (const CUresult result = failure_of("cuGraphicsSubResourceGetMappedArray");
      result != CUDA_SUCCESS)
    return result;
  if (const CUresult result = mapped_state(resource); result != CUDA_SUCCESS) return result;
  *array = reinterpret_cast<CUarray>(0x100000 + number + level);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI gl_mapped_mipmapped(CUmipmappedArray* levels, CUgraphicsResource resource) {
  const auto number = reinterpret_cast<std::uintptr_t>(resource);
  recorded.push_back("cuGraphicsResourceGetMappedMipmappedArray " + hex(number) +
                     " current=" + describe(current_context));
  if (const CUresult result = mapped_state(resource); result != CUDA_SUCCESS) return result;
  *levels = reinterpret_cast<CUmipmappedArray>(0x200000 + number);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI mipmapped_level(CUarray* array, CUmipmappedArray levels, unsigned level) {
  const auto number = reinterpret_cast<std::uintptr_t>(levels);
  recorded.push_back("cuMipmappedArrayGetLevel " + hex(number) + " level=" + std::to_string(level) +
                     " current=" + describe(current_context));
  *array = reinterpret_cast<CUarray>(number + level);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI gl_get_devices(unsigned* count, CUdevice* devices, unsigned capacity,
                                gl::DeviceList list) {
  recorded.push_back("cuGLGetDevices_v2 capacity=" + std::to_string(capacity) +
                     " list=" + std::to_string(static_cast<unsigned>(list)));
  if (gl_devices_result != CUDA_SUCCESS) return gl_devices_result;
  *count = static_cast<unsigned>(gl_devices.size());
  for (std::size_t i = 0; i < gl_devices.size() && i < capacity; ++i) devices[i] = gl_devices[i];
  return CUDA_SUCCESS;
}

// The names of the results the graphics functions' tests meet; others are unnamed.
CUresult CUDAAPI error_name(CUresult result, const char** name) {
  switch (result) {
    case CUDA_ERROR_INVALID_VALUE: *name = "CUDA_ERROR_INVALID_VALUE"; break;
    case CUDA_ERROR_NO_DEVICE: *name = "CUDA_ERROR_NO_DEVICE"; break;
    case CUDA_ERROR_INVALID_GRAPHICS_CONTEXT: *name = "CUDA_ERROR_INVALID_GRAPHICS_CONTEXT"; break;
    case CUDA_ERROR_OPERATING_SYSTEM: *name = "CUDA_ERROR_OPERATING_SYSTEM"; break;
    case CUDA_ERROR_INVALID_HANDLE: *name = "CUDA_ERROR_INVALID_HANDLE"; break;
    case CUDA_ERROR_ALREADY_MAPPED: *name = "CUDA_ERROR_ALREADY_MAPPED"; break;
    case CUDA_ERROR_NOT_MAPPED: *name = "CUDA_ERROR_NOT_MAPPED"; break;
    case CUDA_ERROR_UNKNOWN: *name = "CUDA_ERROR_UNKNOWN"; break;
    default: return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}

CUresult CUDAAPI primary_retain(CUcontext* context, CUdevice device) {
  recorded.push_back("cuDevicePrimaryCtxRetain " + std::to_string(device));
  *context = FakeDriver::context(device);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI primary_release(CUdevice /*device*/) { return CUDA_SUCCESS; }

CUresult CUDAAPI can_access_peer(int* can, CUdevice from, CUdevice to) {
  recorded.push_back("cuDeviceCanAccessPeer " + std::to_string(from) + "->" + std::to_string(to));
  *can = can_access.at(static_cast<std::size_t>(from)).at(static_cast<std::size_t>(to)) ? 1 : 0;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI enable_peer_access(CUcontext peer, unsigned flags) {
  recorded.push_back("cuCtxEnablePeerAccess current=" + describe(current_context) +
                     " peer=" + describe(peer) + " flags=" + std::to_string(flags));
  const CUresult result = next_enable;
  next_enable = CUDA_SUCCESS;
  return result;
}

CUresult CUDAAPI memcpy_peer(CUdeviceptr dst, CUcontext dst_context, CUdeviceptr src,
                             CUcontext src_context, size_t size, CUstream stream) {
  std::ostringstream line;
  line << "cuMemcpyPeerAsync dst=0x" << std::hex << dst << " " << describe(dst_context) << " src=0x"
       << src << " " << describe(src_context) << std::dec << " size=" << size << " stream=0x"
       << std::hex << reinterpret_cast<std::uintptr_t>(stream)
       << " current=" << describe(current_context);
  recorded.push_back(line.str());
  return CUDA_SUCCESS;
}

template <class T>
CUresult memset_line(const char* name, CUdeviceptr at, T value, size_t count, CUstream stream) {
  std::ostringstream line;
  line << name << " 0x" << std::hex << at << " value=0x" << static_cast<unsigned long>(value)
       << std::dec << " count=" << count << " stream=0x" << std::hex
       << reinterpret_cast<std::uintptr_t>(stream) << " current=" << describe(current_context);
  recorded.push_back(line.str());
  return CUDA_SUCCESS;
}

CUresult CUDAAPI memset_d8(CUdeviceptr at, unsigned char value, size_t count, CUstream stream) {
  return memset_line("cuMemsetD8Async", at, value, count, stream);
}
CUresult CUDAAPI memset_d16(CUdeviceptr at, unsigned short value, size_t count, CUstream stream) {
  return memset_line("cuMemsetD16Async", at, value, count, stream);
}
CUresult CUDAAPI memset_d32(CUdeviceptr at, unsigned int value, size_t count, CUstream stream) {
  return memset_line("cuMemsetD32Async", at, value, count, stream);
}

}  // namespace

FakeDriver::FakeDriver() {
  saved = detail::loaded_driver;
  recorded.clear();
  current_context = nullptr;
  for (auto& row : can_access) row.fill(true);
  next_enable = CUDA_SUCCESS;
  max_pitch = 1 << 20;
  host_base = 0;
  attributes.clear();
  ipc_attribute = 1;
  next_event = 0x7000;
  next_array = 0xa100;
  next_surface = 0x5100;
  next_texture = 0x3100;
  textures.clear();
  object_create_delay = std::chrono::milliseconds{0};
  next_resource = 0x6100;
  gl_resources.clear();
  gl_buffer_size = 4096;
  gl_devices = {0};
  gl_devices_result = CUDA_SUCCESS;
  failures.clear();
  Driver& table = detail::loaded_driver;
  table = Driver{};
  table.cuCtxGetCurrent = &get_current;
  table.cuCtxSetCurrent = &set_current;
  table.cuDeviceGetName = &get_name;
  table.cuDeviceGetAttribute = &get_attribute;
  table.cuDevicePrimaryCtxRelease = &primary_release;
  table.cuDeviceCanAccessPeer = &can_access_peer;
  table.cuCtxEnablePeerAccess = &enable_peer_access;
  table.cuMemcpyPeerAsync = &memcpy_peer;
  table.cuMemcpy2DAsync = &memcpy_2d;
  table.cuMemcpy3DAsync = &memcpy_3d;
  table.cuMemcpy3DPeerAsync = &memcpy_3d_peer;
  table.cuMemAllocPitch = &alloc_pitch;
  table.cuMemAlloc = &mem_alloc;
  table.cuMemFree = &mem_free;
  table.cuStreamSynchronize = &synchronize_stream;
  table.cuMemAllocManaged = &alloc_managed;
  table.cuMemPrefetchAsync = &prefetch;
  table.cuMemAdvise = &advise;
  table.cuStreamAttachMemAsync = &attach_memory;
  table.cuMemGetInfo = &memory_info;
  table.cuMemsetD8Async = &memset_d8;
  table.cuMemsetD16Async = &memset_d16;
  table.cuMemsetD32Async = &memset_d32;
  table.cuMemGetAddressRange = &get_address_range;
  table.cuIpcGetMemHandle = &ipc_get_mem_handle;
  table.cuIpcOpenMemHandle = &ipc_open_mem_handle;
  table.cuIpcCloseMemHandle = &ipc_close_mem_handle;
  table.cuEventCreate = &event_create;
  table.cuEventDestroy = &event_destroy;
  table.cuEventRecord = &event_record;
  table.cuIpcGetEventHandle = &ipc_get_event_handle;
  table.cuIpcOpenEventHandle = &ipc_open_event_handle;
  table.cuArray3DCreate = &array_3d_create;
  table.cuArrayDestroy = &array_destroy;
  table.cuSurfObjectCreate = &surface_create;
  table.cuSurfObjectDestroy = &surface_destroy;
  table.cuTexObjectCreate = &texture_create;
  table.cuTexObjectDestroy = &texture_destroy;
  table.cuDevicePrimaryCtxRetain = &primary_retain;
  table.cuGetErrorName = &error_name;
  table.cuGraphicsGLRegisterBuffer = &gl_register_buffer;
  table.cuGraphicsGLRegisterImage = &gl_register_image;
  table.cuGraphicsUnregisterResource = &gl_unregister;
  table.cuGraphicsMapResources = &gl_map;
  table.cuGraphicsUnmapResources = &gl_unmap;
  table.cuGraphicsResourceGetMappedPointer = &gl_mapped_pointer;
  table.cuGraphicsSubResourceGetMappedArray = &gl_mapped_array;
  table.cuGraphicsResourceGetMappedMipmappedArray = &gl_mapped_mipmapped;
  table.cuMipmappedArrayGetLevel = &mipmapped_level;
  table.cuGLGetDevices_v2 = &gl_get_devices;
}

FakeDriver::~FakeDriver() { detail::loaded_driver = saved; }

CUcontext FakeDriver::context(CUdevice device) {
  return reinterpret_cast<CUcontext>(std::uintptr_t{0x100} *
                                     static_cast<std::uintptr_t>(device + 1));
}

std::vector<std::string>& FakeDriver::calls() { return recorded; }

CUcontext FakeDriver::current() { return current_context; }

void FakeDriver::set_can_access(CUdevice from, CUdevice to, bool can) {
  can_access.at(static_cast<std::size_t>(from)).at(static_cast<std::size_t>(to)) = can;
}

void FakeDriver::set_next_enable_result(CUresult result) { next_enable = result; }

void FakeDriver::set_max_pitch(int pitch) { max_pitch = pitch; }

void FakeDriver::set_host_base(const void* base) {
  host_base = reinterpret_cast<std::uintptr_t>(base);
}

void FakeDriver::set_ipc_supported(bool supported) { ipc_attribute = supported ? 1 : 0; }

void FakeDriver::set_object_create_delay(std::chrono::milliseconds delay) {
  object_create_delay = delay;
}

void FakeDriver::set_attribute(CUdevice_attribute attribute, CUdevice device, int value) {
  attributes[{static_cast<int>(attribute), device}] = value;
}

const FakeDriver::Texture* FakeDriver::texture(unsigned long long object) {
  const auto found = textures.find(object);
  return found != textures.end() ? &found->second : nullptr;
}

void FakeDriver::set_gl_buffer_size(std::size_t size) { gl_buffer_size = size; }

void FakeDriver::set_gl_devices(std::vector<CUdevice> devices, CUresult result) {
  gl_devices = std::move(devices);
  gl_devices_result = result;
}

void FakeDriver::fail_next(const std::string& function, CUresult result) {
  failures[function] = result;
}

void FakeDriver::remove_gl_functions() {
  Driver& table = detail::loaded_driver;
  table.cuGraphicsGLRegisterBuffer = nullptr;
  table.cuGraphicsGLRegisterImage = nullptr;
  table.cuGLGetDevices_v2 = nullptr;
  table.cuGraphicsSubResourceGetMappedArray = nullptr;
}

bool FakeDriver::gl_mapped(CUgraphicsResource resource) {
  const auto found = gl_resources.find(reinterpret_cast<std::uintptr_t>(resource));
  return found != gl_resources.end() && found->second;
}

std::size_t FakeDriver::gl_registered() { return gl_resources.size(); }

}  // namespace plinth::cuda::test
