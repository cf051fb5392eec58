// The stages of a compile in order, walked by every driver with its Target: parse (the
// syntax), versions (frontend/versions.cpp), type (sema), IR passes, prepare, lower
// (codegen), optimise, emit. Each stage is timed into the StageTimes the drivers report.
#include "pipeline.h"

#include "mahou/lexer.h"
#include "mahou/parser.h"
#include "mahou/versions.h"

#include <llvm/Support/raw_ostream.h>

#include <chrono>

namespace mahou::pipeline {

namespace {

using Clock = std::chrono::steady_clock;

struct StepInfo {
  Step step;
  double StageTimes::*timer; // null: the target times it (Prepare: the JIT's creation)
};

constexpr StepInfo kSteps[] = {
    {Step::Parse, &StageTimes::parseMs},      {Step::Versions, &StageTimes::parseMs},
    {Step::Type, &StageTimes::semaMs},        {Step::Passes, &StageTimes::semaMs},
    {Step::Prepare, nullptr},                 {Step::Lower, &StageTimes::codegenMs},
    {Step::Optimize, &StageTimes::optimizeMs}, {Step::Emit, &StageTimes::jitMs},
};

void runStep(Compilation &c, Target &target, Step step) {
  switch (step) {
  case Step::Parse:
    c.module = frontend::parseModuleSyntax(c.file);
    c.def = c.module.findFunction(c.name);
    if (!c.def)
      unsupported(c.file, Loc{c.file.firstLine(), 1}, "no top-level function named '" + c.name + "' in this source");
    return;
  case Step::Versions: frontend::splitVariableVersions(c.module); return;
  case Step::Type:
    target.checkSignature(c);
    c.fn = target.type(c);
    if (target.verifyIR()) ir::verify(*c.fn);
    target.checkTyped(c);
    return;
  case Step::Passes:
    target.passes(c);
    if (c.callees)
      for (const ir::Function *f : c.callees->functions()) c.helpers.push_back(f);
    for (auto &f : c.outlined) c.helpers.push_back(f.get());
    return;
  case Step::Prepare: target.prepare(c); return;
  case Step::Lower: target.lower(c); return;
  case Step::Optimize: target.optimize(c); return;
  case Step::Emit: target.emit(c); return;
  }
}

} // namespace

void run(Compilation &c, Target &target, Step last) {
  for (const StepInfo &s : kSteps) {
    if (c.finished) return;
    if (int(s.step) >= c.nextStep) {
      auto t0 = Clock::now();
      runStep(c, target, s.step);
      if (s.timer) c.times.*s.timer += std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
      c.nextStep = int(s.step) + 1;
    }
    if (s.step == last) return;
  }
}

Step lastStep(Stage stage) {
  switch (stage) {
  case Stage::Tokens:
  case Stage::Ast: return Step::Versions;
  case Stage::IR: return Step::Passes;
  case Stage::LLVM: return Step::Lower;
  case Stage::OptLLVM: return Step::Optimize;
  case Stage::Asm: return Step::Emit;
  }
  return Step::Emit;
}

std::string dumpStage(Compilation &c, Target &target, Stage stage, bool withHelpers) {
  if (stage == Stage::Tokens) return frontend::dumpTokens(frontend::tokenize(c.file));
  run(c, target, lastStep(stage));
  switch (stage) {
  case Stage::Ast: return ast::dumpAst(*c.def);
  case Stage::Asm: return target.assembly();
  case Stage::IR: {
    std::string text = ir::print(*c.fn);
    if (withHelpers)
      for (const ir::Function *f : c.helpers) text += ir::print(*f);
    return text;
  }
  default: {
    std::string s;
    llvm::raw_string_ostream os(s);
    c.llvmModule->print(os, nullptr);
    return os.str();
  }
  }
}

} // namespace mahou::pipeline
