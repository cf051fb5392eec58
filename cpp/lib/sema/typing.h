// The narrow typing interface the registry's typers are written against: one use of a
// name (Use: its call, receiver and place) and what a typer may ask of the function being
// typed (Typing: type an argument, convert, hold values, emit IR, report an error).
#pragma once

#include "sema/registry.h"
#include "mahou/jitclass.h"
#include "mahou/sema.h"

#include <functional>
#include <initializer_list>
#include <string>

namespace mahou::sema {

using ir::ExprPtr;
using types::DType;
using types::Kind;
using types::Type;

// The NumPy ufuncs compiled code calls (ufuncs.def), by name.
enum class UfuncId : int {
#define MAHOU_UFUNC(name, nin, loops, kernel) name,
#include "sema/ufuncs.def"
#undef MAHOU_UFUNC
};
int ufuncInputs(UfuncId ufunc);      // its number of inputs (np.sin: 1)
const char *ufuncName(UfuncId ufunc); // "sin"

// The arguments of a call, typed (call_args.cpp): positional ones (a `*t` spread into
// its items) and keyword ones, and the hidden variables (`let`s) that hold values read
// more than once, to be wrapped around the call expression built from them.
struct CallArgs {
  std::vector<ExprPtr> positional;
  std::vector<std::pair<std::string, ExprPtr>> keywords;
  std::vector<std::pair<int, ExprPtr>> lets; // (variable, value), in evaluation order: for wrapBindings
  bool unknown = false;                      // some argument's type is not known yet
  std::vector<std::string> kwnames() const;
};

// What a typer may ask of the function being typed. FunctionTyper implements it; a typer
// sees nothing else of it (its statements, scopes and passes).
class Typing {
public:
  virtual ~Typing() = default;

  // ---- errors at a place, the target
  virtual const SourceFile &file() const = 0; // the function's source, which messages quote
  [[noreturn]] void error(Loc loc, const std::string &msg) const { typingError(file(), loc, msg); }
  [[noreturn]] void notSupported(Loc loc, const std::string &msg) const { unsupported(file(), loc, msg); }
  virtual bool gpu() const = 0; // typing for the GPU target
  virtual const CompileOptions &options() const = 0;
  // Refuses what a GPU function cannot do (allocate arrays, print).
  void requireHost(Loc loc, const std::string &what) const {
    if (gpu()) notSupported(loc, what + " is not supported in CUDA kernels (use cuda.local.array or cuda.shared.array)");
  }
  // The value of an expression whose type is not known yet (this inference pass).
  ExprPtr unknown(Loc loc) const { return ir::makeConst(Type::unknown(), loc, 0); }
  static bool isUnknown(const ExprPtr &e) { return e->type.containsUnknown(); }

  // ---- arguments: the AST of a call typed into IR
  virtual ExprPtr expr(const ast::Expr &e) = 0;
  virtual CallArgs callArgs(const ast::Call &e) = 0;
  virtual std::vector<ExprPtr> positionalArgs(const ast::Call &e, size_t minArgs, size_t maxArgs,
                                              const std::string &fname) = 0;
  virtual void checkKeywords(const ast::Call &e, std::initializer_list<const char *> allowed,
                             const std::string &fname) = 0;
  virtual const ast::Expr *keyword(const ast::Call &e, const std::string &name) = 0;
  virtual std::optional<int64_t> constInt(const ast::Expr &e) = 0;
  // A dtype argument's value is its type; an expression for it that is not inert
  // (np.random.rand(2).dtype) is kept, to be evaluated before the use that read it
  // (takeDeferredEffects; typeUse does it for every registry call).
  virtual std::optional<DType> dtypeArgument(const ast::Expr &e) = 0;
  virtual size_t deferredEffectsMark() const = 0;
  // The effects kept since `mark`, evaluated in order, then `value`.
  virtual ExprPtr takeDeferredEffects(size_t mark, ExprPtr value, Loc loc) = 0;
  virtual std::vector<ExprPtr> shapeArgument(const ast::Expr &e) = 0;
  // The local variable of that (source) name, when there is one (not a global).
  virtual std::optional<int> localVariable(const std::string &name) = 0;
  virtual const GlobalValue &global(const std::string &name) = 0;
  virtual ExprPtr constantFromGlobal(const GlobalValue &g, Loc loc) = 0; // a global's value as IR

