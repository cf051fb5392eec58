"""The operator module's functions in compiled code (asked for as '@operator.<name>'):
each is its operator written out, so operator.add(a, b) compiles exactly as a + b for
whatever types the call gives (numbers, arrays, strings, tuples, lists, jitclasses), and
the in-place ones (iadd, ...) update a mutable operand in place and return it, as Python."""

from mahou import njit


@njit
def add(a, b):
    return a + b


@njit
def sub(a, b):
    return a - b


@njit
def mul(a, b):
    return a * b


@njit
def truediv(a, b):
    return a / b


@njit
def floordiv(a, b):
    return a // b


@njit
def mod(a, b):
    return a % b


@njit
def pow(a, b):  # noqa: A001  (the operator module's name)
    return a ** b


@njit
def matmul(a, b):
    return a @ b


@njit
def lshift(a, b):
    return a << b


@njit
def rshift(a, b):
    return a >> b


@njit
def and_(a, b):
    return a & b


@njit
def or_(a, b):
    return a | b


@njit
def xor(a, b):
    return a ^ b


@njit
def neg(a):
    return -a


@njit
def pos(a):
    return +a


@njit
def invert(a):
    return ~a


@njit
def not_(a):
    return not a


@njit
def eq(a, b):
    return a == b


@njit
def ne(a, b):
    return a != b


@njit
def lt(a, b):
    return a < b


@njit
def le(a, b):
    return a <= b


@njit
def gt(a, b):
    return a > b


@njit
def ge(a, b):
    return a >= b


@njit
def iadd(a, b):
    a += b
    return a


@njit
def isub(a, b):
    a -= b
    return a


@njit
def imul(a, b):
    a *= b
    return a


@njit
def itruediv(a, b):
    a /= b
    return a


@njit
def ifloordiv(a, b):
    a //= b
    return a


@njit
def imod(a, b):
    a %= b
    return a


@njit
def ipow(a, b):
    a **= b
    return a


@njit
def imatmul(a, b):
    a @= b
    return a


@njit
def ilshift(a, b):
    a <<= b
    return a


@njit
def irshift(a, b):
    a >>= b
    return a


@njit
def iand(a, b):
    a &= b
    return a


@njit
def ior(a, b):
    a |= b
    return a


@njit
def ixor(a, b):
    a ^= b
    return a
