// Allocation failures in the runtime's C++ code. Compiled code cannot unwind a C++
// exception: one leaving an extern "C" runtime function ends the process
// (std::terminate). A runtime function whose C++ code allocates (std::vector,
// std::string) and whose result can report an error (null, or a nonzero status) is a
// function-try-block ending in MAHOU_RT_CATCH_ALLOC(failure): std::bad_alloc (or a
// length_error from a container too long to exist) becomes a pending MemoryError and
// the function returns `failure`, as a failed malloc is reported. A function whose
// result cannot report an error must not allocate that way.
#pragma once

#include "mahou/runtime.h"
#include "mahou/types.h"

#include <new>
#include <stdexcept>

namespace mahou::runtime {

template <class T> T outOfMemory(T failure) {
  mahou_rt_set_error(int32_t(types::ExcKind::MemoryError), "out of memory");
  return failure;
}

} // namespace mahou::runtime

#define MAHOU_RT_CATCH_ALLOC(failure)                                                                        \
  catch (const std::bad_alloc &) {                                                                           \
    return mahou::runtime::outOfMemory(failure);                                                             \
  }                                                                                                          \
  catch (const std::length_error &) {                                                                        \
    return mahou::runtime::outOfMemory(failure);                                                             \
  }