  // ---- conversions
  // Converts a value to `to` (numbers between each other, arrays relaxing layout, tuples
  // elementwise) or reports a TypingError that names `what`.
  virtual ExprPtr convert(ExprPtr e, const Type &to, const std::string &what) = 0;
  virtual ExprPtr toInt64Index(ExprPtr e, const std::string &what) = 0;
  virtual ExprPtr truth(ExprPtr e) = 0;
  virtual ExprPtr logicalNot(ExprPtr b) = 0;
  virtual ExprPtr unwrapOptional(ExprPtr e) = 0; // Optional(T) → T, checked at run time
  virtual ExprPtr isNoneTest(ExprPtr v, bool negate, Loc loc) = 0;

  // ---- values held, evaluated once
  virtual int tempVar(const Type &t, Loc loc) = 0; // a fresh hidden variable (stable across passes)
  virtual int hiddenVar(const std::string &name) = 0; // the hidden variable of that name (one per call site)
  virtual ExprPtr load(int var, Loc loc) = 0;
  virtual const Type &varType(int var) const = 0;
  virtual ir::StmtPtr assignVar(int var, ExprPtr value, Loc loc) = 0;
  // A hidden variable holding `value`, with `stmts` receiving the assignment (for Seq).
  virtual int holdInTemp(ExprPtr value, Loc loc, ir::Block &stmts) = 0;
  virtual ExprPtr seqExpr(std::shared_ptr<ir::Block> stmts, ExprPtr value, Loc loc) = 0;
  virtual ExprPtr wrapBindings(std::vector<std::pair<int, ExprPtr>> bindings, ExprPtr body, Loc loc) = 0;
  // body(reload) where reload() reads `value`, evaluated once (a `let` unless it is a variable).
  virtual ExprPtr bindOnce(ExprPtr value, const std::function<ExprPtr(const std::function<ExprPtr()> &)> &body) = 0;
  // Operands read more than once, each evaluated once, in order (tuples.cpp).
  virtual std::vector<std::pair<int, ExprPtr>> bindOperands(std::vector<ExprPtr> &operands, Loc loc,
                                                            bool reordered = false) = 0;
  // Optional operands taken by value (TypeError when None) once all are evaluated.
  virtual std::vector<std::pair<int, ExprPtr>> bindOptionals(std::vector<ExprPtr> &operands, Loc loc) = 0;
  virtual bool isPureValue(const ir::Expr &e) const = 0;

  // ---- operations
  virtual ExprPtr binary(ast::BinOpKind op, ExprPtr lhs, ExprPtr rhs, Loc loc) = 0;
  virtual ExprPtr compareOne(ast::CmpOpKind op, ExprPtr lhs, ExprPtr rhs, Loc loc) = 0;
  virtual ExprPtr unaryValue(ast::UnaryOpKind op, ExprPtr v, Loc loc) = 0;
  virtual ExprPtr matmul(ExprPtr a, ExprPtr b, Loc loc) = 0;
  static bool isHostComplexFunction(ir::Intrinsic id) {
    switch (id) {
#define MAHOU_COMPLEX_FUNCTION(name, text, symbol) case ir::Intrinsic::name:
#include "mahou/complex_functions.def"
#undef MAHOU_COMPLEX_FUNCTION
      return true;
    default: return false;
    }
  }
  ExprPtr intrinsic(ir::Intrinsic id, Type resultType, std::vector<ExprPtr> args, Loc loc) {
    // The complex functions of complex_functions.def are the host runtime's (C99's special
    // cases, CPython's for cmath): a kernel would link a function the device does not
    // have. Kernels lower the complex sqrt/exp/log/log10 in real math (codegen/gpu_complex.cpp)
    // and call the library's device_cmath for cmath's others (cmath_calls.cpp) and
    // device_npcomplex for NumPy's (ufuncs.cpp); nothing else may reach the device.
    if (gpu() && isHostComplexFunction(id) && id != ir::Intrinsic::CSqrt && id != ir::Intrinsic::CExp &&
        id != ir::Intrinsic::CLog && id != ir::Intrinsic::CLog10)
      notSupported(loc, "this function of a complex number is not supported in CUDA kernels");
    auto e = std::make_unique<ir::Expr>(ir::ExprOp::Intrinsic, std::move(resultType), loc);
    e->sub = int(id);
    e->args = std::move(args);
    return e;
  }

