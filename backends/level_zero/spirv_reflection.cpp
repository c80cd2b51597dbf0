// Reading kernels' parameters from a SPIR-V module (the SPIR-V specification, 1.6, sections
// 2.3 "Physical Layout" and 3 "Binary Form"). One pass over the instructions collects what
// matters (names, types, constants, decorations, entry points, functions and their
// parameters); then each Kernel entry point's own parameters are described.
//
// llvm-spirv 15 makes each entry point a wrapper function that calls the kernel's body: the
// wrapper's parameters are what a launch binds, so those are read. Where the wrapper's
// parameters have no names (clang without -cl-kernel-arg-info discards them), the names of the
// called function's parameters are taken when the wrapper passes its parameters through.
//
// Every offset and id is checked before it is used and every type is defined before it is
// used (as the specification requires, forward pointers aside), so no input can make the
// reader loop, recurse or read out of bounds.

#include "spirv_reflection.hpp"

#include <plinth/errors.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace plinth::level_zero {

namespace {

constexpr std::uint32_t magic_number = 0x07230203;
constexpr std::size_t header_words = 5;

// Opcodes (specification 3.52) of the instructions read here.
enum Op : std::uint32_t {
  op_name = 5,
  op_string = 7,
  op_memory_model = 14,
  op_entry_point = 15,
  op_type_void = 19,
  op_type_bool = 20,
  op_type_int = 21,
  op_type_float = 22,
  op_type_vector = 23,
  op_type_image = 25,
  op_type_sampler = 26,
  op_type_array = 28,
  op_type_struct = 30,
  op_type_pointer = 32,
  op_type_forward_pointer = 39,
  op_constant = 43,
  op_function = 54,
  op_function_parameter = 55,
  op_function_end = 56,
  op_function_call = 57,
  op_decorate = 71,
};

// Other type-declaring instructions, whose result (word 1) is a type that cannot be sized:
// sampled images, runtime arrays, opaque types, functions, events, queues, pipes...
bool other_type(std::uint32_t op) {
  return op == 27 || op == 29 || op == 31 || (op >= 33 && op <= 38) || op == 322 || op == 327;
}

// What a kernel's image or sampler parameter takes on Level Zero: a ze_image_handle_t or a
// ze_sampler_handle_t, both pointers (image.cpp checks; this file needs no Level Zero header,
// so that the fuzzer builds it alone).
constexpr std::size_t handle_size = sizeof(void*);

// The OpenCL C name of an image type (OpTypeImage: Dim, Depth, Arrayed, MS), as clang's
// kernel_arg_type metadata spells it: "image2d_t", "image1d_array_t", "image1d_buffer_t",
// "image2d_depth_t"...; "image" for a Dim that OpenCL C has no image type of (Cube, Rect...).
std::string image_type_name(std::uint32_t dim, std::uint32_t depth, std::uint32_t arrayed,
                            std::uint32_t multisampled) {
  constexpr std::uint32_t dim_1d = 0, dim_2d = 1, dim_3d = 2, dim_buffer = 5;
  if (dim == dim_buffer) return "image1d_buffer_t";
  if (dim != dim_1d && dim != dim_2d && dim != dim_3d) return "image";
  std::string name = "image" + std::to_string(dim + 1) + "d";
  if (arrayed == 1) name += "_array";
  if (multisampled == 1) name += "_msaa";
  if (depth == 1) name += "_depth";
  return name + "_t";
}

constexpr std::uint32_t execution_model_kernel = 6;
constexpr std::uint32_t decoration_cpacked = 10;
constexpr std::uint32_t decoration_func_param_attr = 38;
constexpr std::uint32_t param_attr_byval = 2;
constexpr std::uint32_t addressing_physical32 = 1;

// Storage classes (specification 3.7).
constexpr std::uint32_t storage_uniform_constant = 0;
constexpr std::uint32_t storage_workgroup = 4;
constexpr std::uint32_t storage_cross_workgroup = 5;
constexpr std::uint32_t storage_function = 7;

[[noreturn]] void malformed(const std::string& what) { throw LogicError("SPIR-V module: " + what); }

std::string id_text(std::uint32_t id) { return "%" + std::to_string(id); }

// A type as far as parameters need it.
struct Type {
  enum class Kind { value, pointer, image, sampler, other } kind = Kind::other;
  std::size_t size = 0;  // bytes; 0 where it cannot be sized
  std::size_t align = 1;
  std::uint32_t storage = 0;  // pointer: its storage class
  std::uint32_t pointee = 0;  // pointer: the type pointed to (0: not known yet)
  std::string name;           // "float", "float4", "struct.S", "image2d_t"...
};

// A function: its parameters (ids and types) and the first function it calls, with the
// arguments of that call.
struct Function {
  std::vector<std::uint32_t> parameters;
  std::vector<std::uint32_t> parameter_types;
  std::uint32_t callee = 0;
  std::vector<std::uint32_t> call_arguments;
};

struct EntryPoint {
  std::uint32_t function;
  std::string name;
};

// a * b, or 0 if it does not fit.
std::size_t product(std::size_t a, std::size_t b) {
  if (b != 0 && a > std::numeric_limits<std::size_t>::max() / b) return 0;
  return a * b;
}

// `value` rounded up to a multiple of `align` (> 0), or nullopt if that does not fit.
std::optional<std::size_t> align_up(std::size_t value, std::size_t align) {
  const std::size_t rest = value % align;
  if (rest == 0) return value;
  if (value > std::numeric_limits<std::size_t>::max() - (align - rest)) return std::nullopt;
  return value + (align - rest);
}

class Reader {
 public:
  explicit Reader(std::span<const std::byte> module) { decode_header(module); }

