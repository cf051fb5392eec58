// Source files with a line index, and formatting/throwing of user diagnostics
// ("path:line:col: message" + the source line + a caret) and internal errors.
#include "mahou/diagnostics.h"

namespace mahou {

SourceFile::SourceFile(std::string path, std::string text, int firstLine)
    : path_(std::move(path)), text_(std::move(text)), firstLine_(firstLine) {
  lineStarts_.push_back(0);
  for (size_t i = 0; i < text_.size(); ++i)
    if (text_[i] == '\n' && i + 1 < text_.size())
      lineStarts_.push_back(i + 1);
}

std::string SourceFile::lineText(int line) const {
  long idx = static_cast<long>(line) - firstLine_;
  if (idx < 0 || idx >= static_cast<long>(lineStarts_.size()) || text_.empty())
    return "";
  size_t begin = lineStarts_[idx];
  size_t end = text_.find('\n', begin);
  if (end == std::string::npos)
    end = text_.size();
  if (end > begin && text_[end - 1] == '\r')
    --end;
  return text_.substr(begin, end - begin);
}

namespace {

// The caret line: spaces up to column `col`, keeping tabs so the caret lines up.
std::string caretLine(const std::string &source, int col) {
  std::string out = "    ";
  for (int i = 0; i + 1 < col; ++i)
    out += (i < static_cast<int>(source.size()) && source[i] == '\t') ? '\t' : ' ';
  out += '^';
  return out;
}

} // namespace

std::string formatDiagnostic(const SourceFile &file, Loc loc, const std::string &message) {
  std::string out = file.path() + ":" + std::to_string(loc.line) + ":" +
                    std::to_string(loc.col) + ": " + message;
  std::string source = file.lineText(loc.line);
  bool blank = source.find_first_not_of(" \t\f\r") == std::string::npos;
  if (loc.line <= 0 || blank)
    return out;
  out += "\n    " + source + "\n" + caretLine(source, loc.col);
  return out;
}

void userError(DiagKind kind, const SourceFile &file, Loc loc, const std::string &message) {
  throw UserError(kind, formatDiagnostic(file, loc, message), message, loc, file.path());
}

void typingError(const SourceFile &file, Loc loc, const std::string &message) {
  userError(DiagKind::Typing, file, loc, message);
}

void unsupported(const SourceFile &file, Loc loc, const std::string &message) {
  userError(DiagKind::Unsupported, file, loc, message);
}

void internalError(const std::string &message) { throw InternalError(message); }

} // namespace mahou
