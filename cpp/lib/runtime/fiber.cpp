// The emulator's fiber switch (fiber.h).
#include "fiber.h"

#include <cstdint>

#if defined(__x86_64__)

extern "C" void mahou_fiber_switch(void **saveSp, void *loadSp);
extern "C" void mahou_fiber_trampoline();

// mahou_fiber_switch: push the callee-saved registers and the FP control state, store
// the stack pointer, load the other one and pop its state. A new fiber's stack is laid
// out so that this "returns" into the trampoline with r12 = argument, r13 = entry.
asm(R"(
  .text
  .p2align 4
  .globl mahou_fiber_switch
  .hidden mahou_fiber_switch
  .type mahou_fiber_switch, @function
mahou_fiber_switch:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  subq $8, %rsp
  stmxcsr (%rsp)
  fnstcw 4(%rsp)
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  ldmxcsr (%rsp)
  fldcw 4(%rsp)
  addq $8, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size mahou_fiber_switch, .-mahou_fiber_switch

  .p2align 4
  .globl mahou_fiber_trampoline
  .hidden mahou_fiber_trampoline
  .type mahou_fiber_trampoline, @function
mahou_fiber_trampoline:
  movq %r12, %rdi
  callq *%r13
  ud2
  .size mahou_fiber_trampoline, .-mahou_fiber_trampoline
)");

namespace mahou::runtime {

void fiberInit(FiberContext &ctx, char *stack, size_t bytes, void (*entry)(void *), void *arg) {
  // The trampoline's address sits 8 bytes below a 16-byte aligned top, so that the
  // trampoline runs with an aligned stack and entry() is called as the ABI wants.
  uintptr_t top = (reinterpret_cast<uintptr_t>(stack) + bytes) & ~uintptr_t(15);
  auto *slot = reinterpret_cast<uint64_t *>(top - 8);
  slot[0] = reinterpret_cast<uint64_t>(&mahou_fiber_trampoline); // popped by `ret`
  slot[-1] = 0;                                                 // rbp
  slot[-2] = 0;                                                 // rbx
  slot[-3] = reinterpret_cast<uint64_t>(arg);                   // r12
  slot[-4] = reinterpret_cast<uint64_t>(entry);                 // r13
  slot[-5] = 0;                                                 // r14
  slot[-6] = 0;                                                 // r15
  auto *fp = reinterpret_cast<uint32_t *>(&slot[-7]);
  fp[0] = 0x1F80; // MXCSR: all exceptions masked, round to nearest
  fp[1] = 0x037F; // x87 control word: the default
  ctx.sp = &slot[-7];
}

void fiberSwitch(FiberContext &from, FiberContext &to) { mahou_fiber_switch(&from.sp, to.sp); }

} // namespace mahou::runtime

#else // ucontext elsewhere

namespace mahou::runtime {

namespace {
void ucontextEntry(unsigned lo, unsigned hi, unsigned elo, unsigned ehi) {
  auto arg = reinterpret_cast<void *>((uintptr_t(hi) << 32) | lo);
  auto entry = reinterpret_cast<void (*)(void *)>((uintptr_t(ehi) << 32) | elo);
  entry(arg);
}
} // namespace

void fiberInit(FiberContext &ctx, char *stack, size_t bytes, void (*entry)(void *), void *arg) {
  getcontext(&ctx.uc);
  ctx.uc.uc_stack.ss_sp = stack;
  ctx.uc.uc_stack.ss_size = bytes;
  ctx.uc.uc_link = nullptr;
  uintptr_t a = reinterpret_cast<uintptr_t>(arg), e = reinterpret_cast<uintptr_t>(entry);
  makecontext(&ctx.uc, reinterpret_cast<void (*)()>(ucontextEntry), 4, unsigned(a), unsigned(a >> 32), unsigned(e),
              unsigned(e >> 32));
}

void fiberSwitch(FiberContext &from, FiberContext &to) { swapcontext(&from.uc, &to.uc); }

} // namespace mahou::runtime

#endif
