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

} // namespace mahou::sema
