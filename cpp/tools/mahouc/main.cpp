// mahouc: compile one function of a .py file for given argument types and print a
// stage (--emit=tokens|ast|ir|llvm|opt|asm). Globals come from the file itself:
// its imports, top-level functions and numeric constants.
#include "mahou/compiler.h"
#include "mahou/jit.h"
#include "mahou/parser.h"
#include "mahou/runtime.h"

#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

namespace {

using namespace mahou;

// Python's builtins compiled code may name: the binding's list too (python_builtins.def).
const char *kBuiltins[] = {
#define MAHOU_PYTHON_BUILTIN(name) #name,
#include "mahou/python_builtins.def"
#undef MAHOU_PYTHON_BUILTIN
};

class FileEnvironment : public CompileEnvironment {
public:
  FileEnvironment(const SourceFile &file, const ast::Module &module, const CompileOptions &options)
      : file_(file), module_(module), options_(options) {
    for (auto &s : module.body) scan(*s);
  }

  GlobalValue resolveGlobal(const std::string &name) override {
    auto it = globals_.find(name);
    if (it != globals_.end()) return it->second;
    GlobalValue g;
    for (auto *b : kBuiltins)
      if (name == b) {
        g.kind = GlobalValue::Kind::Builtin;
        g.s = name;
        return g;
      }
#define MAHOU_EXCEPTION(Name)                                                                                \
  if (name == #Name) {                                                                                       \
    g.kind = GlobalValue::Kind::ExcClass;                                                                    \
    g.exc = types::ExcKind::Name;                                                                            \
    return g;                                                                                                \
  }
#include "mahou/exceptions.def"
#undef MAHOU_EXCEPTION
    return g; // Missing
  }

  std::optional<CalleeSource> calleeSource(uint64_t handle) override {
    return CalleeSource{file_, functionNames_.at(handle - 1), this};
  }

  CalleeSignature compileCallee(uint64_t handle, const std::vector<types::Type> &args) override {
    const std::string &name = functionNames_.at(handle - 1);
    std::string key = name + "(";
    for (auto &a : args) key += a.str() + ",";
    auto it = compiled_.find(key);
    if (it != compiled_.end()) return it->second;
    if (inProgress_.count(key)) return {"", types::Type::unknown()};
    inProgress_[key] = true;
    CompiledFunction f = compileFunction(file_, name, args, *this, options_);
    inProgress_.erase(key);
    return compiled_[key] = CalleeSignature{f.symbol, f.ret};
  }

  std::optional<CalleeParams> calleeParams(uint64_t handle) override {
    const ast::FunctionDef *def = module_.findFunction(functionNames_.at(handle - 1));
    if (!def) return std::nullopt;
    CalleeParams p;
    p.varargs = !def->vararg.empty();
    for (auto &a : def->args) {
      p.names.push_back(a.name);
      p.defaults.push_back(a.defaultValue ? std::optional<GlobalValue>(literal(*a.defaultValue)) : std::nullopt);
    }
    return p;
  }

private:
  // A default value written as a literal (numbers, bools, None, strings, tuples of them).
  static GlobalValue literal(const ast::Expr &e) {
    GlobalValue g;
    using K = GlobalValue::Kind;
    const ast::Expr *v = &e;
    bool negate = false;
    if (auto *u = v->as<ast::UnaryOp>(); u && u->op == ast::UnaryOpKind::USub) {
      negate = true;
      v = u->operand.get();
    }
    if (auto *i = v->as<ast::IntLit>()) {
      g.kind = K::Int;
      g.i = negate ? -i->value : i->value;
    } else if (auto *f = v->as<ast::FloatLit>()) {
      g.kind = K::Float;
      g.f = negate ? -f->value : f->value;
    } else if (auto *b = v->as<ast::BoolLit>(); b && !negate) {
      g.kind = K::Bool;
      g.b = b->value;
    } else if (v->as<ast::NoneLit>() && !negate) {
      g.kind = K::None;
    } else if (auto *s = v->as<ast::StrLit>(); s && !negate) {
      g.kind = K::Str;
      g.s = s->value;
    } else if (auto *t = v->as<ast::Tuple>(); t && !negate) {
      g.kind = K::Tuple;
      for (auto &x : t->elts) g.elems.push_back(literal(*x));
    } else {
      g.kind = K::Unsupported;
      g.s = "a default value that is not a literal";
    }
    return g;
  }

