// The operations of the tuples area (tuples.cpp, tuple_compare.cpp, named_tuples.cpp):
// free functions over the Typing interface.
#pragma once

#include "sema/typing.h"

namespace mahou::sema {

ExprPtr tupleConcat(Typing &t, ExprPtr lhs, ExprPtr rhs, Loc loc);
// t * n / n * t with a constant int n (Numba: a literal int); the tuple evaluated once.
ExprPtr tupleRepeat(Typing &t, ExprPtr tuple, ExprPtr count, bool countFirst, Loc loc);
enum TupleSearch : int { TupleIndex = 0, TupleCount = 1 }; // the variants of t.index / t.count
// `needle in tuple` (negate: not in), compared elementwise with ==.
ExprPtr tupleContains(Typing &t, bool negate, ExprPtr needle, ExprPtr tuple, Loc loc);
ExprPtr tupleCompare(Typing &t, ast::CmpOpKind op, ExprPtr lhs, ExprPtr rhs, Loc loc); // tuple_compare.cpp
// Whether values of types a and b may compare equal (else == is False without a look):
// the one rule of tuple ==, `in` and their items (tuple_compare.cpp).
bool canBeEqual(const Type &a, const Type &b);
// t[i] with a variable index (homogeneous tuples) or t[a:b:c] with constant bounds.
ExprPtr tupleSubscript(Typing &t, ExprPtr base, const ast::Expr &index, Loc loc);
// ---- collections.namedtuple / typing.NamedTuple (named_tuples.cpp)
ExprPtr newNamedTuple(Typing &t, const GlobalValue &cls, const ast::Call &e); // P(a, y=2.0)

} // namespace mahou::sema
