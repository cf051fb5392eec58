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
enum class SetMethod : int { Union, Intersection, Difference, SymmetricDifference, Update, IsSubset, IsSuperset, IsDisjoint };

// sum/min/max/any/all of a list display, comprehension, list, set, dict, string, range or
// generator (object_builtins.cpp); null for the other iterables (tuples, arrays).
ExprPtr reduceObjects(Use &u, BuiltinReduce how);
// sum(iterable, start) (builtin_sum.cpp).
ExprPtr sumWithStart(Use &u);
// int(s) / float(s) of a string; null when the argument is not one.
ExprPtr numberFromString(Use &u, NumberConversion to);

} // namespace mahou::sema