  std::vector<KernelSignature> kernels() {
    for (std::size_t at = header_words; at < words_.size();) {
      const std::uint32_t first = words_[at];
      const std::size_t count = first >> 16;
      const std::uint32_t op = first & 0xffffu;
      if (count == 0)
        malformed("the instruction at word " + std::to_string(at) + " (opcode " +
                  std::to_string(op) + ") has a word count of 0");
      if (count > words_.size() - at)
        malformed("the instruction at word " + std::to_string(at) + " (opcode " +
                  std::to_string(op) + ") has " + std::to_string(count) +
                  " words, past the end of the module (" + std::to_string(words_.size() - at) +
                  " left)");
      at_ = at;
      instruction(op, std::span<const std::uint32_t>(words_.data() + at, count));
      at += count;
    }
    if (current_) malformed("function " + id_text(current_id_) + " has no OpFunctionEnd");
    std::vector<KernelSignature> result;
    for (const auto& entry : entry_points_) result.push_back(signature(entry));
    return result;
  }

 private:
  void decode_header(std::span<const std::byte> module) {
    if (module.size() % 4 != 0)
      malformed("its size, " + std::to_string(module.size()) +
                " bytes, is not a whole number of "
                "32-bit words");
    if (module.size() < header_words * 4)
      malformed("it has " + std::to_string(module.size()) + " bytes, fewer than a header's 20");
    words_.resize(module.size() / 4);
    std::memcpy(words_.data(), module.data(), module.size());
    if (words_[0] != magic_number) {
      if (words_[0] != __builtin_bswap32(magic_number)) {
        char text[11];
        std::snprintf(text, sizeof text, "0x%08x", static_cast<unsigned>(words_[0]));
        malformed(std::string("bad magic number ") + text + " (a SPIR-V module starts with " +
                  "0x07230203)");
      }
      for (auto& word : words_) word = __builtin_bswap32(word);  // the other byte order
    }
    // Version 1.0 to 1.6: 0x00MMmm00.
    const std::uint32_t version = words_[1];
    if ((version & 0xff0000ffu) != 0 || ((version >> 16) & 0xffu) != 1 ||
        ((version >> 8) & 0xffu) > 6) {
      char text[11];
      std::snprintf(text, sizeof text, "0x%08x", static_cast<unsigned>(version));
      malformed(std::string("its version word ") + text + " is no SPIR-V version 1.0 to 1.6");
    }
    bound_ = words_[3];
    if (bound_ == 0) malformed("its id bound is 0");
    if (words_[4] != 0) malformed("its header's reserved schema word is not 0");
  }

