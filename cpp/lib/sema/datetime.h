// Typing of NumPy datetime64 / timedelta64 values: the operators, the ufuncs Numba
// lists for them and np.isnat, with NumPy's unit rules (sema/datetime.cpp).
#pragma once

#include "sema/typing.h"

namespace mahou::sema {

// lhs op rhs where an operand is a datetime64 / timedelta64 (null when neither is).
ExprPtr datetimeBinary(Typing &t, ast::BinOpKind op, ExprPtr &lhs, ExprPtr &rhs, Loc loc);
// A comparison where an operand is a datetime64 / timedelta64 (null when neither is).
ExprPtr datetimeCompare(Typing &t, ast::CmpOpKind op, ExprPtr &lhs, ExprPtr &rhs, Loc loc);
// -x, +x, abs(x), np.sign(x), np.isnat(x) of one datetime64 / timedelta64 value.
ExprPtr datetimeUnary(Typing &t, ir::DatetimeOp op, ExprPtr v, const std::string &what, Loc loc);
// np.maximum / minimum / fmax / fmin of two values of one kind (the finer unit).
ExprPtr datetimeExtreme(Typing &t, ir::DatetimeOp op, ExprPtr a, ExprPtr b, const std::string &what, Loc loc);

// Builtin min() / max() of datetime64 or timedelta64 values (Python's rule: the first of
// the least / greatest; NaT compares false, so it is kept only where it comes first).
ExprPtr datetimeMinMax(Typing &t, bool max, std::vector<ExprPtr> args, const std::string &what, Loc loc);

} // namespace mahou::sema
