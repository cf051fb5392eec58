// C-ABI entry points a compiled function can get in its own module besides the
// dispatcher's: NumPy ufunc and generalised-ufunc inner loops (@vectorize,
// @guvectorize) and a C callback (@cfunc). Lowered by codegen/native_entries.cpp.
#pragma once

#include "mahou/types.h"

#include <optional>
#include <string>
#include <vector>

namespace mahou {

struct NativeEntries {
  // void @sym.ufunc(char **args, npy_intp *dims, npy_intp *steps, void *data), NumPy's
  // PyUFuncGenericFunction: the function's arguments are the inputs (args[0..nin)), its
  // result, cast to ufuncOut (unset: the result's own dtype), is the one output (args[nin]).
  bool ufuncLoop = false;
  std::optional<types::DType> ufuncOut;
  // void @sym.gufunc(...) with the same signature: a generalised-ufunc loop. For each
  // argument (inputs, then outputs), the indices into dims[1..] of its core dimensions
  // (NumPy numbers the layout's dimension names in order of first appearance). An
  // array argument gets a view of its core dimensions; an argument with no core
  // dimensions is a scalar, or a 1-element 1-D array when its type is an array.
  std::optional<std::vector<std::vector<int>>> gufuncCoreDims;
  // ret @sym.cfunc(args...) in the C calling convention: numbers and pointers as C
  // passes them, the result converted to this type (None: void). An exception raised
  // in the function is reported as unraisable (as Numba does) and 0 is returned.
  std::optional<types::Type> cfuncRet;

  bool empty() const { return !ufuncLoop && !gufuncCoreDims && !cfuncRet; }
  // A text that differs whenever the entries differ (part of the content hash).
  std::string key() const;
};

inline std::string ufuncLoopSymbol(const std::string &symbol) { return symbol + ".ufunc"; }
inline std::string gufuncLoopSymbol(const std::string &symbol) { return symbol + ".gufunc"; }
inline std::string cfuncSymbol(const std::string &symbol) { return symbol + ".cfunc"; }

// Symbols the binding defines in the JIT for these entries (they need Python):
namespace nativesym {
// void (): a ufunc or gufunc loop's function failed; takes the GIL and turns the runtime
// error into the pending Python exception (the first one of a call wins).
inline constexpr const char *kLoopError = "mahou.native.loop_error";
// void (const char *name): a C callback failed; takes the GIL and reports the runtime
// error as unraisable, naming the callback.
inline constexpr const char *kCallbackError = "mahou.native.callback_error";
} // namespace nativesym

} // namespace mahou