  // ---- arrays
  // Builds the indexing of `base` by an AST index: an element (ArrayItem) or a view.
  virtual ExprPtr indexArray(ExprPtr base, const ast::Expr &index, Loc loc) = 0;
  // For stores: the int64 indices of a full element index, or nullopt for slices.
  virtual std::optional<std::vector<ExprPtr>> elementIndices(const Type &arrayType, const ast::Expr &index) = 0;
  // np.<ufunc> of scalars (element values; ufuncs.def), with NumPy's loop selection.
  virtual ExprPtr scalarUfunc(UfuncId ufunc, std::vector<ExprPtr> args, Loc loc) = 0;
  using ElementBody = std::function<ExprPtr(std::vector<ExprPtr>)>;
  // Applies `body` (typed on scalar elements) to operands with broadcasting; scalars: body itself.
  virtual ExprPtr elementwise(std::vector<ExprPtr> operands, const ElementBody &body, Loc loc) = 0;
  virtual ir::StmtPtr storeView(ExprPtr dest, ExprPtr value, Loc loc) = 0;
  virtual ExprPtr reduction(ir::ReduceKind kind, ExprPtr arr, std::optional<int64_t> axis, Loc loc) = 0;
  // A scalar stored into an array of `dtype`: a float into integers converts as NumPy's
  // setitem does (NaN ValueError, inf and too large OverflowError; `flat`: ValueError).
  virtual ExprPtr storedScalar(ExprPtr value, DType dtype, Loc loc, bool flat = false) = 0;

  // Widens the variable `target` names (a container made empty) to `refined`.
  virtual bool refineContainer(const ast::Expr &target, const Type &refined, Loc loc) = 0;
  virtual ExprPtr listFromIterable(ExprPtr iterable, Loc loc) = 0; // list(x) of a typed iterable
  virtual ExprPtr listFromAst(const ast::Expr &iterable, Loc loc) = 0; // list(x) of any iterable
  virtual ExprPtr sortByKey(ExprPtr list, const ast::Expr &key, ExprPtr reverse, bool inPlace, Loc loc) = 0;
  // A loop over a typed iterable (array, tuple, list, string): body(element, block).
  virtual void forEachValue(ExprPtr iterable, Loc loc, const std::function<void(ExprPtr, ir::Block &)> &body,
                            ir::Block &out) = 0;
  enum class EntryPart { Keys, Values, Items };
  // A loop over the live entries of a dict or set (keys, values or (key, value)).
  virtual void forEachEntry(ExprPtr table, EntryPart part, Loc loc,
                            const std::function<void(ExprPtr, ir::Block &)> &body, ir::Block &out,
                            const ast::Body *orelse = nullptr) = 0;

  // The @jitclass of an instance or class type.
  virtual const JitClassInfo &jitClassOf(const Type &instanceOrClass, Loc loc) = 0;

  // ---- calls of compiled functions
  // A call of compiled function `handle` with typed arguments, bound to its parameters.
  virtual ExprPtr callCompiled(uint64_t handle, const std::string &fname, CallArgs args, Loc loc) = 0;
  // The same with the call's own arguments (a method's receiver first when given).
  virtual ExprPtr compiledCall(uint64_t handle, const std::string &fname, const ast::Call &e,
                               ExprPtr receiver = nullptr) = 0;
  // A NumPy function or array method written in Python (python/mahou/_library), asked for
  // as '@numpy.median', '@ndarray.item' (self first); nullptr if none.
  virtual ExprPtr libraryCall(const std::string &qualified, const std::string &fname, const ast::Call &e,
                              ExprPtr self = nullptr) = 0;
  // The same with typed arguments (positional); nullptr if there is no such function.
  virtual ExprPtr libraryCallTyped(const std::string &qualified, const std::string &fname, std::vector<ExprPtr> args,
                                   Loc loc) = 0;
  // A method or attribute from overload_method/overload_attribute, or null when none applies.
  virtual ExprPtr extensionMember(Use &use) = 0;
  // base.name as an attribute read (getattr(base, 'name')), and whether one would type
  // (hasattr: an attribute or a method of the value's kind; names.cpp).
  virtual ExprPtr attributeOf(ExprPtr base, const std::string &name, const ast::Expr *source, Loc loc) = 0;
  virtual bool hasAttribute(const ExprPtr &base, const std::string &name, Loc loc) = 0;
};

// One use of a registry entry: the call (or the attribute read) and, for members, the
// receiver's value; what the typer builds from it replaces the use.
struct Use {
  Typing &t;
  const Entry &entry;
  std::string name;           // as written (the entry's name is "*" for a receiver's own members)
  const ast::Call *call;      // the call; null for an attribute
  ExprPtr self;               // methods and attributes: the receiver, typed; null for functions
  const ast::Expr *selfExpr;  // its source (an empty container a use refines); null for functions
  Loc loc;

