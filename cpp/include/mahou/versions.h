// Variable versions: the renaming pass that lets a local variable hold values of
// different types in parts of a function that never meet (frontend/versions.cpp).
#pragma once

#include "mahou/ast.h"

#include <string>
#include <string_view>

namespace mahou::frontend {

// Splits each local variable of `fn` (and of the functions nested in it) into versions:
// the assignments that reach a common read (directly, or through a join after an if,
// around a loop, into an except handler) form one version; versions after the first are
// renamed `x$v1`, `x$v2`, ... Records in fn.versionJoins where the assignments of a
// version first meet. Variables read by nested functions are left whole.
void splitVariableVersions(ast::FunctionDef &fn);
void splitVariableVersions(ast::Module &module); // every function defined at top level

// The name as the user wrote it: `x` for `x$v1` (and for the compiler's `x$unroll0`).
std::string userName(std::string_view name);

} // namespace mahou::frontend
