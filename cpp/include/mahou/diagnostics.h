// Source locations and the two kinds of error the compiler raises: user errors
// (TypingError / UnsupportedError, with file:line:col and a caret) and internal errors.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace mahou {

// A position in the real source file: 1-based line (numbered as in the file on
// disk, not in the extracted snippet) and 1-based column.
struct Loc {
  int line = 0;
  int col = 0;
};

// The text handed to the compiler: the source of one function (or a whole file
// for mahouc), the path it came from and the file line number of its first line.
class SourceFile {
public:
  SourceFile(std::string path, std::string text, int firstLine = 1);

  const std::string &path() const { return path_; }
  const std::string &text() const { return text_; }
  int firstLine() const { return firstLine_; }
  // The text of file line `line` (without newline), or "" if out of range.
  std::string lineText(int line) const;

private:
  std::string path_;
  std::string text_;
  int firstLine_;
  std::vector<size_t> lineStarts_;
};

enum class DiagKind { Typing, Unsupported };

// A diagnostic about the user's program. what() is the full formatted message:
//   path:line:col: message
//       source line
//       ^
class UserError : public std::runtime_error {
public:
  UserError(DiagKind kind, std::string formatted, std::string message, Loc loc, std::string path = {})
      : std::runtime_error(std::move(formatted)), kind_(kind),
        message_(std::move(message)), loc_(loc), path_(std::move(path)) {}
  DiagKind kind() const { return kind_; }
  const std::string &message() const { return message_; }
  Loc loc() const { return loc_; }
  const std::string &path() const { return path_; } // the file `loc` is in

private:
  DiagKind kind_;
  std::string message_;
  Loc loc_;
  std::string path_;
};

// A bug in mahou itself: "internal compiler error: ...".
class InternalError : public std::logic_error {
public:
  explicit InternalError(const std::string &what)
      : std::logic_error("internal compiler error: " + what) {}
};

std::string formatDiagnostic(const SourceFile &file, Loc loc, const std::string &message);

[[noreturn]] void userError(DiagKind kind, const SourceFile &file, Loc loc,
                            const std::string &message);
[[noreturn]] void typingError(const SourceFile &file, Loc loc, const std::string &message);
[[noreturn]] void unsupported(const SourceFile &file, Loc loc, const std::string &message);
[[noreturn]] void internalError(const std::string &message);

#define MAHOU_INTERNAL_ASSERT(cond, msg)                                                 \
  do {                                                                                   \
    if (!(cond))                                                                         \
      ::mahou::internalError(std::string(msg) + " (" #cond ") at " __FILE__);            \
  } while (0)

} // namespace mahou
