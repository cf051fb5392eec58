// Private to sema: the FunctionTyper that walks the AST once per inference pass,
// building typed IR under the current variable types until they stop changing.
#pragma once

#include "mahou/jitclass.h"
#include "sema/typers.h"

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>

namespace mahou::sema {

// Python scoping: every name bound anywhere in `body` (assignments, loop targets,
// except handlers, nested def names), without looking into nested functions.
void collectLocals(const ast::Body &body, std::vector<std::string> &names);
// The names an assignment target binds (a, (b, c), [d, *e]).
void collectTargets(const ast::Expr &target, std::vector<std::string> &names);

// What a called expression refers to (resolved at compile time).
struct CalleeRef {
  enum class Kind { Builtin, ModuleFn, Compiled, Inner, DTypeCtor, ExcCtor, Method, External, DeviceForeign, Overloaded, JitClass, Closure, NamedTuple, Unknown } kind;
  std::string name;             // builtin / module function / method / inner function name
  types::ModuleId module{};     // ModuleFn
  Receiver receiver{};          // Builtin, ModuleFn: what the registry looks `name` up on
  uint64_t handle = 0;          // Compiled, JitClass; External: the C function's address (name: its signature)
  DType dtype{};                // DTypeCtor
  types::ExcKind exc{};         // ExcCtor
  const ast::Expr *self = nullptr; // Method: the receiver expression; Closure: the called expression
  const GlobalValue *overloaded = nullptr; // Overloaded, NamedTuple, DeviceForeign: the global (kept in FunctionTyper::globals_)
};

bool isCompileTimeOnly(const Type &t); // a module, function, class...: no run-time value (exprs.cpp)

// Entries the registry gains while a function is typed: the names the environment
// answers for (the _library's NumPy functions and array methods, user extensions'
// members). Each entry's name lives in the map's key.
class RuntimeEntries {
public:
  const Entry *find(Receiver receiver, Member member, std::string_view name) const;
  const Entry &add(Receiver receiver, Member member, const std::string &name, Typer typer, int variant = 0);

private:
  std::map<std::tuple<Receiver, Member, std::string>, Entry, std::less<>> entries_;
};

struct IndexPart; // array_index.h
struct ArrayIndex;

class FunctionTyper final : public Typing {
public:
  FunctionTyper(const SourceFile &file, const ast::FunctionDef &def,
                const std::vector<Type> &argTypes, CompileEnvironment &env,
                const CompileOptions &options, std::string symbol, const TypingContext &context);
  ir::Function run();

  // ---- shared helpers (typer.cpp)
  const SourceFile &file() const override { return file_; }
  bool gpu() const override { return gpu_; }
  const CompileOptions &options() const override { return options_; }
  std::optional<int> localVariable(const std::string &name) override;
  const Type &varType(int var) const override { return vars_[size_t(var)].type; }
  // The registry's entry for a name (static tables, then the run-time layer), or null.
  const Entry *lookup(Receiver receiver, Member member, const std::string &name);
  RuntimeEntries runtimeEntries_;
  // Converts a value to `to` (numbers between each other, arrays relaxing layout,
  // tuples elementwise) or reports a TypingError that names `what`.
  ExprPtr convert(ExprPtr e, const Type &to, const std::string &what) override;
  ExprPtr toInt64Index(ExprPtr e, const std::string &what) override;
  ExprPtr truth(ExprPtr e) override;
  const GlobalValue &global(const std::string &name) override;
  std::optional<int64_t> constInt(const ast::Expr &e) override;
  // An integer constant expression (int_constants.cpp): its typed value (int64,
  // uint64, or float64 for a negative power), a TypingError when it does not fit
  // 64 bits, nullopt when `e` is not one; and its value when it fits int64.
  std::optional<ExprPtr> intConstant(const ast::Expr &e);
  std::optional<int64_t> constIntExpression(const ast::Expr &e);
  int tempVar(const Type &t, Loc loc) override; // a fresh hidden variable (stable across passes)
  int hiddenVar(const std::string &name) override; // the variable of that name, created (untyped) on first use
  ir::StmtPtr assignVar(int var, ExprPtr value, Loc loc) override;
  ExprPtr load(int var, Loc loc) override;

