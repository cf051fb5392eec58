// The children of AST nodes, for the passes that visit every node (variable versions, the
// names an inner function reads, ...): one walker, instead of a switch over every kind of
// node in each pass.
#pragma once

#include "mahou/ast.h"

#include <functional>

namespace mahou::ast {

// Calls `fn` on each sub-expression of `e` (not `e` itself; null children skipped), in
// source order. A lambda's children are its parameters' defaults (its body is a scope of
// its own); a comprehension's are its element (and value) and then, per `for`, its
// target, iterable and conditions; an objmode block's, its context and then its inputs.
void forEachChild(const Expr &e, const std::function<void(const Expr &)> &fn);
void forEachChild(Expr &e, const std::function<void(Expr &)> &fn);

// Calls `onExpr` on each expression a statement holds (targets, values, tests, a def's
// decorators and parameter defaults, an except clause's type) and `onBody` on each body
// it runs in the same scope (if/else, loop body and else, try, handlers, else, finally;
// not a def's body). An except clause's bound name is the caller's to see.
void forEachPart(const Stmt &s, const std::function<void(const Expr &)> &onExpr,
                 const std::function<void(const Body &)> &onBody);

} // namespace mahou::ast
