// Literal lists (`['a', 1, 2j]`, items of different types; mahou/literal_list_type.h) are
// typed as tuples; this refuses the tuple operations whose answer would differ for a
// list, so a literal list never silently behaves as a tuple.
#include "typer.h"

#include "mahou/literal_list_type.h"

namespace mahou::sema {

void refuseLiteralList(const Typing &t, const Type &type, Loc loc, const std::string &what) {
  if (types::isLiteralList(type))
    t.notSupported(loc, "a list of items of different types (" + type.str() + ", Numba's literal list) " + what +
                            "; it supports len(), indexing with a constant, `in`, literal_unroll() and iteration");
}

} // namespace mahou::sema
