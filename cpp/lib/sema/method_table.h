// The method table (methods.def): which typer handles `value.name(...)` and
// `value.name` for each type kind. sema's methodCall and attribute look members up
// here, then in the user extensions (mahou.extending), then report the error.
#pragma once

#include "typer.h"

#include <string_view>

namespace mahou::sema {

// One use of a member: v.name(...) (call set) or v.name (call null).
struct MemberAccess {
  FunctionTyper &t;
  ExprPtr self;              // the receiver, typed (its type is known)
  const ast::Expr &selfExpr; // the receiver's source
  const ast::Call *call;     // the call for a method, null for an attribute
  std::string name;
  Loc loc;
};

using MemberTyper = ExprPtr (*)(MemberAccess &);

// The typer registered for (kind, name), else the kind's "*" entry, else null.
MemberTyper findMethod(types::Kind kind, std::string_view name);
MemberTyper findAttribute(types::Kind kind, std::string_view name);

// Every typer named in methods.def (each defined in the file of its area).
#define MAHOU_METHOD(kind, name, typer) ExprPtr typer(MemberAccess &);
#define MAHOU_ATTRIBUTE(kind, name, typer) ExprPtr typer(MemberAccess &);
#include "sema/methods.def"
#undef MAHOU_METHOD
#undef MAHOU_ATTRIBUTE

} // namespace mahou::sema