  // ---- expressions (exprs.cpp)
  ExprPtr expr(const ast::Expr &e) override;
  ExprPtr name(const ast::Name &e);
  ExprPtr constantFromGlobal(const GlobalValue &g, Loc loc) override;
  ExprPtr binary(ast::BinOpKind op, ExprPtr lhs, ExprPtr rhs, Loc loc) override;
  ExprPtr unary(const ast::UnaryOp &e);
  ExprPtr unaryValue(ast::UnaryOpKind op, ExprPtr v, Loc loc) override;
  ExprPtr matmul(ExprPtr a, ExprPtr b, Loc loc) override;
  ExprPtr compare(const ast::Compare &e);
  ExprPtr chainedCompare(const ast::Compare &e, size_t i, ExprPtr left);
  ExprPtr compareOne(ast::CmpOpKind op, ExprPtr lhs, ExprPtr rhs, Loc loc) override;
  bool dtypeIdentity(const ExprPtr &lhs, const ExprPtr &rhs, Loc loc); // `is` of two dtypes
  ExprPtr boolOp(const ast::BoolOp &e);
  ExprPtr ifExp(const ast::IfExp &e);
  ExprPtr attribute(const ast::Attribute &e);
  ExprPtr tupleExpr(const ast::Tuple &e);
  ExprPtr joinedStr(const ast::JoinedStr &e); // f-strings (strings.cpp)

  // ---- subscripts and arrays (arrays.cpp)
  ExprPtr subscript(const ast::Subscript &e);
  // Builds the indexing of `base` by an AST index: an element (ArrayItem) or a view.
  ExprPtr indexArray(ExprPtr base, const ast::Expr &index, Loc loc) override;
  // For stores: the int64 indices of a full element index, or nullopt for slices.
  std::optional<std::vector<ExprPtr>> elementIndices(const Type &arrayType, const ast::Expr &index) override;
  // The parts of an array subscript, typed once each (index_parts.cpp; array_index.h).
  ArrayIndex arrayIndexParts(const Type &arrayType, const ast::Expr &index);
  ExprPtr basicIndex(ExprPtr base, std::vector<IndexPart> parts, Loc loc); // an element or a view
  // Advanced indexing, NumPy's rules (fancy_index.cpp): reads, stores, a[idx] op= v.
  ExprPtr fancyGet(ExprPtr base, std::vector<IndexPart> parts, Loc loc);
  void fancyStore(ExprPtr base, ArrayIndex ix, ExprPtr value, Loc loc, ir::Block &out);
  void fancyAugAssign(ExprPtr base, ArrayIndex ix, const ast::AugAssign &s, ir::Block &out);

  // ---- a.flat (flat_index.cpp): iteration, a.flat[i], a.flat[i] = v, a.flat[i] += v
  // The array x of the expression `x.flat`; nullptr when `e` is not a .flat attribute.
  ExprPtr flatBase(const ast::Expr &e);
  void augAssignFlat(ExprPtr base, const ast::AugAssign &s, ir::Block &out);
  void augAssignContainerItem(ExprPtr base, const ast::AugAssign &s, const ast::Subscript &sub, ir::Block &out);

