"""The Python reference run. Compiled integers are int64 and wrap, Python's do not, so
the reference source is instrumented: the value of every operation and call is checked
and an int outside int64 raises Int64Overflow; such an input is skipped (the compiled
code's wraparound is documented, not a bug). Errors that compiled code documents as
different (math domain errors give NaN, float overflow gives inf, int() of NaN or inf)
also skip the input unless compiled code raised the same, and so does `math.copysign` of
a NaN (the sign of a made NaN is not specified). `sum()` adds left to right, as compiled
code does, on every Python version."""

import ast
import math
import ctypes
import ctypes.util
import operator

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1


class DocumentedDifference(BaseException):
    """The reference did something compiled code documents as different: an int left
    int64, or a math function, int() or round() raised ValueError/OverflowError (NaN,
    inf or a saturated value in compiled code). A BaseException, so that the generated
    program's own `except` clauses cannot catch it: the input is skipped.

    A `finally` block can still lose it (a `return`, `break` or `continue` there ends
    it, an exception raised there replaces it) and the run then goes on along a path
    compiled code never takes; so every one raised is also recorded (`raised`), and the
    worker skips the input when the reference call raised one, whatever it returned."""

    raised = []  # those raised since the worker last cleared it (before each reference call)

    def __init__(self, kind, detail=""):
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        DocumentedDifference.raised.append(self)


def Int64Overflow(v):
    return DocumentedDifference("OverflowError", f"int64 overflow: {v}")


def guarded_call(fn, *args, **kwargs):
    if fn is math.copysign and len(args) == 2 and type(args[1]) is float and math.isnan(args[1]):
        # The sign of a NaN that an invalid operation made is not specified: the hardware's
        # at run time (negative on x86, as in CPython), positive where LLVM folded the
        # operation at compile time (as in Numba); copysign is what shows it.
        raise DocumentedDifference("NaN sign", f"copysign{args}")
    try:
        return fn(*args, **kwargs)
    except (ValueError, OverflowError) as e:
        raise DocumentedDifference(type(e).__name__, str(e)) from None


SQUARING_LIMIT = 0x10000  # beyond it compiled code (as Numba) calls pow()


def float_int_power(x, n):
    """x ** n for a float x and an int n as compiled code (as Numba) computes it:
    repeated squaring in floating point, 1/r for a negative exponent; it can differ
    from C's pow() in the last bit."""
    r, square, m = 1.0, x, abs(n)
    while m:
        if m & 1:
            r *= square
        m >>= 1
        if m:
            square *= square
    if n < 0:
        if r == 0.0:
            raise ZeroDivisionError("0.0 cannot be raised to a negative power")
        return 1.0 / r
    return r


def guarded_pow(a, b):
    if type(a) is float and type(b) in (int, bool) and abs(b) <= SQUARING_LIMIT:
        return float_int_power(a, int(b))
    try:
        return a ** b
    except OverflowError as e:  # a float power past the float range: inf in compiled code
        raise DocumentedDifference("OverflowError", str(e)) from None


_libm = ctypes.CDLL(ctypes.util.find_library("m"))
_libm.hypot.restype = ctypes.c_double
_libm.hypot.argtypes = [ctypes.c_double, ctypes.c_double]


def libm_hypot(x, y):
    """math.hypot(x, y) as compiled code (and Numba) computes it: C's hypot(). CPython
    has its own algorithm (correctly rounded more often); the two can differ in the last
    bit, and CPython raises OverflowError where C's returns inf."""
    return _libm.hypot(x, y)


def in_place(x, y, name):
    """x += y / x *= y of a list, x |= y (&=, -=, ^=) of a set: the list or set itself
    changes (operator.iadd, imul, ior, ...), as compiled code does too."""
    return getattr(operator, name)(x, y)


def true_div(a, b):
    """a / b; of two ints as compiled code (and Numba) divides them: converted to float
    first (past 2**53 CPython's correctly rounded quotient can differ in the last bit)."""
    if type(a) in (int, bool) and type(b) in (int, bool):
        return float(a) / float(b)
    return a / b


def left_to_right_sum(iterable, start=0):
    """sum() as compiled code (and Numba) adds: left to right. CPython 3.12 and later sum
    floats with compensated (Neumaier) summation, which can differ in the last places."""
    total = start
    for x in iterable:
        total = total + x
    return total


_COMPARE = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
            ast.Gt: operator.gt, ast.GtE: operator.ge, ast.Is: operator.is_, ast.IsNot: operator.is_not,
            ast.In: lambda a, b: operator.contains(b, a), ast.NotIn: lambda a, b: not operator.contains(b, a)}


def _numeric_pair(a, b):
    """An int (or bool) compared with a float is converted to float first, as compiled
    code (and Numba) compare them; CPython compares the exact values."""
    if type(a) in (int, bool) and type(b) is float:
        return float(a), b
    if type(a) is float and type(b) in (int, bool):
        return a, float(b)
    return a, b


def compare_one(op, a, b):
    if op in (ast.In, ast.NotIn) and type(b) is tuple:
        found = any(compare_one(ast.Eq, a, x) for x in b)
        return found if op is ast.In else not found
    if op not in (ast.Is, ast.IsNot, ast.In, ast.NotIn):
        a, b = _numeric_pair(a, b)
    return _COMPARE[op](a, b)


def compare_chain(first, rest):
    """`first op1 x1 op2 x2 ...` with each x a thunk, evaluated only while the chain holds."""
    left = first
    for op, thunk in rest:
        right = thunk()
        if not compare_one(op, left, right):
            return False
        left = right
    return True