  // Checks that `id` is a valid id (0 < id < bound).
  std::uint32_t id(std::uint32_t value) const {
    if (value == 0 || value >= bound_)
      malformed("id " + std::to_string(value) + " in the instruction at word " +
                std::to_string(at_) + " is out of range (the bound is " + std::to_string(bound_) +
                ")");
    return value;
  }

  void need(std::span<const std::uint32_t> ins, std::size_t words, const char* name) const {
    if (ins.size() < words)
      malformed(std::string(name) + " at word " + std::to_string(at_) + " has " +
                std::to_string(ins.size()) + " words, fewer than its " + std::to_string(words));
  }

  // The literal string starting at ins[first]: UTF-8, NUL-terminated, padded to words.
  std::string string_at(std::span<const std::uint32_t> ins, std::size_t first,
                        const char* name) const {
    std::string text;
    for (std::size_t i = first; i < ins.size(); ++i) {
      for (int byte = 0; byte < 4; ++byte) {
        const char c = static_cast<char>((ins[i] >> (8 * byte)) & 0xffu);
        if (c == '\0') return text;
        text += c;
      }
    }
    malformed(std::string("the string of ") + name + " at word " + std::to_string(at_) +
              " has no terminating NUL");
  }

  const Type* type(std::uint32_t type_id) const {
    const auto found = types_.find(type_id);
    return found == types_.end() ? nullptr : &found->second;
  }

  // The type `type_id`, which must be defined before the instruction that uses it.
  const Type& defined_type(std::uint32_t type_id, const char* name) const {
    const Type* found = type(id(type_id));
    if (found == nullptr)
      malformed(std::string(name) + " at word " + std::to_string(at_) + " uses " +
                id_text(type_id) + ", which is not a type defined before it");
    return *found;
  }

  void define(std::uint32_t type_id, Type value, bool may_redefine = false) {
    auto [place, added] = types_.try_emplace(id(type_id));
    if (!added && !(may_redefine && place->second.kind == Type::Kind::pointer))
      malformed("type " + id_text(type_id) + " is defined twice");
    place->second = std::move(value);
  }