  // ---- calls (calls.cpp, numpy_calls.cpp)
  ExprPtr call(const ast::Call &e);
  ExprPtr callResolved(const CalleeRef &callee, const ast::Call &e);
  std::optional<CalleeRef> resolveCallee(const ast::Expr &func);
  std::optional<CalleeRef> calleeFromGlobal(const GlobalValue &g);
  // ---- user extensions and modules as values (extensions.cpp)
  ExtensionResult askExtension(ExtensionRequest request, const std::vector<const ir::Expr *> &args);
  ExprPtr overloadedCall(const GlobalValue &g, const ast::Call &e, const std::function<ExprPtr()> &otherwise);
  // A method or attribute from overload_method/overload_attribute, or null when none applies.
  ExprPtr extensionMember(Use &use) override;
  ExprPtr attributeOf(ExprPtr base, const std::string &name, const ast::Expr *source, Loc loc) override;
  bool hasAttribute(const ExprPtr &base, const std::string &name, Loc loc) override;
  ExprPtr scalarUfunc(UfuncId ufunc, std::vector<ExprPtr> args, Loc loc) override;
  ExprPtr datetimeUfunc(UfuncId ufunc, std::vector<ExprPtr> args, Loc loc); // ufuncs.cpp
  // np.<ufunc>(x, ..., out) / np.<ufunc>(x, out=out) as a statement: the store into out
  // (ufunc_out.cpp); nullptr when the call has no output argument.
  // np.random.Generator's methods (random_generator.cpp; np.random and the random module
  // are typed by their entries' typers in random.cpp and random_python.cpp): a draw of
  // random_distributions.def's Gen rows, integers, shuffle (permutation: a shuffled copy).
  ExprPtr randomGeneratorMethod(ExprPtr gen, const std::string &name, const ast::Call &e);
  ExprPtr randomIntegers(ExprPtr gen, const ast::Call &e);
  ExprPtr randomShuffle(ExprPtr gen, bool permutation, const ast::Call &e);
  ExprPtr methodCall(const ast::Expr &self, const std::string &name, const ast::Call &e);
  // receiver.name(...) of the registry (a builtin, a module's function): one lookup.
  ExprPtr callFunction(Receiver receiver, const std::string &name, const ast::Call &e);
  ExprPtr compiledCall(uint64_t handle, const std::string &fname, const ast::Call &e, ExprPtr receiver = nullptr) override;
  // A NumPy function or array method written in Python (python/mahou/_library), asked for
  // as '@numpy.median', '@numpy.linalg.solve', '@ndarray.item' (self first); nullptr if none.
  ExprPtr libraryCall(const std::string &qualified, const std::string &fname, const ast::Call &e,
                      ExprPtr self = nullptr) override;
  ExprPtr libraryCallTyped(const std::string &qualified, const std::string &fname, std::vector<ExprPtr> args,
                           Loc loc) override;
  // Refuses a call with an argument type too large or typing nested too deep (call_limits.cpp).
  void checkCallLimits(const std::vector<Type> &args, const std::string &fname, Loc loc) const;
  // A call of compiled function `handle` with typed arguments, bound to its parameters.
  // A call of a @vectorize ufunc (ufunc_calls.cpp): elementwise over arrays.
  ExprPtr ufuncCall(const UfuncCallee &uf, const std::string &fname, std::vector<ExprPtr> args, Loc loc);
  ExprPtr callCompiled(uint64_t handle, const std::string &fname, CallArgs args, Loc loc) override;
  // ---- call arguments (call_args.cpp)
  CallArgs callArgs(const ast::Call &e) override;
  // The items of a tuple value; a value that is not a variable is bound in `args`'s lets
  // (or, without `args`, must be pure: it is evaluated once per item).
  std::vector<ExprPtr> spreadTuple(ExprPtr value, Loc loc, CallArgs *args);
  // body(reload) where reload() reads `value`, evaluated once (a `let` unless it is a variable).
  ExprPtr bindOnce(ExprPtr value, const std::function<ExprPtr(const std::function<ExprPtr()> &)> &body) override;
  // ---- inner functions (inner_functions.cpp)
  void collectInnerFunctions(); // before the variables are made: finds defs and named lambdas
  const InnerFunction *innerFunction(const std::string &name) const; // null unless `name` is one here
  ExprPtr innerCall(const InnerFunction &inner, const ast::Call &e);
  // Arguments bound to the parameters of `d`, defaults evaluated here (after checkDefault).
  std::vector<ExprPtr> bindInnerArguments(const ast::FunctionDef &d, std::vector<ExprPtr> positional,
                                          std::vector<std::pair<std::string, ExprPtr>> keywords, Loc loc,
                                          const std::function<void(const ast::Arg &)> &checkDefault = nullptr);
  // A call of an inner function with its parameters' values (defaults already filled in).
  // `captured`: the captured values (from a closure); null: the variables of that name here.
  ExprPtr callInner(const InnerFunction &inner, std::vector<ExprPtr> args, Loc loc,
                    std::vector<ExprPtr> *captured = nullptr);
  // The truth of a test; and/or/not of any operand types, pruned on constants (conditions.cpp).
  ExprPtr condition(const ast::Expr &e);
  // ---- global and nonlocal declarations (nonlocals.cpp)
  void checkScopeDeclarations();          // refuses assignments to globals (and closure variables)
  void returnNonlocals(ir::Function &fn); // an inner function returns (result, nonlocals...)
  ExprPtr writeBackNonlocals(const InnerFunction &inner, ExprPtr call, Loc loc);
  // ---- inner functions as values (closures.cpp)
  ExprPtr closureValue(const InnerFunction &inner, Loc loc); // the closure of `inner` here
  const InnerFunction &lambdaFunction(const ast::Lambda &l); // a lambda written where a value is
  const InnerFunction &closureFunction(const Type &closure, Loc loc);
  ExprPtr closureCall(ExprPtr closure, std::vector<ExprPtr> args,
                      std::vector<std::pair<std::string, ExprPtr>> keywords, Loc loc);
  ExprPtr closureCall(ExprPtr closure, const ast::Call &e);
  // A function given as a value (sort's key=): an inline lambda, an inner function or a
  // compiled function, called with typed positional arguments.
  ExprPtr callFunctionArgument(const ast::Expr &fn, std::vector<ExprPtr> args, Loc loc, const std::string &what);
  // A scalar stored into an array of `dtype`: a float into integers converts as NumPy's
  // setitem does (NaN ValueError, inf and values past the dtype OverflowError; through
  // a.flat every failure is ValueError, as NumPy's; stmts.cpp).
  ExprPtr storedScalar(ExprPtr value, types::DType dtype, Loc loc, bool flat = false) override;
  std::optional<DType> dtypeArgument(const ast::Expr &e) override;
  size_t deferredEffectsMark() const override { return deferredEffects_.size(); }
  ExprPtr takeDeferredEffects(size_t mark, ExprPtr value, Loc loc) override;
  ir::Block takeDeferredEffectStmts(size_t mark, Loc loc); // as statements, in order
  std::vector<ExprPtr> shapeArgument(const ast::Expr &e) override;
  std::vector<ExprPtr> positionalArgs(const ast::Call &e, size_t minArgs, size_t maxArgs,
                                      const std::string &fname) override;
  const ast::Expr *keyword(const ast::Call &e, const std::string &name) override;
  void checkKeywords(const ast::Call &e, std::initializer_list<const char *> allowed,
                     const std::string &fname) override;