  int variant() const { return entry.variant; }
  Receiver receiver() const { return entry.receiver; }
  // How messages name it: "np.zeros", "math.sqrt", "len", "cuda.shared.array".
  std::string qualified() const;
  // The call's positional arguments typed (between min and max of them), after checking
  // that its keywords are among `keywords`; `fname` names the call in messages (default:
  // the name as written).
  std::vector<ExprPtr> args(size_t minArgs, size_t maxArgs, std::initializer_list<const char *> keywords = {});
  std::vector<ExprPtr> args(size_t minArgs, size_t maxArgs, std::initializer_list<const char *> keywords,
                            const std::string &fname);
  const ast::Expr *keyword(const std::string &kw) const { return t.keyword(*call, kw); }
  [[noreturn]] void error(const std::string &msg) const { t.error(loc, msg); }
  [[noreturn]] void notSupported(const std::string &msg) const { t.notSupported(loc, msg); }
  ExprPtr unknown() const { return t.unknown(loc); }
};

// A deep copy (ir::clone) of an expression whose second evaluation cannot differ;
// refuses (naming `what`) calls and allocations (tuples.cpp).
ExprPtr duplicate(const Typing &t, const ir::Expr &e, const std::string &what);

// An expression that can be left unevaluated: no effect and nothing that can raise
// (constants, variables, tuples of them; tuples.cpp). A pure `1 / x` can raise.
bool isInert(const ir::Expr &e);

// `effects` evaluated for its effects and the exceptions it raises (unless inert), then
// `value`: what a use that does not need an operand's value still owes Python's order
// (isinstance(f(x), int), np.random.rand(2).dtype; tuples.cpp).
ExprPtr evaluatedThen(Typing &t, ExprPtr effects, ExprPtr value, Loc loc);

// A condition known at compile time: a bool constant, or one after effects (evaluatedThen's
// form). Its effects move to the end of `effects` and `cond` becomes the constant; an
// `if` then types only its live branch, after those effects (tuples.cpp).
std::optional<bool> knownCondition(ExprPtr &cond, ir::Block &effects);
// The bool constant a known condition ends in (inside its effects), or null.
ir::Expr *knownConditionValue(const ExprPtr &cond);

// Any of the values not typed yet (this pass).
inline bool anyUnknown(const std::vector<ExprPtr> &values) {
  for (auto &v : values)
    if (Typing::isUnknown(v)) return true;
  return false;
}

// The registry's run-time layer for a member no table lists: a user extension's, else (an
// array method) the _library's, else the miss diagnostic (names.cpp).
ExprPtr runtimeMember(Use &u);

// Types one use of `entry` (its typer; a statement entry's statement typer is called by
// typeStatement). `name` is the name as written.
ExprPtr typeUse(Typing &t, const Entry &entry, const std::string &name, const ast::Call *call, ExprPtr self,
                const ast::Expr *selfExpr, Loc loc);

// The one diagnostic for a name a receiver lacks: "'list' object has no attribute 'apend'
// (did you mean 'append'?)" or "np.foo is not supported", with the close names the
// registry has for the receiver. `self` names a value receiver's type.
[[noreturn]] void refuseMissing(const Typing &t, Receiver receiver, Member member, const std::string &name, Loc loc,
                                const Type *self = nullptr);

} // namespace mahou::sema
