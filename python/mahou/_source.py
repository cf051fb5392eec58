"""The source text of a function to compile. mahou compiles Python source (not
bytecode), so it looks where Python keeps it: the file, linecache (IPython and Jupyter
keep every cell there; so can code that exec()s a string it registered), the command
line of `python -c`, and, for a function decorated inside a running exec() of a string, a
local variable holding that string in a frame on the stack (checked by compiling it).
Where none has it, the error says so and what to do."""

import inspect
import linecache
import sys

from .errors import UnsupportedError

_NO_SOURCE_HELP = (
    "mahou compiles a function from its source text (Numba reads bytecode), and Python did not "
    "keep it for {where}. Define the function in a .py file (or a notebook cell), or register "
    "the text before exec(): linecache.cache[filename] = (len(src), None, src.splitlines(True), "
    "filename); exec(compile(src, filename, 'exec'))")


def _command_line_source():
    """The program text of `python -c '...'`, or None."""
    argv = getattr(sys, "orig_argv", None) or []
    for i, arg in enumerate(argv[1:], start=1):
        if arg == "-c" and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith("-c") and len(arg) > 2 and not arg.startswith("--"):
            return arg[2:]
        if not arg.startswith("-"):  # a script or module name: no -c
            return None
    return None


def _block_at(lines, firstlineno, name):
    """The def block (with its decorators) starting at line `firstlineno` of `lines`, if it
    really is the definition of `name`; else None."""
    if not 1 <= firstlineno <= len(lines):
        return None
    block = inspect.getblock(lines[firstlineno - 1:])
    text = "".join(block)
    for line in block:
        stripped = line.lstrip()
        if stripped.startswith(("def ", "async def ")):
            head = stripped.split("(", 1)[0].split()
            return text if head and head[-1] == name else None
        if stripped.startswith("@") or not stripped or stripped.startswith("#"):
            continue
        return None
    return None


def _defines(code_obj, target):
    """Whether the module code `code_obj` defines a function with `target`'s bytecode at
    the same line (the text compiled is the function's source)."""
    for const in code_obj.co_consts:
        if hasattr(const, "co_code"):
            if (const.co_name == target.co_name and const.co_firstlineno == target.co_firstlineno
                    and const.co_code == target.co_code and const.co_consts == target.co_consts):
                return True
            if _defines(const, target):
                return True
    return False


def _exec_source(func):
    """The text a function was exec()'d from, while that exec() is running (a decorator
    compiles at definition): a string held by a local variable of a frame on the stack
    (the function that called exec, typically) that compiles to this very function. None
    when no such string is found."""
    code = func.__code__
    needle = "def " + func.__name__
    frame = sys._getframe(1)
    for _ in range(64):
        if frame is None:
            return None
        for value in list(frame.f_locals.values()):
            if not isinstance(value, str) or needle not in value or len(value) > 1 << 22:
                continue
            try:
                compiled = compile(value, code.co_filename, "exec", dont_inherit=True)
            except (SyntaxError, ValueError):
                continue
            if _defines(compiled, code):
                return value
        frame = frame.f_back
    return None


def _describe(filename):
    if filename == "<stdin>":
        return "code read from standard input (python - or a pipe)"
    if filename == "<string>":
        return "code run from a string (python -c, or exec()/compile() of a string)"
    if not filename or filename == "<exec>":
        return ("a function made by exec() of a string (mahou finds the string only while exec() runs, "
                "in a local variable of a function on the stack, when the decorator compiles it)")
    return f"code compiled from {filename!r} with no file of that name"


def _code_points(code):
    """The (line, column) starts and ends of a code object's own instructions (Python
    3.11's co_positions; columns in UTF-8 bytes, as the ast's), or None before 3.11.
    The zero-width positions the compiler gives its own instructions are left out."""
    positions = getattr(code, "co_positions", None)
    if positions is None:
        return None
    points = []
    for line, end_line, col, end_col in positions():
        if None in (line, end_line, col, end_col) or (line == end_line and col == end_col):
            continue
        points.append(((line, col), (end_line, end_col)))
    return points


def _span(node):
    return (node.lineno, node.col_offset), (node.end_lineno, node.end_col_offset)


def _lambda_at(lambdas, code):
    """The lambda whose body holds every instruction of `code` (the innermost: an outer
    lambda's body holds an inner one's). Before Python 3.11 (no positions), the one of
    the first line whose bytecode is the same as `code`'s, if only one is."""
    points = _code_points(code)
    if points is not None:
        holding = []
        for node in lambdas:
            lo, hi = _span(node.body)
            if points and all(lo <= a and b <= hi for a, b in points):
                holding.append(node)
        return min(holding, key=lambda n: (_span(n)[1][0] - _span(n)[0][0], _span(n)[1][1] - _span(n)[0][1]),
                   default=None) if holding else None
    same = []
    for node in lambdas:
        if node.lineno != code.co_firstlineno:
            continue
        try:
            import ast
            probe = compile(ast.Expression(node), "<probe>", "eval")
        except (SyntaxError, ValueError, TypeError):
            continue
        inner = [c for c in probe.co_consts if hasattr(c, "co_code")]
        if inner and inner[0].co_code == code.co_code and inner[0].co_consts == code.co_consts and \
                inner[0].co_varnames == code.co_varnames:
            same.append(node)
    return same[0] if len(same) == 1 else None


