// Private to the front end: Python-style repr() of literal values, shared by the
// token dump and the AST dump.
#pragma once

#include <string>
#include <string_view>

namespace mahou::frontend {

// repr(str): quoted with ' (or " when that avoids escapes), escapes for \\ \n \t ...
std::string pyStrRepr(std::string_view utf8);
// repr(bytes): b'...' with \xHH for bytes outside printable ASCII
std::string pyBytesRepr(std::string_view bytes);
// repr(float): shortest round-tripping digits, Python's fixed/scientific choice
// (0.1, 1.0, 1e-05, 1e+16, inf, nan).
std::string pyFloatRepr(double value);

} // namespace mahou::frontend
