// SDK 1.9's OpenGL interop of the OpenCL plugin (backends/opencl/gl_interop.hpp) on the
// machine's OpenCL platforms, through the plugin's factory as the core loads it. No GL context
// is made: a platform without cl_khr_gl_sharing (PoCL) refuses create_gl_context() before it
// looks at the handles, null handles are refused everywhere, and an ordinary context says why
// it cannot share and refuses to register GL objects. Sharing itself runs on the GPU machine,
// through the core (tests/gl).

#include <plinth/backend/api.hpp>
#include <plinth/backend/context.hpp>
#include <plinth/backend/device.hpp>
#include <plinth/backend/platform.hpp>
#include <plinth/backend/plugin.hpp>
#include <plinth/errors.hpp>

#include <CL/cl.h>
#include <dlfcn.h>

#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#define PLINTH_TEST_STRINGIFY(x) #x
#define PLINTH_TEST_STRING(x) PLINTH_TEST_STRINGIFY(x)

namespace plinth::opencl {
namespace gl_interop_plugin_test {
namespace {

// The factory's exported name: plinth_backend__opencl__abi_<major>_<minor>.
constexpr const char* factory_symbol =
    PLINTH_TEST_STRING(PLINTH_DETAIL_BACKEND_SYMBOL(opencl, PLINTH_ABI_MAJOR, PLINTH_ABI_MINOR));

// The plugin (PLINTH_OPENCL_PLUGIN, the build's file), opened once and kept open to the end
// of the process, and its initialised API adapter. Throws std::runtime_error if it cannot be.
backend::ApiAdapter& api() {
  static const std::unique_ptr<backend::ApiAdapter> adapter = [] {
    void* library = ::dlopen(PLINTH_OPENCL_PLUGIN, RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) throw std::runtime_error(::dlerror());
    // The exported name holds the factory's address (BOOST_DLL_ALIAS).
    const auto* alias = static_cast<const void* const*>(::dlsym(library, factory_symbol));
    if (alias == nullptr || *alias == nullptr)
      throw std::runtime_error(std::string("the plugin exports no ") + factory_symbol);
    auto factory = reinterpret_cast<backend::PluginFactory*>(const_cast<void*>(*alias));
    auto made = factory();
    made->initialize();
    return made;
  }();
  return *adapter;
}

// A platform of the plugin with its devices, and whether they all list cl_khr_gl_sharing.
struct PlatformDevices {
  std::string name;
  std::vector<std::unique_ptr<backend::DeviceAdapter>> owned;
  std::vector<const backend::DeviceAdapter*> devices;
  bool gl_sharing = true;
};

// Whether the cl_device_id behind `device` lists `extension` in CL_DEVICE_EXTENSIONS, read
// here rather than through the plugin.
bool lists_extension(const backend::DeviceAdapter& device, const std::string& extension) {
  const auto id = reinterpret_cast<cl_device_id>(device.native_handle());
  std::size_t size = 0;
  if (clGetDeviceInfo(id, CL_DEVICE_EXTENSIONS, 0, nullptr, &size) != CL_SUCCESS) return false;
  std::string extensions(size, '\0');
  if (clGetDeviceInfo(id, CL_DEVICE_EXTENSIONS, size, extensions.data(), nullptr) != CL_SUCCESS)
    return false;
  extensions = " " + std::string(extensions.c_str()) + " ";
  return extensions.find(" " + extension + " ") != std::string::npos;
}

// The plugin's platforms that have devices.
std::vector<PlatformDevices> platforms() {
  std::vector<PlatformDevices> result;
  for (std::size_t p = 0; p < api().platform_count(); ++p) {
    const auto platform = api().platform(p);
    PlatformDevices entry;
    entry.name = platform->name();
    for (std::size_t d = 0; d < platform->device_count(); ++d) {
      entry.owned.push_back(platform->device(d));
      entry.devices.push_back(entry.owned.back().get());
      entry.gl_sharing =
          entry.gl_sharing && lists_extension(*entry.owned.back(), "cl_khr_gl_sharing");
    }
    if (!entry.devices.empty()) result.push_back(std::move(entry));
  }
  return result;
}

// Handles that are not null and not a GL context's: only ever passed where the plugin must
// refuse before it uses them.
int not_a_display = 0;
int not_a_context = 0;

// What create_gl_context() throws as a LogicError's message; fails the test if it returns or
// throws anything else.
std::string refusal(const PlatformDevices& platform, const GlContext& gl) {
  try {
    api().create_gl_context(platform.devices, gl);
  } catch (const LogicError& error) {
    return error.what();
  } catch (const std::exception& error) {
    ADD_FAILURE() << "not a LogicError: " << error.what();
    return {};
  }
  ADD_FAILURE() << "platform '" << platform.name << "' made a context with a GL context";
  return {};
}

TEST(OpenClGlInterop, NullHandlesAreRefusedOnEveryPlatform) {
  const auto all = platforms();
  if (all.empty()) GTEST_SKIP() << "no OpenCL platform with devices";
  for (const auto& platform : all) {
    for (const auto system : {GlWindowSystem::egl, GlWindowSystem::glx}) {
      const bool egl = system == GlWindowSystem::egl;
      const auto no_display = refusal(platform, {system, nullptr, &not_a_context});
      EXPECT_NE(no_display.find(egl ? "null EGLDisplay" : "null X11 Display*"), std::string::npos)
          << no_display;
      const auto no_context = refusal(platform, {system, &not_a_display, nullptr});
      EXPECT_NE(no_context.find(egl ? "null EGLContext" : "null GLXContext"), std::string::npos)
          << no_context;
    }
  }
}

TEST(OpenClGlInterop, PlatformWithoutGlSharingRefusesAGlContext) {
  bool tested = false;
  for (const auto& platform : platforms()) {
    if (platform.gl_sharing) continue;
    tested = true;
    for (const auto system : {GlWindowSystem::egl, GlWindowSystem::glx}) {
      const auto message = refusal(platform, {system, &not_a_display, &not_a_context});
      EXPECT_NE(message.find("cl_khr_gl_sharing"), std::string::npos) << message;
      EXPECT_NE(message.find("'" + platform.name + "'"), std::string::npos) << message;
    }
  }
  if (!tested) GTEST_SKIP() << "every OpenCL platform here has cl_khr_gl_sharing";
}

TEST(OpenClGlInterop, OrdinaryContextSaysWhyItCannotShare) {
  const auto all = platforms();
  if (all.empty()) GTEST_SKIP() << "no OpenCL platform with devices";
  for (const auto& platform : all) {
    const auto context = api().create_context(platform.devices);
    for (std::size_t d = 0; d < platform.devices.size(); ++d) {
      const auto sharing = context->gl_sharing(d);
      EXPECT_FALSE(sharing.available) << platform.name << ", device " << d;
      if (platform.gl_sharing) {
        EXPECT_EQ(sharing.reason,
                  "this OpenCL context was not made with a GL context: make it with "
                  "make_gl_context()");
      } else {
        EXPECT_NE(sharing.reason.find("cl_khr_gl_sharing"), std::string::npos) << sharing.reason;
        EXPECT_NE(sharing.reason.find("'" + platform.name + "'"), std::string::npos)
            << sharing.reason;
      }
    }
  }
}

TEST(OpenClGlInterop, OrdinaryContextRefusesToRegisterGlObjects) {
  const auto all = platforms();
  if (all.empty()) GTEST_SKIP() << "no OpenCL platform with devices";
  GlTextureDesc texture;
  texture.name = 1;
  texture.target = 0x0DE1;           // GL_TEXTURE_2D
  texture.internal_format = 0x8058;  // GL_RGBA8
  texture.format = ImageFormat{ChannelOrder::rgba, ChannelType::unorm_int8};
  texture.extent = {4, 4, 1};
  for (const auto& platform : all) {
    const auto context = api().create_context(platform.devices);
    for (std::size_t d = 0; d < platform.devices.size(); ++d) {
      const auto reason = context->gl_sharing(d).reason;
      try {
        context->register_gl_buffer(d, 1, GlAccess::read_write);
        ADD_FAILURE() << "register_gl_buffer did not throw on " << platform.name;
      } catch (const LogicError& error) {
        EXPECT_NE(std::string(error.what()).find(reason), std::string::npos) << error.what();
      }
      EXPECT_THROW(context->register_gl_texture(d, texture, GlAccess::write_only), LogicError);
    }
  }
}

}  // namespace
}  // namespace gl_interop_plugin_test
}  // namespace plinth::opencl