# Calls whose ValueError/OverflowError compiled code documents as NaN, inf or saturation.
GUARDED_NAMES = {"int", "round"}


def check_int64(v):
    if type(v) is int:
        if not INT64_MIN <= v <= INT64_MAX:
            raise Int64Overflow(v)
    elif type(v) is tuple:
        for x in v:
            check_int64(x)
    return v


class _Instrument(ast.NodeTransformer):
    def _wrap(self, node):
        return ast.copy_location(ast.Call(func=ast.Name("__check_int64", ast.Load()), args=[node], keywords=[]), node)

    def visit_BinOp(self, node):
        self.generic_visit(node)
        if isinstance(node.op, ast.Pow):
            node = ast.copy_location(ast.Call(func=ast.Name("__guarded_pow", ast.Load()),
                                              args=[node.left, node.right], keywords=[]), node)
        elif isinstance(node.op, ast.Div):
            node = ast.copy_location(ast.Call(func=ast.Name("__true_div", ast.Load()),
                                              args=[node.left, node.right], keywords=[]), node)
        return self._wrap(node)

    def visit_Compare(self, node):
        self.generic_visit(node)
        rest = ast.List(elts=[ast.Tuple(elts=[ast.Attribute(ast.Name("__ast", ast.Load()), type(op).__name__, ast.Load()),
                                              ast.Lambda(args=ast.arguments(posonlyargs=[], args=[], kwonlyargs=[],
                                                                            kw_defaults=[], defaults=[]), body=x)],
                                        ctx=ast.Load())
                              for op, x in zip(node.ops, node.comparators)], ctx=ast.Load())
        return ast.copy_location(ast.Call(func=ast.Name("__compare_chain", ast.Load()), args=[node.left, rest],
                                          keywords=[]), node)

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        return self._wrap(node)

    def visit_Call(self, node):
        self.generic_visit(node)
        f = node.func
        guarded = (isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "math") or \
                  (isinstance(f, ast.Name) and f.id in GUARDED_NAMES)
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "math" and \
                f.attr == "hypot" and len(node.args) == 2 and not node.keywords:
            node = ast.copy_location(ast.Call(func=ast.Name("__libm_hypot", ast.Load()), args=node.args,
                                              keywords=[]), node)
        elif isinstance(f, ast.Name) and f.id == "pow" and len(node.args) == 2 and not node.keywords:
            node = ast.copy_location(ast.Call(func=ast.Name("__guarded_pow", ast.Load()), args=node.args,
                                              keywords=[]), node)
        elif isinstance(f, ast.Name) and f.id == "sum" and not node.keywords:
            node = ast.copy_location(ast.Call(func=ast.Name("__sum", ast.Load()), args=node.args, keywords=[]),
                                     node)
        elif guarded:
            node = ast.copy_location(ast.Call(func=ast.Name("__guarded_call", ast.Load()), args=[f] + node.args,
                                              keywords=node.keywords), node)
        return self._wrap(node)

    def visit_AugAssign(self, node):
        self.generic_visit(node)
        if isinstance(node.target, ast.Name):
            value = ast.BinOp(left=ast.Name(node.target.id, ast.Load()), op=node.op, right=node.value)
            if isinstance(node.op, ast.Div):
                value = ast.Call(func=ast.Name("__true_div", ast.Load()),
                                 args=[ast.Name(node.target.id, ast.Load()), node.value], keywords=[])
            value = self._wrap(ast.copy_location(value, node))
            in_place = {ast.Add: "iadd", ast.Mult: "imul", ast.BitOr: "ior", ast.BitAnd: "iand", ast.Sub: "isub",
                        ast.BitXor: "ixor"}.get(type(node.op))
            if in_place:  # a list or set changes in place (x += y is x.extend(y), s |= t is s.update(t))
                name = in_place
                target = ast.Name(node.target.id, ast.Load())
                value = ast.IfExp(test=ast.Call(func=ast.Name("__is_mutable", ast.Load()), args=[target], keywords=[]),
                                  body=ast.Call(func=ast.Name("__in_place", ast.Load()),
                                                args=[ast.Name(node.target.id, ast.Load()), node.value,
                                                      ast.Constant(name)], keywords=[]),
                                  orelse=value)
            return ast.copy_location(ast.Assign(targets=[ast.Name(node.target.id, ast.Store())],
                                                value=ast.copy_location(value, node)), node)
        return node

    def visit_match_case(self, node):
        # A pattern holds literals (`-3` is one), not operations: only the guard and the
        # body are instrumented.
        if node.guard is not None:
            node.guard = self.visit(node.guard)
        body = []
        for stmt in node.body:
            out = self.visit(stmt)
            body += out if isinstance(out, list) else [out] if out is not None else []
        node.body = body
        return node

    def visit_FunctionDef(self, node):
        node.decorator_list = []
        self.generic_visit(node)
        return node


def load_reference(source, path, name):
    """The program as a module dict, functions undecorated and instrumented."""
    tree = _Instrument().visit(ast.parse(source, path))
    ast.fix_missing_locations(tree)
    namespace = {"__name__": name, "__file__": path, "__check_int64": check_int64,
                 "__guarded_call": guarded_call, "__guarded_pow": guarded_pow,
                 "__true_div": true_div, "__sum": left_to_right_sum,
                 "__is_mutable": lambda x: type(x) in (list, set), "__in_place": in_place,
                 "__libm_hypot": libm_hypot, "__compare_chain": compare_chain, "__ast": ast}
    exec(compile(tree, path, "exec"), namespace)
    return namespace