  void instruction(std::uint32_t op, std::span<const std::uint32_t> ins) {
    if (other_type(op)) {
      need(ins, 2, "a type declaration");
      define(ins[1], Type{Type::Kind::other, 0, 1, 0, 0, "opaque"});
      return;
    }
    switch (op) {
      case op_name: {
        need(ins, 3, "OpName");
        names_[id(ins[1])] = string_at(ins, 2, "OpName");
        break;
      }
      case op_string: {
        need(ins, 3, "OpString");
        id(ins[1]);
        kernel_arg_types(string_at(ins, 2, "OpString"));
        break;
      }
      case op_memory_model:
        need(ins, 3, "OpMemoryModel");
        pointer_size_ = ins[1] == addressing_physical32 ? 4 : 8;
        break;
      case op_entry_point: {
        need(ins, 4, "OpEntryPoint");
        const std::uint32_t function = id(ins[2]);
        std::string name = string_at(ins, 3, "OpEntryPoint");
        if (ins[1] == execution_model_kernel) entry_points_.push_back({function, std::move(name)});
        break;
      }
      case op_decorate:
        need(ins, 3, "OpDecorate");
        if (ins[2] == decoration_func_param_attr && ins.size() >= 4 && ins[3] == param_attr_byval)
          byval_.insert(id(ins[1]));
        if (ins[2] == decoration_cpacked) packed_.insert(id(ins[1]));
        break;
      case op_type_void:
        need(ins, 2, "OpTypeVoid");
        define(ins[1], Type{Type::Kind::other, 0, 1, 0, 0, "void"});
        break;
      case op_type_bool:  // an abstract truth value: no size in memory
        need(ins, 2, "OpTypeBool");
        define(ins[1], Type{Type::Kind::value, 0, 1, 0, 0, "bool"});
        break;
      case op_type_int: {
        need(ins, 4, "OpTypeInt");
        const std::uint32_t width = ins[2];
        const bool sized = width == 8 || width == 16 || width == 32 || width == 64;
        define(ins[1], Type{Type::Kind::value, sized ? width / 8 : 0, sized ? width / 8 : 1, 0, 0,
                            (ins[3] != 0 ? "int" : "uint") + std::to_string(width)});
        break;
      }
      case op_type_float: {
        need(ins, 3, "OpTypeFloat");
        const std::uint32_t width = ins[2];
        const char* name = width == 16   ? "half"
                           : width == 32 ? "float"
                           : width == 64 ? "double"
                                         : "";
        const bool sized = *name != '\0';
        define(ins[1], Type{Type::Kind::value, sized ? width / 8 : 0, sized ? width / 8 : 1, 0, 0,
                            sized ? name : "float" + std::to_string(width)});
        break;
      }
      case op_type_vector: {
        need(ins, 4, "OpTypeVector");
        const Type& component = defined_type(ins[2], "OpTypeVector");
        const std::uint32_t lanes = ins[3];
        // OpenCL C: a vector of 3 takes the room (and alignment) of 4.
        const std::size_t size = product(component.size, lanes == 3 ? 4 : lanes);
        Type vector{Type::Kind::value,
                    size,
                    size == 0 ? 1 : size,
                    0,
                    0,
                    component.name + std::to_string(lanes)};
        if (component.kind != Type::Kind::value || (size & (size - 1)) != 0) vector.size = 0;
        if (vector.size == 0) vector.align = 1;
        define(ins[1], std::move(vector));
        break;
      }
      case op_type_image:
        // Result, sampled type, Dim, Depth, Arrayed, MS, Sampled, format[, access qualifier].
        need(ins, 9, "OpTypeImage");
        define(ins[1], Type{Type::Kind::image, handle_size, handle_size, 0, 0,
                            image_type_name(ins[3], ins[4], ins[5], ins[6])});
        break;
      case op_type_sampler:
        need(ins, 2, "OpTypeSampler");
        define(ins[1], Type{Type::Kind::sampler, handle_size, handle_size, 0, 0, "sampler_t"});
        break;
      case op_type_array: {
        need(ins, 4, "OpTypeArray");
        const Type& element = defined_type(ins[2], "OpTypeArray");
        const auto length = constants_.find(id(ins[3]));
        if (length == constants_.end())
          malformed("OpTypeArray at word " + std::to_string(at_) + " has length " +
                    id_text(ins[3]) + ", which is not a constant defined before it");
        const std::size_t size =
            length->second > std::numeric_limits<std::size_t>::max()
                ? 0
                : product(element.size, static_cast<std::size_t>(length->second));
        // Arrays of images or samplers are no values (OpenCL C has no such parameters).
        const bool sized = element.size > 0 && element.kind != Type::Kind::image &&
                           element.kind != Type::Kind::sampler;
        define(ins[1],
               Type{sized ? Type::Kind::value : Type::Kind::other, sized ? size : 0, element.align,
                    0, 0, element.name + "[" + std::to_string(length->second) + "]"});
        break;
      }
      case op_type_struct: {
        need(ins, 2, "OpTypeStruct");
        const bool packed = packed_.contains(ins[1]);
        std::size_t offset = 0;
        std::size_t align = 1;
        bool sized = true;
        for (std::size_t m = 2; m < ins.size(); ++m) {
          const Type& member = defined_type(ins[m], "OpTypeStruct");
          // An image or a sampler cannot be passed inside a struct (OpenCL C).
          if (member.size == 0 || member.kind == Type::Kind::image ||
              member.kind == Type::Kind::sampler)
            sized = false;
          if (!sized) continue;
          const auto start = packed ? offset : align_up(offset, member.align);
          if (!start || *start > std::numeric_limits<std::size_t>::max() - member.size) {
            sized = false;
            continue;
          }
          offset = *start + member.size;
          if (!packed) align = std::max(align, member.align);
        }
        const auto size = sized ? align_up(offset, align) : std::nullopt;
        const auto named = names_.find(ins[1]);
        define(ins[1],
               Type{size && *size > 0 ? Type::Kind::value : Type::Kind::other, size.value_or(0),
                    align, 0, 0, named != names_.end() ? named->second : "struct"});
        break;
      }
      case op_type_forward_pointer:
        need(ins, 3, "OpTypeForwardPointer");
        define(ins[1], Type{Type::Kind::pointer, pointer_size_, pointer_size_, ins[2], 0, ""},
               true);
        break;
      case op_type_pointer: {
        need(ins, 4, "OpTypePointer");
        define(ins[1],
               Type{Type::Kind::pointer, pointer_size_, pointer_size_, ins[2], id(ins[3]), ""},
               true);
        break;
      }
      case op_constant: {
        need(ins, 4, "OpConstant");
        id(ins[1]);
        std::uint64_t value = ins[3];
        if (ins.size() >= 5) value |= static_cast<std::uint64_t>(ins[4]) << 32;
        constants_[id(ins[2])] = value;
        break;
      }
      case op_function:
        need(ins, 5, "OpFunction");
        if (current_)
          malformed("OpFunction at word " + std::to_string(at_) + " is inside function " +
                    id_text(current_id_));
        current_id_ = id(ins[2]);
        current_.emplace();
        break;
      case op_function_parameter:
        need(ins, 3, "OpFunctionParameter");
        if (!current_)
          malformed("OpFunctionParameter at word " + std::to_string(at_) +
                    " is outside any function");
        current_->parameter_types.push_back(id(ins[1]));
        current_->parameters.push_back(id(ins[2]));
        break;
      case op_function_call:
        need(ins, 4, "OpFunctionCall");
        if (!current_)
          malformed("OpFunctionCall at word " + std::to_string(at_) + " is outside any function");
        if (current_->callee == 0) {
          current_->callee = id(ins[3]);
          current_->call_arguments.assign(ins.begin() + 4, ins.end());
        }
        break;
      case op_function_end:
        if (!current_)
          malformed("OpFunctionEnd at word " + std::to_string(at_) + " is outside any function");
        if (!functions_.try_emplace(current_id_, std::move(*current_)).second)
          malformed("function " + id_text(current_id_) + " is defined twice");
        current_.reset();
        break;
      default: break;
    }
  }

