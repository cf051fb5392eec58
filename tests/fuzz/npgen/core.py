"""The NumPy generator's core: array values with known shapes, dtypes and buffers, the
registry feature modules add producers to, and NumPy itself asked (on one-element
prototypes) for the dtype an operation gives, so the generator follows NumPy 2's
promotion rules (weak Python scalars, NEP 50) without restating them."""

import random
import warnings

import numpy as np

DTYPES = ["bool", "int8", "uint8", "int16", "int32", "int64", "uint64", "float32", "float64", "complex128"]
INTS = ("int8", "uint8", "int16", "int32", "int64", "uint64")
FLOATS = ("float32", "float64")


def kind(dtype):
    """'b', 'i' (signed and unsigned), 'f' or 'c'."""
    if dtype == "bool":
        return "b"
    if dtype in INTS:
        return "i"
    return "f" if dtype in FLOATS else "c"


def np_name(dtype):
    return "np.bool_" if dtype == "bool" else f"np.{dtype}"


# Python scalars (weak in NumPy 2) have these pseudo-dtypes.
PY_SCALARS = {"pyint": 3, "pyfloat": 0.5, "pybool": True, "pycomplex": 1j}


def proto(dtype_or_scalar):
    """A one-element stand-in of a value's dtype: an array, or a Python scalar (weak)."""
    if dtype_or_scalar in PY_SCALARS:
        return PY_SCALARS[dtype_or_scalar]
    return np.ones(1, dtype=dtype_or_scalar)


_CACHE = {}


def result_dtype(op, *dtypes):
    """The dtype NumPy gives `op` (a callable on prototypes) for these operand dtypes, or
    None when NumPy refuses it (a TypeError: no loop, a cast not allowed)."""
    key = (op, dtypes)
    if key not in _CACHE:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                with np.errstate(all="ignore"):
                    r = op(*[proto(d) for d in dtypes])
            _CACHE[key] = None if not isinstance(r, (np.ndarray, np.generic)) else str(np.asarray(r).dtype)
        except (TypeError, ValueError, OverflowError):
            _CACHE[key] = None
        # NumPy computes small integers' math in float16 ('e' loops); compiled code skips
        # those loops unless an operand is float16, as Numba does (documented): left out.
        if _CACHE[key] == "float16":
            _CACHE[key] = None
    return _CACHE[key]


class Val:
    """An expression: its source text, dtype (a NumPy name, or pyint/pyfloat/pybool for a
    Python scalar), shape (None for a scalar; a dim of None: a length known only at run
    time, as a boolean mask's result), the buffers it reads (`bases`), and whether it is
    a view of them (`view`: stores through it reach them)."""

    def __init__(self, text, dtype, shape=None, bases=frozenset(), view=False):
        self.text = text
        self.dtype = dtype
        self.shape = shape
        self.bases = frozenset(bases)
        self.view = view

    @property
    def is_array(self):
        return self.shape is not None

    @property
    def ndim(self):
        return len(self.shape)

    def __repr__(self):
        return f"Val({self.text!r}, {self.dtype}, {self.shape})"


class Var(Val):
    """A named array: also whether stores may go through it, and whether it may be a
    view or a copy depending on the input's layout (`fragile`: reshape/ravel of an array
    that need not be contiguous), so that no store to its buffers may be followed by a
    read of it."""

    def __init__(self, name, dtype, shape, bases, view, writable=True, fragile=False):
        super().__init__(name, dtype, shape, bases, view)
        self.name = name
        self.writable = writable
        self.fragile = fragile


class Registry:
    """stmt: (weight, producer(gen) -> lines or None); array: (weight, producer(gen,
    shape) -> Val or None) of array expressions of a given shape; result: (weight,
    producer(gen) -> (text, tolerance) or None) of values a function returns."""

    def __init__(self):
        self.stmt = []
        self.array = []
        self.result = []
        self.program = []  # hooks run on the whole program (globals, random state)

    def add_stmt(self, weight, fn):
        self.stmt.append((weight, fn))

    def add_array(self, weight, fn):
        self.array.append((weight, fn))

    def add_result(self, weight, fn):
        self.result.append((weight, fn))


