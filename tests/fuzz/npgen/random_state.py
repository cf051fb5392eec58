"""Global random state: np.random.seed in one compiled function, draws in others (and
in the array functions' expressions), called in a random order after a first seeding.
Compiled code has one state shared by every compiled function; the reference is
NumPy's global legacy state (np.random.RandomState's MT19937 stream), so a seed must
give NumPy's numbers."""

from .core import Val, feature_module

DRAWS = [
    ("np.random.random()", None), ("np.random.rand()", None), ("np.random.randn()", None),
    ("np.random.random({n})", "float64"), ("np.random.random_sample({n})", "float64"),
    ("np.random.rand({n})", "float64"), ("np.random.randn({n})", "float64"),
    ("np.random.standard_normal({n})", "float64"), ("np.random.normal(1.5, 2.0, {n})", "float64"),
    ("np.random.uniform(-1.0, 3.0, {n})", "float64"), ("np.random.randint(0, 10, {n})", "int64"),
    ("np.random.randint(-5, 1000)", None), ("np.random.normal()", None), ("np.random.uniform()", None),
]


def draw_array(g, shape, depth):
    """An array of draws of this shape (1-D: a size; N-D: a shape tuple)."""
    if None in shape or not g.chance(0.5):
        return None
    text, dtype = g.rng.choice([d for d in DRAWS if d[1]])
    n = str(shape[0]) if len(shape) == 1 else str(tuple(shape))
    if text.startswith(("np.random.rand(", "np.random.randn(")) and len(shape) > 1:
        n = ", ".join(map(str, shape))
    return Val(text.format(n=n), dtype, shape)


def state_functions(b, when):
    if when != "after":
        return
    g = b.g
    from . import Function

    seed = Function("fseed", [("s", ("int", 0, 2**32 - 1))], ["@compiled", "def fseed(s):", "    np.random.seed(s)",
                                                               "    return s,"], {})
    seed.sets = 2
    draws = []
    for k in range(g.rng.randint(1, 3)):
        items = []
        for _ in range(g.rng.randint(1, 3)):
            text, dtype = g.rng.choice(DRAWS)
            items.append(text.format(n=g.rng.randint(0, 5)))
        f = Function(f"fdraw{k}", [], ["@compiled", f"def fdraw{k}():", f"    return {', '.join(items)},"], {})
        f.sets = 1
        draws.append(f)
    b.functions += [seed] + draws
    others = [(f.name, k) for f in b.functions if f is not seed for k in range(f.sets or 0)]
    for f in b.functions:
        if f.sets == 0:
            f.sets = g.rng.randint(2, 3)
            others += [(f.name, k) for k in range(f.sets)]
    calls = [("fseed", 0)]
    for _ in range(g.rng.randint(3, 10)):
        calls.append(g.rng.choice(others) if g.chance(0.85) else ("fseed", g.rng.randint(0, 1)))
    b.calls = calls


@feature_module("random")
def register(reg):
    reg.add_array(0.4, draw_array)
    reg.program.append(state_functions)
