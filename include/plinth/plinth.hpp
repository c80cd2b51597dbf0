#pragma once

/// Everything in plinth's public API.

#include <plinth/allocator.hpp>
#include <plinth/api.hpp>
#include <plinth/array.hpp>
#include <plinth/array_metadata.hpp>
#include <plinth/buffer.hpp>
#include <plinth/compile.hpp>
#include <plinth/context.hpp>
#include <plinth/device.hpp>
#include <plinth/device_parameters.hpp>
#include <plinth/dtype.hpp>
#include <plinth/dtype_c.hpp>
#include <plinth/errors.hpp>
#include <plinth/event.hpp>
#include <plinth/functions.hpp>
#include <plinth/host_array.hpp>
#include <plinth/kernel_arg.hpp>
#include <plinth/module.hpp>
#include <plinth/multi_array.hpp>
#include <plinth/page_locked.hpp>
#include <plinth/per_device.hpp>
#include <plinth/platform.hpp>
#include <plinth/plugins.hpp>
#include <plinth/printable.hpp>
#include <plinth/program.hpp>
#include <plinth/program_cache.hpp>
#include <plinth/queue.hpp>
#include <plinth/render.hpp>
#include <plinth/selection.hpp>
#include <plinth/splay.hpp>
#include <plinth/static_kernel.hpp>
#include <plinth/template.hpp>
#include <plinth/version.hpp>
#include <plinth/virtual_alloc.hpp>
#include <plinth/virtual_size.hpp>
