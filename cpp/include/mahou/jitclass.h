// @jitclass: what the compiler knows of a class (its fields, methods and properties,
// given by the compile environment's class registry) and the native layout of its
// instances, shared by sema, codegen, the runtime and the binding.
#pragma once

#include "mahou/runtime.h"
#include "mahou/types.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace mahou {

// One class. Methods, properties and static methods are compiled functions (their
// handles are those of CompileEnvironment::compileCallee); a method takes the
// instance as its first argument.
struct JitClassInfo {
  uint64_t handle = 0;
  std::string name;
  std::vector<std::string> fieldNames;
  std::vector<types::Type> fieldTypes;
  std::map<std::string, uint64_t> methods;       // __init__, ordinary and special methods
  std::map<std::string, uint64_t> staticMethods;
  struct Property {
    uint64_t getter = 0, setter = 0; // 0: none
  };
  std::map<std::string, Property> properties;

  // Index of a field, or -1.
  int fieldIndex(const std::string &field) const {
    for (size_t i = 0; i < fieldNames.size(); ++i)
      if (fieldNames[i] == field) return int(i);
    return -1;
  }
  uint64_t method(const std::string &m) const {
    auto it = methods.find(m);
    return it == methods.end() ? 0 : it->second;
  }
  types::Type instanceType() const { return types::Type::instance(handle, name); }
};

// An instance is one MahouMemInfo block whose payload starts with the interned
// descriptor of its fields (a MahouTypeDesc of fieldsType(), whose references the
// destructor releases) followed by the fields laid out as that tuple.
constexpr size_t kJitInstanceFieldsOffset = 8; // after the descriptor pointer
inline types::Type fieldsType(const JitClassInfo &c) { return types::Type::tuple(c.fieldTypes); }

namespace runtime {
// Compiled code storing an array from NumPy (no meminfo, `parent` borrowed for the call)
// in an object gives it a meminfo that holds the ndarray: the binding installs how.
void setAdoptParentHook(MahouMemInfo *(*hook)(void *parent));
} // namespace runtime

} // namespace mahou
