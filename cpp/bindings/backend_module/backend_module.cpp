// The mahou._backend extension module: the compiler back end (LLVM) behind a capsule
// holding its entry-point table (mahou/backend.h). mahou._core imports it on the
// first compile; nothing else is in it.
#include "mahou/backend.h"

#include <nanobind/nanobind.h>

namespace nb = nanobind;

NB_MODULE(_backend, m) {
  m.doc() = "mahou's compiler back end (LLVM), loaded by mahou._core on the first compile.";
  auto *table = const_cast<mahou::backend::Table *>(&mahou::backend::table());
  m.attr("_table") = nb::steal(PyCapsule_New(table, "mahou._backend.table", nullptr));
}
