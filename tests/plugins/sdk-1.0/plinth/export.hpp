#pragma once

/// Marks a symbol of libplinth that users and plugins may use; everything else is hidden.
#define PLINTH_EXPORT __attribute__((visibility("default")))