  // ---- whole-array computation (array_exprs.cpp, array_functions.cpp)
  static bool anyArray(const std::vector<ExprPtr> &operands);
  // Applies `body` (typed on scalar elements) to operands with broadcasting, fusing
  // operands that are themselves elementwise maps; scalars only: body itself.
  ExprPtr elementwise(std::vector<ExprPtr> operands, const ElementBody &body, Loc loc) override;
  ExprPtr broadcastTo(ExprPtr value, int ndim, Loc loc);
  ir::StmtPtr storeView(ExprPtr dest, ExprPtr value, Loc loc) override;
  ExprPtr reduction(ir::ReduceKind kind, ExprPtr arr, std::optional<int64_t> axis, Loc loc) override;
  // np.sum/np.dot/np.where/... and array methods a.sum()/a.reshape()/...; nullptr: not handled here.

  // ---- the cuda module in kernels (cuda.cpp)

  ExprPtr listDisplay(const ast::List &l);
  void deleteTarget(const ast::Expr &target, ir::Block &out);
  // Widens the variable `target` names (a container made empty) to `refined`; true when
  // its type changed (another pass follows). Refuses targets that are not variables.
  bool refineContainer(const ast::Expr &target, const Type &refined, Loc loc) override;
  ExprPtr isNoneTest(ExprPtr v, bool negate, Loc loc) override; // `v is None` / `v is not None`
  ExprPtr logicalNot(ExprPtr b) override;                      // not b, of a bool
  ExprPtr unwrapOptional(ExprPtr e) override;                  // Optional(T) → T, checked at run time
  // Comprehensions and the expressions that run loops (comprehensions.cpp).
  ExprPtr comprehension(const ast::Comprehension &c);
  ExprPtr listFromIterable(ExprPtr iterable, Loc loc) override; // list(x) of a typed iterable (a new list)
  ExprPtr listFromAst(const ast::Expr &iterable, Loc loc) override; // list(x) of any iterable, ranges included
  ExprPtr sortByKey(ExprPtr list, const ast::Expr &key, ExprPtr reverse, bool inPlace, Loc loc) override;
  bool isPureValue(const ir::Expr &e) const override;
  // A hidden variable holding `value`, with `stmts` receiving the assignment (for Seq).
  int holdInTemp(ExprPtr value, Loc loc, ir::Block &stmts) override;
  ExprPtr seqExpr(std::shared_ptr<ir::Block> stmts, ExprPtr value, Loc loc) override;
  // A loop over the live entries of a dict or set (keys, values or (key, value)).
  void forEachEntry(ExprPtr table, EntryPart part, Loc loc, const std::function<void(ExprPtr, ir::Block &)> &body,
                    ir::Block &out, const ast::Body *orelse = nullptr) override;
  // A comprehension's loops into a fresh container: emit(acc, block) adds the element
  // (false while its type is unknown); the container's type is acc's.
  ExprPtr comprehensionInto(const ast::Comprehension &c, const std::function<bool(int, ir::Block &)> &emit);
  void reserveForLoop(int acc, ir::Block &loops, Loc loc); // a list comprehension's room for its loop's trips
  ExprPtr dictDisplay(const ast::Dict &d);
  ExprPtr setDisplay(const ast::Set &s);
  ExprPtr hashedComprehension(const ast::Comprehension &c);

