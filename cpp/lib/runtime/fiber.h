// Stackful fibers for the CUDA emulator: a context switch that saves only what the
// calling convention asks (x86-64: the callee-saved registers, MXCSR and the x87
// control word), without ucontext's signal-mask system call on every switch. Other
// architectures use ucontext.
#pragma once

#include <cstddef>

#if !defined(__x86_64__)
#include <ucontext.h>
#endif

namespace mahou::runtime {

struct FiberContext {
#if defined(__x86_64__)
  void *sp = nullptr; // the saved stack pointer (registers are on that stack)
#else
  ucontext_t uc;
#endif
};

// Prepares `ctx` to run entry(arg) on [stack, stack + bytes) at the first switch to it.
// entry must never return: it ends by switching away for good.
void fiberInit(FiberContext &ctx, char *stack, size_t bytes, void (*entry)(void *), void *arg);
// Saves the running context into `from` and resumes `to`.
void fiberSwitch(FiberContext &from, FiberContext &to);

} // namespace mahou::runtime
