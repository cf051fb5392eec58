"""`with objmode(x='float64'):` blocks: code inside a compiled function that the
interpreter runs. The compiler keeps the block as a call (sema/objmode.cpp); here the
block is read again from the function's source with Python's own parser and made into a
Python function: its parameters are the variables compiled code passes in, its result the
declared outputs. Outside compiled code `objmode(...)` is a context manager that does
nothing, so the same function runs unchanged in the interpreter (DISABLE_JIT)."""

import ast
import textwrap


class _ObjModeContext:
    """mahou.objmode (numba.objmode): `with objmode(name='type', ...):` runs its body in the
    interpreter; each name assigned in it and used after it is declared with its type."""

    def __call__(self, *args, **kwargs):
        return self

    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False

    def __repr__(self):
        return "mahou.objmode"


objmode = _ObjModeContext()


class _Unbound:
    """What compiled code passes for a variable not assigned yet where a block runs."""

    __slots__ = ()

    def __repr__(self):
        return "<unbound variable>"


UNBOUND = _Unbound()

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def _walk_scope(node):
    """The nodes of `node`'s own scope (not inside nested functions, lambdas, classes)."""
    stack = list(ast.iter_child_nodes(node))
    while stack:
        n = stack.pop()
        yield n
        if not isinstance(n, _SCOPES):
            stack.extend(ast.iter_child_nodes(n))


def _find_with(tree, line):
    for node in ast.walk(tree):
        if isinstance(node, (ast.With, ast.AsyncWith)) and node.lineno == line:
            return node
    return None


def _escaping_jump(body):
    """The first return/yield/await in the block, or break/continue outside a loop of it."""
    def visit(nodes, in_loop):
        for n in nodes:
            if isinstance(n, _SCOPES):
                continue
            if isinstance(n, (ast.Return, ast.Yield, ast.YieldFrom, ast.Await)):
                return n
            if isinstance(n, (ast.Break, ast.Continue)) and not in_loop:
                return n
            loop = isinstance(n, (ast.For, ast.While, ast.AsyncFor))
            if loop:
                found = visit(n.body, True) or visit(n.orelse, in_loop)
            else:
                found = visit(list(ast.iter_child_nodes(n)), in_loop)
            if found is not None:
                return found
        return None
    return visit(body, False)


def _stored_names(body):
    names = []
    for stmt in body:
        for n in [stmt, *_walk_scope(stmt)]:
            if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)) and n.id not in names:
                names.append(n.id)
            elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and n.name not in names:
                names.append(n.name)
            elif isinstance(n, (ast.Import, ast.ImportFrom)):
                for a in n.names:
                    name = (a.asname or a.name).split(".")[0]
                    if name not in names:
                        names.append(name)
    return names


def _read_after(func_node, with_node, name):
    """Whether `name` is read in the function after the block (later lines, or anywhere in
    a loop around the block: its next iteration)."""
    end = with_node.end_lineno
    loops = [n for n in _walk_scope(func_node)
             if isinstance(n, (ast.For, ast.While)) and n.lineno < with_node.lineno <= n.end_lineno]
    for n in _walk_scope(func_node):
        if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load):
            if with_node.lineno <= n.lineno <= end:
                continue
            if n.lineno > end or any(l.lineno <= n.lineno <= l.end_lineno for l in loops):
                return True
    return False


def _type_text(value, name):
    from . import _core
    from . import types as _types
    from ._jitclass import _type_text as spec_type_text
    if isinstance(value, str):
        try:
            return _core.parse_type(value)
        except Exception:
            try:
                value = eval(value, dict(vars(_types)))  # numba.types spellings: 'float64[:]'
            except Exception:
                raise TypeError(f"objmode output '{name}': {value!r} is not a type mahou knows") from None
    try:
        return _core.parse_type(spec_type_text(value, f"objmode output '{name}'"))
    except TypeError:
        raise
    except Exception as exc:
        raise TypeError(f"objmode output '{name}': {value!r} is not a type mahou knows ({exc})") from None