  // "kernel_arg_type.<kernel>.<type>,<type>,...," (llvm-spirv's
  // --preserve-ocl-kernel-arg-type-metadata-through-string): the declared type names.
  void kernel_arg_types(std::string_view text) {
    constexpr std::string_view prefix = "kernel_arg_type.";
    if (!text.starts_with(prefix)) return;
    text.remove_prefix(prefix.size());
    const auto dot = text.find('.');
    if (dot == std::string_view::npos) return;
    auto& list = arg_types_[std::string(text.substr(0, dot))];
    list.clear();
    text.remove_prefix(dot + 1);
    while (!text.empty()) {
      const auto comma = text.find(',');
      list.emplace_back(text.substr(0, comma));
      if (comma == std::string_view::npos) break;
      text.remove_prefix(comma + 1);
    }
  }

  std::string name_of(std::uint32_t value) const {
    const auto found = names_.find(value);
    return found == names_.end() ? std::string() : found->second;
  }

  // A C-like name of a type for messages, where the module gives no declared type name.
  std::string describe(const Type& t) const {
    if (t.kind != Type::Kind::pointer) return t.name;
    const char* space = t.storage == storage_cross_workgroup    ? "__global "
                        : t.storage == storage_uniform_constant ? "__constant "
                        : t.storage == storage_workgroup        ? "__local "
                                                                : "";
    const Type* pointee = type(t.pointee);
    return space +
           (pointee != nullptr && pointee->kind != Type::Kind::pointer ? pointee->name : "void") +
           "*";
  }