MODULES = {}  # feature name -> register(registry)


def feature_module(name):
    """Decorator of a feature module's `register(registry)`: run when the feature is on."""

    def wrap(fn):
        MODULES[name] = fn
        return fn

    return wrap


def build_registry(features):
    reg = Registry()
    for name in features:
        MODULES[name](reg)
    return reg


class NoValue(Exception):
    """A producer found nothing it could build here."""


class Gen:
    """Builds one program: the enabled features' producers, the variables in scope, and
    what has been written (for the overlap and fragile-view rules)."""

    MAX_DEPTH = 3

    def __init__(self, rng: random.Random, registry, features):
        self.rng = rng
        self.reg = registry
        self.features = set(features)
        self.vars = []
        self.counter = 0
        self.results = []  # (text, tolerance)
        self.globals = []  # Var of module-level arrays
        self.callable = []  # FunctionInfo of earlier functions

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

    def on(self, feature):
        return feature in self.features

    def fresh(self, prefix="v"):
        self.counter += 1
        return f"{prefix}{self.counter}"

    # ---- scope
    def arrays(self, pred=lambda v: True):
        return [v for v in self.vars + self.globals if pred(v)]

    def declare(self, var):
        self.vars = [v for v in self.vars if v.name != var.name] + [var]
        return var

    def wrote(self, bases):
        """A store reached these buffers: a fragile array of them (a copy or a view
        depending on the layout) can no longer be read."""
        self.vars = [v for v in self.vars if not (v.fragile and v.bases & bases)]

    # ---- expressions
    def array(self, shape, depth=0, dtypes=None):
        """An array expression of this exact shape (or one that broadcasts to it, when
        `shape` allows), of one of `dtypes` if given."""
        producers = self.reg.array if depth < self.MAX_DEPTH else [(w, p) for w, p in self.reg.array
                                                                     if getattr(p, "leaf", False)]
        for _ in range(25):
            v = self.pick(producers)(self, shape, depth + 1)
            if v is not None and (dtypes is None or v.dtype in dtypes):
                return v
        raise NoValue(shape)

    def stmts(self, count):
        lines = []
        for _ in range(count):
            for _ in range(12):
                try:
                    out = self.pick(self.reg.stmt)(self)
                except NoValue:
                    out = None
                if out is not None:
                    lines += out
                    break
        return lines


def leaf(fn):
    fn.leaf = True
    return fn


def slice_for(rng, n, want):
    """Slice text giving exactly `want` items of an axis of length n (want <= n), with a
    random step, negative too, and start/stop written negative at times."""
    if want == 0:
        return rng.choice([f"{n}:", "0:0", f"{min(2, n)}:{min(1, n)}", "0:0:-1", f"{n}::2"])
    steps = [s for s in (1, 2, 3, -1, -2, -3) if (want - 1) * abs(s) <= n - 1]
    step = rng.choice(steps)
    span = (want - 1) * abs(step)
    if step > 0:
        start = rng.randint(0, n - 1 - span)
        stop = start + span + 1
        if want == n and step == 1 and rng.random() < 0.5:
            return ":"
        stop_text = str(stop) if rng.random() < 0.7 or stop >= n else str(stop - n)
        if stop + step - 1 >= n and rng.random() < 0.5:
            stop_text = ""
        start_text = ("" if start == 0 and rng.random() < 0.5 else str(start - n) if rng.random() < 0.3 else str(start))
        return f"{start_text}:{stop_text}" + (f":{step}" if step != 1 else "")
    start = rng.randint(span, n - 1)
    stop = start - span - 1
    start_text = "" if start == n - 1 and rng.random() < 0.5 else str(start - n) if rng.random() < 0.3 else str(start)
    stop_text = "" if stop < 0 else str(stop)
    return f"{start_text}:{stop_text}:{step}"
