// Declarations of every typer the registry's tables name (sema/typer_tables.inc); each
// is defined in the file of its area, beside its table.
#pragma once

#include "sema/arrays.h"
#include "sema/cuda.h"
#include "sema/modules.h"
#include "sema/numbers.h"
#include "sema/objects.h"
#include "sema/tuples.h"

namespace mahou::sema {

#define MAHOU_FUNCTION(receiver, name, typer, variant) ExprPtr typer(Use &);
#define MAHOU_METHOD(receiver, name, typer, variant) ExprPtr typer(Use &);
#define MAHOU_ATTRIBUTE(receiver, name, typer, variant) ExprPtr typer(Use &);
#define MAHOU_STATEMENT(receiver, name, typer, variant) bool typer(Use &, ir::Block &);
#define MAHOU_LOOP(receiver, name, form)
#include "sema/typer_tables.inc"
#undef MAHOU_LOOP
#undef MAHOU_FUNCTION
#undef MAHOU_METHOD
#undef MAHOU_ATTRIBUTE
#undef MAHOU_STATEMENT

} // namespace mahou::sema
