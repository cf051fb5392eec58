// The variants of the object area's typers (objects.def, strings.def) and the helpers
// its files share.
#pragma once

#include "sema/typing.h"

namespace mahou::sema {

enum class StrSearch : int { Find, RFind, Index, RIndex, Count };
// Methods of dicts and sets without arguments.
enum class TableMethod : int { Copy, Clear, PopItem, SetPop, Keys, Values, Items };
// update and the set algebra; Union..SymmetricDifference are ir::ObjectOp::SetCombine's ival.
enum class SetMethod : int { Union, Intersection, Difference, SymmetricDifference, Update, IsSubset, IsSuperset, IsDisjoint };

} // namespace mahou::sema
