#pragma once

// The HIP runtime library the plugin is linked with, as a dlopen handle, for the functions the
// plugin looks up by name rather than importing (image.cpp's surface objects, whose names
// differ between HIP versions; gl_interop.cpp's GL functions, whose symbol versions are newer
// than the rest the plugin imports).

namespace plinth::hip {

/// The handle of the library that holds hipCreateTextureObject (found with dladdr, opened
/// with RTLD_NOLOAD and kept for the process), or null where it cannot be found. Any thread.
void* runtime_library() noexcept;

}  // namespace plinth::hip
