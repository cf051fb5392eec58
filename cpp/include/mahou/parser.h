// Parser: tokens → AST for a module (mahouc) or for the source of one function (the JIT).
#pragma once

#include "mahou/ast.h"
#include "mahou/diagnostics.h"

namespace mahou::frontend {

// Parses a whole file: statements at top level, including imports, defs with
// decorators, assignments and `if __name__ == "__main__":` blocks; then splits the
// variables of its functions into versions (versions.h).
ast::Module parseModule(const SourceFile &file);
// The syntax alone, before versions (the pipeline's Parse stage; Versions follows).
ast::Module parseModuleSyntax(const SourceFile &file);

// Parses the source of one function as given by inspect.getsource: optional
// decorators, then exactly one `def`. Syntax mahou does not accept (class,
// with, lambda in some places, comprehensions, yield, async, walrus, ...) is an
// UnsupportedError naming the construct and its line.
std::unique_ptr<ast::FunctionDef> parseFunction(const SourceFile &file);

} // namespace mahou::frontend
