#pragma once

/// Everything in plinth's public API.

#include <plinth/api.hpp>
#include <plinth/buffer.hpp>
#include <plinth/context.hpp>
#include <plinth/device.hpp>
#include <plinth/device_parameters.hpp>
#include <plinth/errors.hpp>
#include <plinth/event.hpp>
#include <plinth/kernel_arg.hpp>
#include <plinth/platform.hpp>
#include <plinth/plugins.hpp>
#include <plinth/program.hpp>
#include <plinth/queue.hpp>
#include <plinth/selection.hpp>
#include <plinth/version.hpp>
