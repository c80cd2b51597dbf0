#pragma once

// The pieces of the extension module `plinth._plinth`. Each bind_*() function adds one
// concept's classes and functions to the module and lives in the file of the same name;
// module.cpp calls them in dependency order (a class must be bound before a signature that
// names it is called, not before it is declared, so the order matters only for default
// arguments that are plinth objects).
//
// The binding converts and forwards: behaviour is defined by the C++ API, and a binding that
// needs more than a conversion is a sign that the C++ API lacks something.

#include <nanobind/nanobind.h>

namespace plinth::python {

namespace nb = nanobind;

void bind_errors(nb::module_& m);          // errors.cpp
void bind_dtypes(nb::module_& m);          // dtypes.cpp
void bind_platforms(nb::module_& m);       // platforms.cpp: API, Platform, Device
void bind_contexts(nb::module_& m);        // contexts.cpp: Context, BoundDevice
void bind_queues(nb::module_& m);          // queues.cpp: Queue, MultiQueue, Event
void bind_buffers(nb::module_& m);         // buffers.cpp: Buffer, pools, managed, IPC
void bind_programs(nb::module_& m);        // programs.cpp: Program, Kernel, compile
void bind_arrays(nb::module_& m);          // arrays.cpp: Array
void bind_images(nb::module_& m);          // images.cpp: Image, Sampler, box copies
void bind_array_creation(nb::module_& m);  // array_creation.cpp
void bind_array_indexing(nb::module_& m);  // array_indexing.cpp
void bind_expressions(nb::module_& m);     // expressions.cpp: lazy expressions, operators
void bind_algorithms(nb::module_& m);      // algorithms.cpp: reductions, scans, sorts...
void bind_blas(nb::module_& m);            // blas.cpp: gemm, gemv, ger, matmul, @
void bind_random(nb::module_& m);          // random.cpp
void bind_custom_kernels(nb::module_& m);  // custom_kernels.cpp: Elementwise/Reduction/Scan
void bind_templates(nb::module_& m);       // templates.cpp: Template, Snippet, Module
void bind_static_kernels(nb::module_& m);  // static_kernels.cpp
void bind_virtual_alloc(nb::module_& m);   // virtual_alloc.cpp
void bind_collectives(nb::module_& m);     // collectives.cpp
void bind_interop(nb::module_& m);         // interop.cpp: DLPack, __cuda_array_interface__
void bind_gl_interop(nb::module_& m);      // gl_interop.cpp: GlBuffer, GlTexture, mappings
void bind_multi_arrays(nb::module_& m);    // multi_arrays.cpp: MultiArray, splays

}  // namespace plinth::python
