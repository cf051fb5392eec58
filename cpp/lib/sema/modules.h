// The variants of the module typers (modules.def) and the modules a global path reaches.
#pragma once

#include "sema/typing.h"

namespace mahou::sema {

enum class ModuleConstant : int { Pi, E, Tau, Inf, NaN };

// The global `module.attr` of a module reached by a global path (a user's module, and
// np.linalg and the like), or null when the module has no path.
const GlobalValue *moduleMember(Typing &t, const Type &module, const std::string &attr);
// That global as a value (a TypingError when it is missing).
ExprPtr moduleAttribute(Typing &t, const Type &module, const std::string &attr, Loc loc);

} // namespace mahou::sema
