// Checks of an object file that comes from outside this process (a pickle, the on-disk
// cache) before the JIT links it: its ELF structure and its signature record.
#pragma once

#include "mahou/types.h"

#include <string>
#include <vector>

namespace mahou::jit {

// The name and the text of the constant every compiled overload's object defines: its
// argument types and return type as the code was compiled for them, so a loader can
// check the types it was told against the code it links.
std::string signatureSymbol(const std::string &symbol);
std::string signatureRecord(const std::vector<types::Type> &args, const types::Type &ret);

// Whether `object` is a well-formed relocatable ELF file for this host whose every
// offset stays inside its file or section: headers, sections, symbols (inside their
// section), string tables (terminated), relocations (a known type whose bytes lie inside
// the section they patch, a symbol that exists), groups; no section the loader would
// run code from (initialisers). And, when `signatureName` is not empty, that it
// defines that symbol with exactly `signature` as its bytes. Else false with *why.
bool checkObjectFile(const std::string &object, const std::string &signatureName, const std::string &signature,
                     std::string *why);

} // namespace mahou::jit
