// Typing of the random draws with scalar parameters (random_distributions.def), shared by
// np.random's functions (random.cpp) and np.random.Generator's methods
// (random_generator.cpp), and the small helpers of the random files.
#pragma once

#include "typer.h"

#include "mahou/random_distributions.h"

namespace mahou::sema {

// A `random` expression of `kind` with `type` and no operands yet.
ExprPtr randomExpr(ir::RandomKind kind, Type type, Loc loc);

// `if cond: raise exc(message)` appended to stmts.
void raiseIfStmt(ExprPtr cond, const std::string &message, ir::Block &stmts, Loc loc,
                 types::ExcKind exc = types::ExcKind::ValueError);

bool isNoneArg(const ast::Expr *e); // absent or the literal None

// A new C-contiguous array of `dims` (int64 extents) and dtype elem, filled in C order with
// one() per item (a loop of flat stores: one allocation, draws in NumPy's order).
ExprPtr randomArray(FunctionTyper &t, std::vector<ExprPtr> dims, DType elem, const std::function<ExprPtr()> &one, Loc loc);

// The call `e` of draw `d` (`gen`: the Generator of a Gen row; null for np.random): its
// parameters by position or keyword, then `size`, then the keywords in `extra` (read by
// the caller, e.g. dtype); converted to the table's types, evaluated once and checked as
// NumPy checks them before anything is drawn; one draw, or an array of `size` draws.
ExprPtr randomTableCall(FunctionTyper &t, const random::DistInfo &d, ExprPtr gen, const ast::Call &e,
                        const std::string &fname, std::initializer_list<const char *> extra = {});

} // namespace mahou::sema
