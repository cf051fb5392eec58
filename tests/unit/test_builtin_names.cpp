// The Python builtins the binding and mahouc resolve (python_builtins.def) are the names
// the registry types among the builtins, less the mahou module's functions kept there.
#include "sema/registry.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

using namespace mahou::sema;

namespace {

const std::set<std::string> kListed = {
#define MAHOU_PYTHON_BUILTIN(name) #name,
#include "mahou/python_builtins.def"
#undef MAHOU_PYTHON_BUILTIN
};

const std::set<std::string> kMahouFunctions = {"prange", "literally", "literal_unroll"};

TEST(BuiltinNames, EveryListedNameHasARegistryEntry) {
  for (const auto &name : kListed) {
    bool found = false;
    for (Member m : {Member::Function, Member::Statement, Member::Loop})
      found = found || findEntry(Receiver::Builtins, m, name) != nullptr;
    EXPECT_TRUE(found) << name;
  }
}

TEST(BuiltinNames, EveryRegistryBuiltinIsListed) {
  for (const Entry &e : allEntries()) {
    if (e.receiver != Receiver::Builtins || e.name == "*") continue;
    std::string name(e.name);
    EXPECT_TRUE(kListed.count(name) || kMahouFunctions.count(name)) << name;
  }
}

} // namespace