  // raise E(args...) with run-time arguments: typed into st.exprs (exception_args.cpp)
  void raiseArguments(const ast::Call &call, ir::Stmt &st);
  ExprPtr exceptionArgument(const ast::Expr &a); // one of them, typed and checked




  // ---- @jitclass instances (jitclass.cpp)
  const JitClassInfo &jitClassOf(const Type &instanceOrClass, Loc loc) override;
  void augAssignAttribute(const ast::Attribute &target, const ast::AugAssign &s, ir::Block &out);
  std::optional<CalleeRef> classAttributeCallee(const Type &cls, const std::string &attr, Loc loc);


  // ---- statements (stmts.cpp)
  void block(const ast::Body &body, ir::Block &out);
  void stmt(const ast::Stmt &s, ir::Block &out);
  void assign(const ast::Expr &target, ExprPtr value, Loc loc, ir::Block &out);
  void unpackArray(const std::vector<ast::ExprPtr> &targets, ExprPtr value, Loc loc, ir::Block &out);
  void augAssign(const ast::AugAssign &s, ir::Block &out);
  bool listInPlace(int var, ExprPtr cur, const ast::AugAssign &s, ir::Block &out); // l += xs, l *= n
  bool setInPlace(int var, ExprPtr cur, const ast::AugAssign &s, ir::Block &out);  // s |= t, &=, -=, ^=
  void forStmt(const ast::For &s, ir::Block &out);
  // for target in iter: body (and the else block when given), emitted into `out`.
  void forLoop(const ast::Expr &target, const ast::Expr &iter, Loc loc, const std::function<void(ir::Block &)> &body,
               const ast::Body *orelse, ir::Block &out, bool parallelAllowed = false);
  // The same loop giving each element to body(element, block) (for comprehensions).
  void forLoopElements(const ast::Expr &iter, Loc loc, const std::function<void(ExprPtr, ir::Block &)> &body,
                       const ast::Body *orelse, ir::Block &out, bool parallelAllowed = false);
  // The loop form of a call of a loop entry of the registry (range, prange, enumerate, zip,
  // reversed, np.ndindex, literal_unroll), and the call; nullopt for another iterable.
  std::optional<LoopForm> loopForm(const ast::Expr &iterable, const ast::Call **call = nullptr);
  // The table a loop iterates when it is one (a dict or set, or d.keys()/values()/items()).
  std::optional<std::pair<ExprPtr, EntryPart>> tableIteration(const ast::Expr &iter);
  // A loop over a typed iterable (array, tuple, list, string): body(element, block).
  using LoopBody = std::function<void(ExprPtr, ir::Block &)>;
  ExprPtr collectList(const std::function<void(const LoopBody &, ir::Block &)> &runLoop, Loc loc);
  void forEachValue(ExprPtr iterable, Loc loc, const std::function<void(ExprPtr, ir::Block &)> &body, ir::Block &out) override;
  // literal_unroll.cpp: `for target in literal_unroll(t)` (a statement or a comprehension's
  // loop); false: iter is not literal_unroll(...)
  Type widenedAccumulator(int acc, const Type &t, Loc loc); // comprehensions.cpp
  bool literalUnrollLoop(const ast::Expr &target, const ast::Expr &iter, Loc loc,
                         const std::function<void(ir::Block &)> &body, const ast::Body *orelse, ir::Block &out);
  void raiseStmt(const ast::Raise &s, ir::Block &out);
  void exprStmt(const ast::ExprStmt &s, ir::Block &out);
  void returnStmt(const ast::Return &s, ir::Block &out);
  void unifyReturn(const Type &t, Loc loc);


