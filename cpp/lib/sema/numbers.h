// The variants of the number typers (math.def, builtins.def) and the helpers of the
// numbers area its files share.
#pragma once

#include "sema/typing.h"

namespace mahou::sema {

enum class CmathFunction : int { Sqrt, Exp, Log, Log10, Phase, Polar, IsNan, IsInf, IsFinite };
// The builtins that convert a number (and an instance, through its special methods).
enum class NumberConversion : int { Int, Float, Complex, Bool };

// np.float32(x) and a dtype called as a function: a number converted to the dtype.
ExprPtr convertToDType(Typing &t, DType dtype, const std::string &fname, const ast::Call &e);
// round(x, n), n an integer known at run time (math_extras.cpp).
ExprPtr roundVariableDigits(Typing &t, ExprPtr x, ExprPtr n, Loc loc);
// int(), float(), complex(), bool() of a @jitclass instance (jitclass_conversions.cpp).
ExprPtr instanceConversion(Typing &t, NumberConversion to, const std::string &fname, ExprPtr obj, Loc loc);

// enum.Enum and enum.IntEnum members (enums.cpp): a global's type and value; a member's
// value (others unchanged); an IntEnum member's value where it is used as a number;
// ==, !=, is, is not and ordering with a member operand (null when neither is one).
Type enumMemberType(const GlobalValue &g);
// A function of the library's device_cmath (cmath's functions and complex ** in real
// math, for kernels), called with typed arguments (cmath_calls.cpp).
ExprPtr deviceCmathCall(Typing &t, const std::string &name, std::vector<ExprPtr> args, Loc loc);
// A function of the library's device_npcomplex (NumPy's ufuncs of complex numbers in real
// math, for kernels), named as the ufunc (cmath_calls.cpp).
ExprPtr deviceNpComplexCall(Typing &t, const std::string &name, std::vector<ExprPtr> args, Loc loc);
ExprPtr enumConstant(const GlobalValue &g, Loc loc);
ExprPtr enumValue(ExprPtr e);
ExprPtr intEnumValue(ExprPtr e);
ExprPtr enumCompare(Typing &t, ast::CmpOpKind op, ExprPtr &lhs, ExprPtr &rhs, Loc loc);

} // namespace mahou::sema
