"""The program generator's core: types, scopes, and the registry through which each
feature module (scalars, control flow, arrays, tuples, ...) adds the expressions and
statements it can produce. A program is a module of a few functions; every value has
one type for its whole life (as in compiled code), every loop ends, and every array
index is either reduced modulo the extent or checked (boundscheck=True), so the
program's meaning is the same under CPython and compiled."""

import random

# ---------------------------------------------------------------- types
# 'int' (Python int, kept in int64 range by the reference run's checks), 'float',
# 'bool', 'str', ('array', dtype, ndim), ('tuple', (type, ...)), ('list', item type),
# ('optional', type): the type or None.
INT, FLOAT, BOOL, STR = "int", "float", "bool", "str"
SCALARS = (INT, FLOAT, BOOL)


def array_type(dtype, ndim):
    return ("array", dtype, ndim)


def tuple_type(*elems):
    return ("tuple", tuple(elems))


def is_array(t):
    return isinstance(t, tuple) and t[0] == "array"


def is_tuple(t):
    return isinstance(t, tuple) and t[0] == "tuple"


def list_type(item):
    return ("list", item)


def is_list(t):
    return isinstance(t, tuple) and t[0] == "list"


def optional_type(t):
    return ("optional", t)


def is_optional(t):
    return isinstance(t, tuple) and t[0] == "optional"


def kind(t):
    """The registry key of a type: 'int', 'float', 'bool', 'str', 'array', 'tuple',
    'list', 'optional'."""
    return t if isinstance(t, str) else t[0]


# ---------------------------------------------------------------- registry
class Registry:
    """What the feature modules can produce. expr[kind]: (weight, producer(gen, type,
    depth) -> source text or None); stmt: (weight, producer(gen, depth) -> list of
    lines or None); param: (weight, producer(gen) -> type) for function parameters;
    ret: (weight, producer(gen) -> type) for function results beyond the scalars,
    tuples and arrays that every program may return."""

    def __init__(self):
        self.expr = {}
        self.stmt = []
        self.param = []
        self.ret = []
        self.features = []

    def add_expr(self, kinds, weight, producer):
        for k in kinds if isinstance(kinds, (list, tuple)) else (kinds,):
            self.expr.setdefault(k, []).append((weight, producer))

    def add_stmt(self, weight, producer):
        self.stmt.append((weight, producer))

    def add_param(self, weight, producer):
        self.param.append((weight, producer))

    def add_return(self, weight, producer):
        self.ret.append((weight, producer))


REGISTRY = Registry()


def feature(name):
    """Decorator of a feature module's `register(registry)` function."""

    def wrap(fn):
        REGISTRY.features.append(name)
        fn(REGISTRY)
        return fn

    return wrap


# ---------------------------------------------------------------- scopes
class Var:
    def __init__(self, name, type_, assignable=True):
        self.name = name
        self.type = type_
        self.assignable = assignable  # loop counters and parameters of arrays are not


class Scope:
    def __init__(self, parent=None):
        self.vars = {}
        self.parent = parent

    def all(self):
        out = dict(self.parent.all()) if self.parent else {}
        out.update(self.vars)
        return out


class FunctionInfo:
    def __init__(self, name, params, ret):
        self.name = name
        self.params = params  # list of (name, type)
        self.ret = ret


class Gen:
    """Builds one program. Feature modules call back into it for sub-expressions."""

    MAX_DEPTH = 3

    def __init__(self, rng: random.Random, registry=REGISTRY):
        self.rng = rng
        self.reg = registry
        self.scope = Scope()
        self.counter = 0
        self.loop_depth = 0
        self.try_depth = 0
        self.callable = []  # FunctionInfo of functions defined earlier (callable here)
        self.current = None  # FunctionInfo being generated
        self.boundscheck = False

    # ---- names and variables
    def fresh(self, prefix="v"):
        self.counter += 1
        return f"{prefix}{self.counter}"

    def vars_of(self, pred):
        return [v for v in self.scope.all().values() if pred(v)]

    def var_of_type(self, t, assignable=False):
        vs = self.vars_of(lambda v: v.type == t and (v.assignable or not assignable))
        return self.rng.choice(vs) if vs else None

    def declare(self, name, t, assignable=True):
        self.scope.vars[name] = Var(name, t, assignable)

    def push(self):
        self.scope = Scope(self.scope)

    def pop(self):
        # Python has function scope: names bound in a block stay bound after it, but
        # only on the paths that ran, so the generator forgets them.
        self.scope = self.scope.parent

    # ---- choice
    def pick(self, weighted):
        total = sum(w for w, _ in weighted)
        x = self.rng.uniform(0, total)
        for w, item in weighted:
            x -= w
            if x <= 0:
                return item
        return weighted[-1][1]

    def chance(self, p):
        return self.rng.random() < p

    # ---- expressions and statements
    def expr(self, t, depth=0):
        """Source text of an expression of type t (always succeeds: leaves exist for
        every scalar type, and array/tuple requests fall back to variables)."""
        producers = self.reg.expr.get(kind(t), [])
        if depth >= self.MAX_DEPTH:
            producers = [(w, p) for w, p in producers if getattr(p, "leaf", False)]
        for _ in range(20):
            if not producers:
                break
            text = self.pick(producers)(self, t, depth + 1)
            if text is not None:
                return text
        v = self.var_of_type(t)
        if v is not None:
            return v.name
        raise NoExpression(t)

    def stmts(self, depth, count):
        lines = []
        for _ in range(count):
            for _ in range(10):
                out = self.pick(self.reg.stmt)(self, depth)
                if out is not None:
                    lines += out
                    break
        return lines or ["pass"]


class NoExpression(Exception):
    """No expression of a type can be formed here (no variable of it in scope)."""


def leaf(fn):
    fn.leaf = True
    return fn


@leaf
def variable(g, t, depth):
    """A variable of type t in scope (every feature's commonest leaf)."""
    v = g.var_of_type(t)
    return v.name if v else None


def indent(lines, n=1):
    return ["    " * n + line for line in lines]


def np_dtype(dtype):
    """The NumPy name of a dtype in generated source."""
    return "np.bool_" if dtype == "bool" else f"np.{dtype}"