  // ---- `with objmode(...)` blocks (objmode.cpp)
  ExprPtr objModeBlock(const ast::ObjMode &e);
  ExprPtr matchSequence(const ast::MatchSequence &e); // match_patterns.cpp
  ExprPtr matchPossible(const ast::MatchPossible &e);
  bool isObjModeContext(const ast::Expr &fn);
  // The blocks prepared (by the environment) so far, by line and inputs: each pass asks once.
  std::map<std::string, ObjModeBlock> objModeBlocks_;

  // ---- generators (generators.cpp)
  void yieldStmt(const ast::Yield &s, ir::Block &out);
  // A loop over a generator value: body(item) for each item it yields, `orelse` when it ends.
  void loopOverGenerator(ExprPtr gen, Loc loc, const std::function<void(ExprPtr, ir::Block &)> &body,
                         const ast::Body *orelse, ir::Block &out);
  ExprPtr genResume(int genVar, Loc loc); // an item is ready → bool (GenNext sub 0)
  ExprPtr genItem(int genVar, Loc loc);   // that item (GenNext sub 1)
  // `g = (x for x in ...)` / `return (x ...)`: a generator expression as a value (Numba
  // refuses it too; builtins such as sum() take one as a list comprehension).
  void refuseGeneratorExpression(const ast::Expr &value);
  bool generator_ = false;               // the body yields: this is a generator function
  Type yield_ = Type::unknown();         // the type of the items it yields

  // ---- language features (stmts.cpp, try_except.cpp, tuples.cpp, cmath_calls.cpp)
  void tryStmt(const ast::Try &s, ir::Block &out);
  // break (or continue) at `out`: through the finally blocks it leaves (try_except.cpp).
  void loopExit(bool isBreak, Loc loc, ir::Block &out);
  // Operands an expression reads more than once: when one of them has effects or
  // allocates, each is evaluated once, in order, into a hidden variable (the operand
  // becomes a load of it; a pure operand is left as it is, to be cloned) and
  // wrapBindings puts those evaluations (Let) around the final expression (tuples.cpp).
  std::vector<std::pair<int, ExprPtr>> bindOperands(std::vector<ExprPtr> &operands, Loc loc, bool reordered = false) override;
  // Optional operands of a builtin taken by value (TypeError when None, as in Numba)
  // once all are evaluated: bindings for wrapBindings (tuples.cpp).
  std::vector<std::pair<int, ExprPtr>> bindOptionals(std::vector<ExprPtr> &operands, Loc loc) override;
  ExprPtr optionalBoolOp(bool isOr, std::vector<ExprPtr> values, const Type &t, Loc loc); // exprs.cpp
  ExprPtr wrapBindings(std::vector<std::pair<int, ExprPtr>> bindings, ExprPtr body, Loc loc) override;
  int handlerDepth_ = 0; // nesting of except handlers being typed (a bare 'raise' re-raises)
  bool deadRest_ = false; // the statements after the current one in its block are unreachable
  bool blockExits_ = false; // the block just typed ended in a folded branch that exits
  std::vector<int> handlerSlots_; // the SaveError slot of each enclosing except clause
  int errorSlotCounter_ = 0;       // SaveError slots of this pass

