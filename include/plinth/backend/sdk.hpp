#pragma once

/// The plugin SDK: everything a backend plugin implements and exports.
/// Read docs/plugin-interface.md first (discovery, versions, requirements, ownership, threads
/// and errors); the contract of each adapter method is the comment above it in its header.

#include <plinth/backend/api.hpp>
#include <plinth/backend/binary_image.hpp>
#include <plinth/backend/blas_library.hpp>
#include <plinth/backend/buffer.hpp>
#include <plinth/backend/check.hpp>
#include <plinth/backend/communicator.hpp>
#include <plinth/backend/context.hpp>
#include <plinth/backend/device.hpp>
#include <plinth/backend/dialect.hpp>
#include <plinth/backend/event.hpp>
#include <plinth/backend/gl_interop.hpp>
#include <plinth/backend/gpu_image.hpp>
#include <plinth/backend/host_ranges.hpp>
#include <plinth/backend/image.hpp>
#include <plinth/backend/kernel.hpp>
#include <plinth/backend/platform.hpp>
#include <plinth/backend/plugin.hpp>
#include <plinth/backend/program.hpp>
#include <plinth/backend/queue.hpp>
#include <plinth/backend/rect_copy.hpp>
#include <plinth/backend/staging.hpp>
#include <plinth/backend/types.hpp>
#include <plinth/backend/vendor_library.hpp>
#include <plinth/backend/word_fill.hpp>
#include <plinth/errors.hpp>
