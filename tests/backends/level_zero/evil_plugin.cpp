// A stand-in for a hostile compiler plugin (tests/backends/level_zero/compiler_test.cpp): when
// a program loads it (clang's -fplugin= or -Xclang -load), its constructor creates the file that
// PLINTH_TEST_EVIL_PLUGIN_MARKER names, so a test can tell that it ran.

#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>

namespace evil_plugin {
namespace {

__attribute__((constructor)) void plinth_test_evil_plugin_loaded() {
  const char* marker = std::getenv("PLINTH_TEST_EVIL_PLUGIN_MARKER");
  if (marker == nullptr) return;
  const int fd = ::open(marker, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
  if (fd >= 0) ::close(fd);
}

}  // namespace
}  // namespace evil_plugin
