#pragma once

// The one thing a backend plugin exports: its factory, under a name that carries the plugin's
// metadata (kind, shortcut, SDK ABI version) so that the core can read it from the file's
// dynamic symbol table without loading the file (core/plugins/elf_symbols.cpp).

#include <plinth/backend/abi_version.hpp>
#include <plinth/backend/api.hpp>

#include <boost/dll/alias.hpp>

#include <memory>

namespace plinth::backend {

/// The signature of a backend plugin's factory. It only constructs the adapter; vendor
/// initialisation belongs in ApiAdapter::initialize().
using PluginFactory = std::unique_ptr<ApiAdapter>();

}  // namespace plinth::backend

/// The exported name of a backend's factory: plinth_backend__<shortcut>__abi_<major>_<minor>.
#define PLINTH_BACKEND_SYMBOL(shortcut, major, minor) \
  plinth_backend__##shortcut##__abi_##major##_##minor
#define PLINTH_DETAIL_BACKEND_SYMBOL(shortcut, major, minor) \
  PLINTH_BACKEND_SYMBOL(shortcut, major, minor)

/// Exports `factory` (a function returning std::unique_ptr<plinth::backend::ApiAdapter>) as
/// the backend plugin `shortcut` of this SDK's ABI version. Use exactly once per plugin:
///
///     PLINTH_BACKEND_PLUGIN(opencl, plinth::opencl::create_api)
#define PLINTH_BACKEND_PLUGIN(shortcut, factory) \
  BOOST_DLL_ALIAS_SECTIONED(                     \
      factory, PLINTH_DETAIL_BACKEND_SYMBOL(shortcut, PLINTH_ABI_MAJOR, PLINTH_ABI_MINOR), plinth)
