// Native memory layout of values (what compiled code reads and writes): the
// binding boxes and unboxes with these, codegen builds matching LLVM types.
#pragma once

#include "mahou/types.h"

#include <cstddef>
#include <string>
#include <vector>

namespace mahou::types {

// bool: 1 byte (0/1); ints and floats: their C types; complex: {re, im};
// array of ndim N: MahouArrayHead + 2N int64 (runtime.h); tuple: C struct of its
// elements in order with natural alignment; none: 0 bytes (size reported as 0).
size_t nativeSize(const Type &t);
size_t nativeAlign(const Type &t);
// Byte offsets of a tuple's elements.
std::vector<size_t> tupleOffsets(const Type &t);
// Objects (list, dict, set, unicode) are one pointer; Optional(T) is T followed by a
// presence byte, padded to T's alignment.

// The runtime descriptor of a container item of type t (mahou/objects.h MahouTypeDesc
// followed by its reference offsets and fields), as bytes. Codegen and the binding
// build descriptors with this one function; the runtime interns them.
std::string typeDescriptor(const Type &t);

} // namespace mahou::types
