// Literal string-key dicts (a dict display whose keys are string constants and whose values
// have different types, `{'a': 1, 'b': 'x'}`, Numba's LiteralStrKeyDict) in the type lattice:
// a tuple of the values whose class handle is kLiteralDictClass and whose field names are the
// keys, so values are laid out, released and passed as a tuple's are; its keys(), values()
// and items() views are the same values under handles of their own. Sema lets through only
// the dict operations (sema/literal_dicts.cpp); returned to Python as a dict (or its view).
#pragma once

#include "mahou/types.h"

namespace mahou::types {

// Never an object's address (namedtuple classes are); the views follow the dict's handle.
constexpr uint64_t kLiteralDictClass = 5;
enum class LiteralDictView : uint64_t { Dict = 0, Keys = 1, Values = 2, Items = 3 };

inline bool isLiteralDict(const Type &t) { // the dict or one of its views
  return t.kind == Kind::Tuple && !t.closureTuple && t.handle >= kLiteralDictClass &&
         t.handle <= kLiteralDictClass + uint64_t(LiteralDictView::Items);
}

inline LiteralDictView literalDictView(const Type &t) { return LiteralDictView(t.handle - kLiteralDictClass); }

inline std::string literalDictViewName(const Type &t) {
  static const char *names[] = {"dict", "dict_keys", "dict_values", "dict_items"};
  return names[t.handle - kLiteralDictClass];
}

inline Type literalDictType(std::vector<std::string> keys, std::vector<Type> values,
                            LiteralDictView view = LiteralDictView::Dict) {
  return Type::namedTuple(std::move(values), kLiteralDictClass + uint64_t(view), "dict", std::move(keys));
}

} // namespace mahou::types