  backend::ParamInfo parameter(std::uint32_t param, const Type& t) const {
    backend::ParamInfo info;
    info.type_name = describe(t);
    if (t.kind == Type::Kind::pointer) {
      switch (t.storage) {
        case storage_cross_workgroup:
          info.kind = backend::ParamKind::global_ptr;
          info.size = t.size;
          break;
        case storage_uniform_constant:
          info.kind = backend::ParamKind::constant_ptr;
          info.size = t.size;
          break;
        case storage_workgroup:
          info.kind = backend::ParamKind::local_ptr;  // takes a size, no data
          break;
        case storage_function:
          if (byval_.contains(param)) {
            const Type* pointee = type(t.pointee);
            if (pointee != nullptr && pointee->kind == Type::Kind::value && pointee->size > 0) {
              info.kind = backend::ParamKind::scalar;
              info.size = pointee->size;
              info.type_name = pointee->name;
            }
          }
          break;
        default: break;
      }
    } else if (t.kind == Type::Kind::value && t.size > 0) {
      info.kind = backend::ParamKind::scalar;
      info.size = t.size;
    } else if (t.kind == Type::Kind::image) {
      info.kind = backend::ParamKind::image;  // takes an Image: its ze_image_handle_t
      info.size = t.size;
    } else if (t.kind == Type::Kind::sampler) {
      info.kind = backend::ParamKind::sampler;  // takes a Sampler: its ze_sampler_handle_t
      info.size = t.size;
    }
    return info;
  }

  KernelSignature signature(const EntryPoint& entry) const {
    const auto function = functions_.find(entry.function);
    if (function == functions_.end())
      malformed("entry point '" + entry.name + "' names " + id_text(entry.function) +
                ", which is no function of the module");
    const Function& f = function->second;
    // The wrapper llvm-spirv makes calls the kernel's body with its own parameters.
    const Function* body = nullptr;
    if (f.callee != 0 && f.call_arguments == f.parameters) {
      const auto called = functions_.find(f.callee);
      if (called != functions_.end() && called->second.parameters.size() == f.parameters.size())
        body = &called->second;
    }
    const auto declared = arg_types_.find(entry.name);
    KernelSignature result{entry.name, {}};
    for (std::size_t i = 0; i < f.parameters.size(); ++i) {
      const Type* t = type(f.parameter_types[i]);
      if (t == nullptr)
        malformed("parameter " + std::to_string(i) + " of kernel '" + entry.name + "' has type " +
                  id_text(f.parameter_types[i]) + ", which is not a type");
      auto info = parameter(f.parameters[i], *t);
      info.name = name_of(f.parameters[i]);
      if (info.name.empty() && body != nullptr) info.name = name_of(body->parameters[i]);
      if (declared != arg_types_.end() && declared->second.size() == f.parameters.size() &&
          !declared->second[i].empty())
        info.type_name = declared->second[i];
      result.parameters.push_back(std::move(info));
    }
    return result;
  }

  std::vector<std::uint32_t> words_;
  std::uint32_t bound_ = 0;
  std::size_t at_ = 0;  // the word of the instruction being read, for messages
  std::size_t pointer_size_ = 8;
  std::unordered_map<std::uint32_t, std::string> names_;
  std::unordered_map<std::string, std::vector<std::string>> arg_types_;
  std::unordered_map<std::uint32_t, Type> types_;
  std::unordered_map<std::uint32_t, std::uint64_t> constants_;
  std::set<std::uint32_t> byval_;
  std::set<std::uint32_t> packed_;
  std::vector<EntryPoint> entry_points_;
  std::unordered_map<std::uint32_t, Function> functions_;
  std::optional<Function> current_;
  std::uint32_t current_id_ = 0;
};

}  // namespace

std::vector<KernelSignature> reflect_kernels(std::span<const std::byte> module) {
  return Reader(module).kernels();
}

}  // namespace plinth::level_zero