def _lambda_source(text, code):
    """A lambda's own text in `text` (the whole file, cell or -c program): the lambda
    expression alone, in parentheses, at its line and column, so that diagnostics name
    the right place. The lambda is found by the positions of its code (never by line
    alone: a line may hold several lambdas)."""
    import ast
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return None
    lambdas = [n for n in ast.walk(tree) if isinstance(n, ast.Lambda)]
    node = _lambda_at(lambdas, code)
    if node is None:
        return None
    segment = ast.get_source_segment(text, node)
    if segment is None:
        return None
    lines = text.splitlines(True)
    prefix = lines[node.lineno - 1].encode("utf-8")[:node.col_offset].decode("utf-8", "replace")
    return " " * max(len(prefix) - 1, 0) + "(" + segment + ")\n"


def _without_decorators(source):
    """The function's own decorators (Python, not compiled code: `locals={...}`,
    `cache=True`, ...) blanked out, keeping every line where it was."""
    if not source.lstrip().startswith("@"):
        return source
    import ast
    import textwrap
    try:
        tree = ast.parse(textwrap.dedent(source))
    except SyntaxError:
        return source
    if not tree.body or not isinstance(tree.body[0], (ast.FunctionDef, ast.AsyncFunctionDef)):
        return source
    lines = source.splitlines(True)
    first = tree.body[0].lineno - 1
    return "".join("\n" for _ in lines[:first]) + "".join(lines[first:])


def source_of(func):
    """(source, filename, first line) of a Python function, or UnsupportedError. For a
    lambda the source is the lambda expression alone (mahou's parser finds it there)."""
    code = func.__code__
    filename = code.co_filename
    if func.__name__ == "<lambda>":
        texts = []
        if filename == "<string>":
            texts.append(_command_line_source())
        texts.append("".join(linecache.getlines(filename, getattr(func, "__globals__", None))))
        for text in texts:
            if text:
                source = _lambda_source(text, code)
                if source is not None:
                    return source, filename, code.co_firstlineno
        if any(texts):  # the text is there, but no lambda in it is this one (changed since?)
            raise UnsupportedError(f"cannot compile the lambda of {filename}:{code.co_firstlineno}: its source "
                                   "text no longer holds it at the position its code records")
    try:
        source = inspect.getsource(func)  # not dedented: the lexer takes the base indent
        return _without_decorators(source), inspect.getsourcefile(func) or filename, code.co_firstlineno
    except (OSError, TypeError) as exc:
        reason = exc
    if filename == "<string>":
        text = _command_line_source()
        if text is not None:
            block = _block_at(text.splitlines(True), code.co_firstlineno, func.__name__)
            if block is not None:
                return _without_decorators(block), filename, code.co_firstlineno
    lines = linecache.getlines(filename, getattr(func, "__globals__", None))
    if lines:
        block = _block_at(lines, code.co_firstlineno, func.__name__)
        if block is not None:
            return block, filename, code.co_firstlineno
    text = _exec_source(func)  # exec(compile(src, "", "exec")) running the decorator now
    if text is not None:
        block = _block_at(text.splitlines(True), code.co_firstlineno, func.__name__)
        if block is not None:
            return _without_decorators(block), filename or "<exec>", code.co_firstlineno
    name = getattr(func, "__qualname__", func.__name__)
    if not filename or (filename.startswith("<") and filename.endswith(">")):
        raise UnsupportedError(f"cannot compile {name!r}: its source code is not available. "
                               + _NO_SOURCE_HELP.format(where=_describe(filename))) from None
    raise UnsupportedError(f"cannot compile {name!r}: its source code is not available "
                           f"({reason})") from None


def _class_lines(cls):
    """The first lines of the functions defined in a class's body."""
    lines = []
    for value in vars(cls).values():
        for f in (value, getattr(value, "__func__", None), getattr(value, "fget", None), getattr(value, "fset", None)):
            code = getattr(f, "__code__", None)
            if code is not None:
                lines.append(code.co_firstlineno)
    return lines


def class_source(cls):
    """The source of a class's body: the class statement of its module that holds its
    functions (a module may define a class of that name twice; inspect takes the first)."""
    import ast
    first = getattr(cls, "__firstlineno__", None)  # Python 3.13
    lines = _class_lines(cls)
    try:
        text_lines, _ = inspect.findsource(cls)
    except (OSError, TypeError):
        text_lines = None
    if text_lines and (first or lines):
        text = "".join(text_lines)
        try:
            tree = ast.parse(text)
        except SyntaxError:
            tree = None
        if tree is not None:
            for node in ast.walk(tree):
                if not isinstance(node, ast.ClassDef) or node.name != cls.__name__:
                    continue
                start = min([d.lineno for d in node.decorator_list] + [node.lineno])
                if (first and start == first) or (not first and all(start <= n <= node.end_lineno for n in lines)):
                    return "".join(text_lines[start - 1:node.end_lineno])
    return inspect.getsource(cls)