  const SourceFile &file_;
  const ast::FunctionDef &def_;
  std::vector<Type> argTypes_;
  CompileEnvironment &env_;
  CompileOptions options_;
  std::string symbol_;
  bool gpu_ = false;                      // typing for the GPU target
  ModuleFunctionSink *sink_ = nullptr;     // device and inner functions compiled alongside
  const InnerFunction *innerSelf_ = nullptr; // non-null: this is an inner function
  // Inner functions (nested defs, `f = lambda ...`) callable here by name: this
  // function's own and those visible from an enclosing one (inner_functions.cpp).
  std::map<std::string, InnerFunction> inner_;
  // Lambdas written where a function is passed (key=lambda x: ...), by their definition.
  std::map<const ast::FunctionDef *, InnerFunction> argumentLambdas_;

  // State kept across passes.
  std::vector<ir::Var> vars_;
  std::unordered_map<std::string, int> varIndex_;
  std::set<int> declaredVars_; // variables typed by jit(locals={...})
  Type ret_ = Type::unknown();
  bool returnDeclared_ = false; // ret_ is an eager signature's return type
  bool sawReturnValue_ = false;
  std::unordered_map<std::string, GlobalValue> globals_;
  std::map<std::pair<uint64_t, std::string>, CalleeSignature> callees_;

  // State of the current pass.
  bool changed_ = false;
  bool strict_ = false; // last pass: anything still unknown is an error
  bool recursionUnknown_ = false; // this pass typed a recursive call whose return type is not known yet
  int tempCounter_ = 0;
  std::vector<ExprPtr> deferredEffects_; // dtype arguments with effects (dtypeArgument)
  std::unordered_map<int, Loc> tempSites_; // where each temporary was last taken (tempVar)
  int loopDepth_ = 0;
  // The try statements with `finally` being typed whose body a break/continue may leave:
  // the hidden variable that records which (1 break, 2 continue) and the loopDepth_ of the
  // try; a break at that depth leaves the one-trip loop wrapped around the try's body.
  struct FinallyExit {
    int var;
    int depth;
  };
  std::vector<FinallyExit> finallyExits_;
  int returnsTyped_ = 0;     // return statements typed in this pass
  int elementwiseDepth_ = 0; // > 0 while typing the element body of an array expression
};

// The function being typed behind a typer's Typing: for the typers not yet written against
// the Typing interface alone (only FunctionTyper implements it).
inline FunctionTyper &typerOf(Typing &t) { return static_cast<FunctionTyper &>(t); }

// Counts the typings nested on this thread while alive (call_limits.cpp).
struct TypingNesting {
  TypingNesting();
  ~TypingNesting();
  TypingNesting(const TypingNesting &) = delete;
  TypingNesting &operator=(const TypingNesting &) = delete;
};


// The names an inner function reads that are not its parameters or locals (its
// captures among them; inner_functions.cpp).
void innerFunctionReads(const ast::FunctionDef &d, std::set<std::string> &out);

// The names `global` (or `nonlocal`: kind) statements of `body` declare, outside nested
// functions (nonlocals.cpp).
void declaredNames(const ast::Body &body, ast::StmtKind kind, std::set<std::string> &out);

// True when control cannot fall off the end of `body` (return/raise on every path).
bool alwaysExits(const ast::Body &body);

} // namespace mahou::sema
