# NumPy operations inside compiled functions, for the bench's "NumPy operations" table:
# each is one library call or idiom (no hand-written loop), timed in mahou and Numba.
import numpy as np


def new_array_per_iteration(a, b):
    s = 0.0
    for k in range(20):
        c = a * 2.0 + b
        s += c[k]
    return s


def empty_per_iteration(n):
    s = 0.0
    for k in range(20):
        c = np.empty(n)
        c[0] = 1.0
        s += c[0]
    return s


def argmax(a):
    return a.argmax()


def sum_axis0(m):
    return m.sum(axis=0)[0]


def matrix_vector(m, v):
    return (m @ v)[0]


def vector_dot(a, b):
    return np.dot(a, b)


def sqrt_sum(a):
    return np.sqrt(a).sum()


def masked_sum(a):
    return a[a > 0.5].sum()


def where_sum(a):
    return np.where(a > 0.5, a, 0.0).sum()


def stencil_sum(a):
    return (a[2:] + a[:-2] - 2.0 * a[1:-1]).sum()


def gather_sum(a, idx):
    return a[idx].sum()


def unique_count(a):
    return np.unique(a).shape[0]


def matmul_1000(a, b):
    return (a @ b)[0, 0]


def matvec_2000(m, v):
    return np.dot(m, v)[0]


def solve_500(a, b):
    return np.linalg.solve(a, b)[0]


def eigh_500(a):
    return np.linalg.eigh(a)[0][0]


def inv_300(a):
    return np.linalg.inv(a)[0, 0]


def svd_300(a):
    return np.linalg.svd(a)[1][0]


def make_args():
    rng = np.random.default_rng(0)
    a, b = rng.random(200_000), rng.random(200_000)
    m, v = rng.random((300, 300)), rng.random(300)
    sym = rng.random((500, 500))
    return {
        "new_array_per_iteration": (rng.random(100_000), rng.random(100_000)),
        "empty_per_iteration": (1_000_000,),
        "argmax": (a,),
        "sum_axis0": (m,),
        "matrix_vector": (m, v),
        "vector_dot": (a, b),
        "sqrt_sum": (a,),
        "masked_sum": (a,),
        "where_sum": (a,),
        "stencil_sum": (a,),
        "gather_sum": (a, rng.integers(0, a.shape[0], 50_000)),
        "unique_count": (rng.integers(0, 1000, 50_000),),
        "matmul_1000": (rng.random((1000, 1000)), rng.random((1000, 1000))),
        "matvec_2000": (rng.random((2000, 2000)), rng.random(2000)),
        "solve_500": (rng.random((500, 500)) + 500 * np.eye(500), rng.random(500)),
        "eigh_500": (sym + sym.T,),
        "inv_300": (rng.random((300, 300)) + 300 * np.eye(300),),
        "svd_300": (rng.random((300, 300)),),
    }
