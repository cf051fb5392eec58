// The variants of the object area's typers (objects.def, strings.def) and the helpers
// its files share.
#pragma once

#include "sema/numbers.h"

namespace mahou::sema {

// The builtins that reduce an iterable.
enum class BuiltinReduce : int { Sum, Min, Max, Any, All };
enum class StrSearch : int { Find, RFind, Index, RIndex, Count };
// Methods of dicts and sets without arguments.
enum class TableMethod : int { Copy, Clear, PopItem, SetPop, Keys, Values, Items };
// update and the set algebra; Union..SymmetricDifference are ir::ObjectOp::SetCombine's ival.
// The *Update forms combine as their operation's SetCombine, then replace the receiver's items.
enum class SetMethod : int {
  Union,
  Intersection,
  Difference,
  SymmetricDifference,
  Update,
  IsSubset,
  IsSuperset,
  IsDisjoint,
  IntersectionUpdate,
  DifferenceUpdate,
  SymmetricDifferenceUpdate
};

// sum/min/max/any/all of a list display, comprehension, list, set, dict, string, range or
// generator (object_builtins.cpp); null for the other iterables (tuples, arrays).
ExprPtr reduceObjects(Use &u, BuiltinReduce how);
// sum(iterable, start) (builtin_sum.cpp).
ExprPtr sumWithStart(Use &u);
// int(s) / float(s) of a string; null when the argument is not one.
ExprPtr numberFromString(Use &u, NumberConversion to);

ExprPtr hashOf(Typing &t, ExprPtr x, Loc loc);    // hash(x), CPython's value

// ---- range objects (range_objects.cpp)
ExprPtr rangeLength(Typing &t, ExprPtr r, Loc loc); // len() of a range object
ExprPtr rangeItem(Typing &t, ExprPtr r, const ast::Expr &index, Loc loc);
ExprPtr rangeContains(Typing &t, bool negate, ExprPtr needle, ExprPtr r, Loc loc);
ExprPtr rangeTruth(Typing &t, ExprPtr r, Loc loc);
// ---- slice objects (slices.cpp)
// A slice value's bounds (reads of a pure `slice`), null where the bound is None.
std::vector<ExprPtr> sliceBounds(Typing &t, const ir::Expr &slice, Loc loc);
ir::ViewSlot sliceSlot(Typing &t, const ir::Expr &slice, Loc loc); // an array index slot of a slice value
// "'slice' object <what>" (a TypingError), "'range' object <what>" (unsupported).
void refuseSlice(const Typing &t, const Type &type, Loc loc, const std::string &what);
// "a literal list ... <what>" (UnsupportedError) when `type` is a literal list: the tuple
// operations whose answer would differ for a list (literal_lists.cpp).
void refuseLiteralList(const Typing &t, const Type &type, Loc loc, const std::string &what);
// Literal string-key dicts (`{'a': 1, 'b': 'x'}`, mahou/literal_dict_type.h; literal_dicts.cpp):
// "a LiteralStrKeyDict ... <what>" (UnsupportedError) when `type` is one or its view: the
// tuple operations whose answer would differ for a dict; the mutation refusal (TypingError).
void refuseLiteralDict(const Typing &t, const Type &type, Loc loc, const std::string &what);
void refuseLiteralDictMutation(const Typing &t, const Type &type, Loc loc);
ExprPtr literalDictDisplay(Typing &t, const std::vector<std::string> &keys, std::vector<ExprPtr> values, Loc loc);
ExprPtr literalDictGet(Typing &t, ExprPtr d, ExprPtr key, Loc loc);        // d['key'], a constant key
ExprPtr literalDictIterable(Typing &t, ExprPtr d, Loc loc);               // what iterating it gives, as a tuple
ExprPtr literalDictContains(Typing &t, bool negate, ExprPtr needle, ExprPtr d, Loc loc);
ExprPtr literalDictCompare(Typing &t, ast::CmpOpKind op, ExprPtr lhs, ExprPtr rhs, Loc loc); // ==, != (else refused)
ExprPtr literalDictText(Typing &t, ExprPtr d, Loc loc);                   // {'a': 1}, dict_keys(['a']), ...
// The typed IR's comparison of a comparison operator (== != < <= > >=); none for the
// others (is, in, ...) (exprs.cpp).
std::optional<ir::CmpOp> irCompare(ast::CmpOpKind op);
ExprPtr generatorNext(Typing &t, ExprPtr gen, Loc loc); // next(g) of a generator (null: not one; generators.cpp)
ExprPtr generatorNextOr(Typing &t, ExprPtr gen, ExprPtr dflt, Loc loc); // next(g, default) of a generator

// A call of the special method `method` of args[0]'s class (a jitclass); null when it has none.
ExprPtr specialMethod(Typing &t, const std::string &method, std::vector<ExprPtr> args, Loc loc);
ExprPtr instanceBinary(Typing &t, ast::BinOpKind op, ExprPtr &lhs, ExprPtr &rhs, Loc loc);
// lhs.__iadd__(rhs) (and the other in-place methods) when lhs's class has it; else nullptr.
ExprPtr instanceInPlace(Typing &t, ast::BinOpKind op, ExprPtr &lhs, ExprPtr &rhs, Loc loc);
ExprPtr instanceUnary(Typing &t, ast::UnaryOpKind op, ExprPtr obj, Loc loc); // -o, +o, ~o, not o
ExprPtr instanceCompare(Typing &t, ast::CmpOpKind op, ExprPtr &lhs, ExprPtr &rhs, Loc loc); // nullptr: not a comparison
ExprPtr instanceIdentity(Typing &t, bool negate, ExprPtr lhs, ExprPtr rhs, Loc loc);        // `is` / `is not`
ExprPtr instanceContains(Typing &t, bool negate, ExprPtr &needle, ExprPtr &container, Loc loc);
ExprPtr instanceLen(Typing &t, ExprPtr obj, Loc loc);
ExprPtr instanceTruth(Typing &t, ExprPtr obj);
ExprPtr instanceGetItem(Typing &t, ExprPtr obj, const ast::Expr &index, Loc loc);
void instanceSetItem(Typing &t, ExprPtr obj, const ast::Expr &index, ExprPtr value, Loc loc, ir::Block &out);
// int(), float(), complex(), bool() of an instance; str()/repr() (jitclass_conversions.cpp)
ExprPtr instanceStr(Typing &t, ExprPtr obj, bool repr, Loc loc);
ExprPtr newInstance(Typing &t, uint64_t classHandle, const std::string &className, const ast::Call &e);
void storeAttribute(Typing &t, ExprPtr obj, const std::string &attr, ExprPtr value, Loc loc, ir::Block &out);
bool instanceHashable(Typing &t, const Type &item, Loc loc);   // an instance whose class can be a key

ExprPtr objectLen(Typing &t, ExprPtr v, Loc loc); // len() of a list, string, dict, set or instance
ExprPtr toStr(Typing &t, ExprPtr v, bool repr, Loc loc); // str(x) / repr(x)
ExprPtr unwrapOptionalForStr(Typing &t, ExprPtr v);
ExprPtr reprText(Typing &t, ExprPtr v, Loc loc);         // repr() text of numbers, strings, tuples, lists, dicts, sets
// print() of a list/dict/set/tuple: its text as Python prints it.
ExprPtr printableText(Typing &t, ExprPtr v, Loc loc);
ExprPtr concatText(Typing &t, std::vector<ExprPtr> parts, Loc loc); // strings (literals too) concatenated
ExprPtr dictReprText(Typing &t, ExprPtr d, Loc loc);
// `found`, or the IndexError/ValueError-raising check that it is not -1 (str.index).
ExprPtr checkedIndex(Typing &t, ExprPtr found, const std::string &message, Loc loc);
ExprPtr listToTuple(Typing &t, ExprPtr list, size_t n, Loc loc);
// The type a value has as a container item (string literals become unicode).
Type itemType(Typing &t, const Type &ty, Loc loc, const std::string &what);
Type listItemType(Typing &t, const Type &ty, Loc loc); // itemType keeping dtypes
ExprPtr itemValue(Typing &t, ExprPtr e);
// Converts a value stored into a container of `item` (numbers never narrow silently).
ExprPtr convertItem(Typing &t, ExprPtr value, const Type &item, const std::string &what);
ExprPtr toUnicode(Typing &t, ExprPtr e); // a string literal as a runtime string
// Items compared with == (and with < when `ordered`: sorting, min, max); `what` names the use.
void requireComparable(Typing &t, const Type &item, Loc loc, const std::string &what, bool ordered = false);
void requireHashable(Typing &t, const Type &item, Loc loc);
Type keyType(Typing &t, const Type &ty, Loc loc); // a hashable item type (refuses others)
ExprPtr hashedKey(Typing &t, ExprPtr key, const Type &keyType, const std::string &what);
// Keys hashed and compared by compiled code, @jitclass instances (instance_keys.cpp).
bool keyedByCode(const Typing &t, const Type &table);
ExprPtr instanceKeyed(Typing &t, ExprPtr e);                   // adds the dict.keyops operand
ExprPtr containerTruth(Typing &t, ExprPtr e); // len(d) != 0
// ---- heap objects (lists, dicts, sets, strings)
ExprPtr objectOp(Typing &t, ir::ObjectOp op, Type result, std::vector<ExprPtr> args, Loc loc, int64_t ival = 0);

// Operators on lists and strings; nullptr when the operands are not theirs.
// (The operands are taken only when the operation is handled.)
ExprPtr objectBinary(Typing &t, ast::BinOpKind op, ExprPtr &lhs, ExprPtr &rhs, Loc loc);
ExprPtr objectCompare(Typing &t, ast::CmpOpKind op, ExprPtr &lhs, ExprPtr &rhs, Loc loc);
ExprPtr containerContains(Typing &t, bool negate, ExprPtr &needle, ExprPtr &container, Loc loc);
ExprPtr hashedContains(Typing &t, ExprPtr needle, ExprPtr container, Loc loc);
ExprPtr dictSubscript(Typing &t, ExprPtr dict, const ast::Expr &key, Loc loc);
void storeDictItem(Typing &t, ExprPtr dict, const ast::Expr &keyExpr, const ast::Expr &target, ExprPtr value, Loc loc,
                     ir::Block &out);
void dictDelete(Typing &t, ExprPtr dict, const ast::Expr &key, Loc loc, ir::Block &out);
// x[i] and x[a:b:c] of a list or a string.
ExprPtr sequenceSubscript(Typing &t, ExprPtr base, const ast::Expr &index, Loc loc);
void storeListItem(Typing &t, ExprPtr base, const ast::Expr &index, ExprPtr value, Loc loc, ir::Block &out);

} // namespace mahou::sema