def prepare_block(func, line, outputs, inputs):
    """The Python function of the objmode block whose `with` is at `line` of `func`:
    ("block", function, [output type texts]) or ("error", message). `inputs` are the
    (name, type text) of the variables compiled code passes, in order."""
    from ._source import source_of
    source, filename, firstlineno = source_of(func)
    tree = ast.parse(textwrap.dedent(source))
    ast.increment_lineno(tree, firstlineno - 1)
    func_node = next((n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))), None)
    with_node = _find_with(tree, line)
    if func_node is None or with_node is None:
        return ("error", f"cannot find the objmode block of line {line} in the source of '{func.__name__}'")
    call = with_node.items[0].context_expr
    keywords = call.keywords if isinstance(call, ast.Call) else []

    cells = dict(zip(func.__code__.co_freevars, func.__closure__ or ()))
    closure = {}
    for name, cell in cells.items():
        try:
            closure[name] = cell.cell_contents
        except ValueError:  # an empty cell
            pass
    scope = dict(func.__globals__)
    scope.update(closure)
    texts = []
    for kw in keywords:
        try:
            value = eval(compile(ast.Expression(kw.value), filename, "eval"), scope)
            texts.append(_type_text(value, kw.arg))
        except Exception as exc:  # noqa: BLE001 - the message names the output
            return ("error", f"the type of objmode output '{kw.arg}' cannot be read: {exc}")

    jump = _escaping_jump(with_node.body)
    if jump is not None:
        what = type(jump).__name__.lower().replace("yieldfrom", "yield from")
        return ("error", f"'{what}' inside an objmode block (line {jump.lineno}) is not supported: "
                         "the block runs in the interpreter and must end by falling off its end")
    stored = _stored_names(with_node.body)
    input_names = [name for name, _ in inputs]
    for out in outputs:
        if out not in stored and out not in input_names:
            return ("error", f"objmode output '{out}' is not assigned in the block")
    missing = [n for n in stored if n not in outputs and _read_after(func_node, with_node, n)]
    if missing:
        example = ", ".join(f"{n}='<type>'" for n in missing)
        return ("error", f"the objmode block assigns {', '.join(repr(n) for n in missing)}, used after it, "
                         f"without declaring the type: with objmode({example}): ...")

    if len(outputs) == 1:
        result = ast.Name(id=outputs[0], ctx=ast.Load())
    elif outputs:
        result = ast.Tuple(elts=[ast.Name(id=o, ctx=ast.Load()) for o in outputs], ctx=ast.Load())
    else:
        result = ast.Constant(value=None)
    end = with_node.end_lineno

    # The function's own locals the block reads that compiled code does not pass (no
    # assignment reaches the block): unbound there, as in Python (UnboundLocalError).
    loaded = {n.id for stmt in with_node.body for n in [stmt, *_walk_scope(stmt)]
              if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    unassigned = sorted(n for n in loaded & set(func.__code__.co_varnames) if n not in input_names)

    def arguments(names, keywords=(), default=None):
        return ast.arguments(posonlyargs=[], args=[ast.arg(arg=n) for n in names], vararg=None,
                             kwonlyargs=[ast.arg(arg=n) for n in keywords],
                             kw_defaults=[default for _ in keywords], kwarg=None, defaults=[])

    def function(name, params, body, keywords=(), default=None):
        fields = dict(name=name, args=arguments(params, keywords, default), body=body, decorator_list=[], returns=None,
                      lineno=with_node.lineno, col_offset=0, end_lineno=end, end_col_offset=0)
        if "type_params" in ast.FunctionDef._fields:  # Python 3.12+
            fields["type_params"] = []
        return ast.FunctionDef(**fields)

    # `if x is <unbound>: del x` for each input: a variable compiled code has not assigned
    # yet is unbound in the block too.
    marker = "_mahou_unbound_"
    while marker in input_names or marker in closure or marker in loaded:
        marker += "_"
    unbind = [ast.If(test=ast.Compare(left=ast.Name(id=n, ctx=ast.Load()), ops=[ast.Is()],
                                      comparators=[ast.Name(id=marker, ctx=ast.Load())]),
                     body=[ast.Delete(targets=[ast.Name(id=n, ctx=ast.Del())])], orelse=[])
              for n in [*input_names, *unassigned]]
    for node in unbind:
        ast.copy_location(node, with_node)
    block = function("objmode_block", input_names,
                     [*unbind, *with_node.body,
                      ast.Return(value=result, lineno=end, col_offset=0, end_lineno=end, end_col_offset=0)],
                     unassigned, ast.Name(id=marker, ctx=ast.Load()))
    # The function's closure variables are frozen, as Numba freezes them.
    top = function("objmode_closure", [marker, *closure],
                   [block, ast.Return(value=ast.Name(id="objmode_block", ctx=ast.Load()))])
    module = ast.Module(body=[top], type_ignores=[])
    ast.fix_missing_locations(module)
    namespace = {}
    exec(compile(module, filename, "exec"), func.__globals__, namespace)
    fn = namespace[top.name](UNBOUND, *closure.values())
    fn.__qualname__ = f"{func.__qualname__}.<objmode block line {line}>"
    return ("block", fn, texts, UNBOUND)