  void scan(const ast::Stmt &s) {
    if (auto *imp = s.as<ast::Import>()) {
      for (auto &a : imp->names) {
        GlobalValue g;
        g.kind = GlobalValue::Kind::Module;
        if (a.name == "math") g.module = types::ModuleId::Math;
        else if (a.name == "cmath") g.module = types::ModuleId::Cmath;
        else if (a.name == "numpy") g.module = types::ModuleId::Numpy;
        else if (a.name == "mahou" || a.name == "numba") g.module = types::ModuleId::Mahou;
        else continue;
        globals_[a.asname.empty() ? a.name : a.asname] = g;
      }
    } else if (auto *from = s.as<ast::ImportFrom>()) {
      for (auto &a : from->names) {
        GlobalValue g;
        std::string local = a.asname.empty() ? a.name : a.asname;
        if (from->module == "mahou" || from->module == "numba") {
          if (a.name == "cuda") {
            g.kind = GlobalValue::Kind::Module;
            g.module = types::ModuleId::Cuda;
            globals_[local] = g;
          } else if (a.name == "prange" || a.name == "literally" || a.name == "literal_unroll") {
            g.kind = GlobalValue::Kind::Builtin; // the registry keeps these among the builtins
            g.s = a.name;
            globals_[local] = g;
          }
          continue;
        }
        g.kind = GlobalValue::Kind::ModuleAttr;
        g.s = a.name;
        if (from->module == "math") g.module = types::ModuleId::Math;
        else if (from->module == "numpy") g.module = types::ModuleId::Numpy;
        else continue;
        globals_[local] = g;
      }
    } else if (auto *def = s.as<ast::FunctionDef>()) {
      functionNames_.push_back(def->name);
      GlobalValue g;
      g.kind = GlobalValue::Kind::Function;
      g.handle = functionNames_.size();
      g.s = def->name;
      globals_[def->name] = g;
    } else if (auto *as = s.as<ast::Assign>()) {
      if (as->targets.size() != 1) return;
      auto *n = as->targets[0]->as<ast::Name>();
      if (!n) return;
      GlobalValue g;
      const ast::Expr *v = as->value.get();
      bool negate = false;
      if (auto *u = v->as<ast::UnaryOp>(); u && u->op == ast::UnaryOpKind::USub) {
        negate = true;
        v = u->operand.get();
      }
      if (auto *i = v->as<ast::IntLit>()) {
        g.kind = GlobalValue::Kind::Int;
        g.i = negate ? -i->value : i->value;
      } else if (auto *f = v->as<ast::FloatLit>()) {
        g.kind = GlobalValue::Kind::Float;
        g.f = negate ? -f->value : f->value;
      } else if (auto *b = v->as<ast::BoolLit>(); b && !negate) {
        g.kind = GlobalValue::Kind::Bool;
        g.b = b->value;
      } else {
        return;
      }
      globals_[n->id] = g;
    } else if (auto *i = s.as<ast::If>()) {
      for (auto &x : i->body) scan(*x);
    }
  }

  const SourceFile &file_;
  const ast::Module &module_;
  CompileOptions options_;
  std::map<std::string, GlobalValue> globals_;
  std::vector<std::string> functionNames_;
  std::map<std::string, CalleeSignature> compiled_;
  std::map<std::string, bool> inProgress_;
};

int usage() {
  std::cerr << "usage: mahouc FILE.py --function=NAME [--args=\"float64[:], int64\"]\n"
               "              [--emit=tokens|ast|ir|llvm|opt|asm|ptx] [--target=cpu|cuda] [--cc=9.0]\n"
               "              [--boundscheck] [--fastmath] [--parallel]\n";
  return 2;
}

} // namespace

int main(int argc, char **argv) {
  size_t runtimeCount = 0;
  const mahou::runtime::RuntimeSymbol *runtime = mahou::runtime::runtimeSymbols(&runtimeCount);
  mahou::jit::useRuntimeSymbols(runtime, runtimeCount);
  std::string path, function, argsText, emit = "ir", target = "cpu";
  KernelOptions kernelOptions;
  CompileOptions options;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&](const char *prefix) -> const char * {
      size_t n = std::strlen(prefix);
      return a.compare(0, n, prefix) == 0 ? argv[i] + n : nullptr;
    };
    if (auto v = value("--function=")) function = v;
    else if (auto v = value("--args=")) argsText = v;
    else if (auto v = value("--emit=")) emit = v;
    else if (auto v = value("--target=")) target = v;
    else if (auto v = value("--cc=")) {
      std::string cc = v; // "9.0" or "90"
      kernelOptions.ccMajor = cc[0] - '0';
      kernelOptions.ccMinor = cc.back() - '0';
    }
    else if (a == "--boundscheck") options.boundscheck = true;
    else if (a == "--parallel") options.parallel = true;
    else if (a == "--fastmath") options.fastmath = true;
    else if (a.rfind("--", 0) == 0) return usage();
    else path = a;
  }
  if (path.empty()) return usage();
  std::ifstream in(path);
  if (!in) {
    std::cerr << "mahouc: cannot read " << path << "\n";
    return 1;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  SourceFile file(path, ss.str(), 1);

  static const std::map<std::string, Stage> stages = {{"tokens", Stage::Tokens}, {"ast", Stage::Ast},
                                                      {"ir", Stage::IR},         {"llvm", Stage::LLVM},
                                                      {"opt", Stage::OptLLVM},   {"asm", Stage::Asm},
                                                      {"ptx", Stage::Asm}};
  auto st = stages.find(emit);
  if (st == stages.end()) return usage();
  try {
    std::vector<types::Type> args;
    if (!argsText.empty()) {
      std::string err;
      auto sig = types::parseSignature("(" + argsText + ")", &err);
      if (!sig) {
        std::cerr << "mahouc: " << err << "\n";
        return 2;
      }
      args = sig->args;
    }
    if (st->second != Stage::Tokens && function.empty()) return usage();
    ast::Module module = frontend::parseModule(file);
    FileEnvironment env(file, module, options);
    if (target == "cuda" && st->second != Stage::Tokens && st->second != Stage::Ast)
      std::cout << emitKernelStage(file, function, args, env, kernelOptions, st->second);
    else if (target == "cpu" || target == "cuda")
      std::cout << emitStage(file, function, args, env, options, st->second);
    else
      return usage();
    return 0;
  } catch (const UserError &e) {
    std::cerr << (e.kind() == DiagKind::Typing ? "TypingError: " : "UnsupportedError: ") << e.what() << "\n";
    return 1;
  } catch (const InternalError &e) {
    std::cerr << e.what() << "\n";
    return 3;
  }
}
