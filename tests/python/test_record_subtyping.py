"""Width subtyping of records (Numba 0.57+): a record whose first fields are another
record's (same names, types and byte offsets) is taken by code compiled for the narrower
record when the dispatcher cannot compile (an explicit signature, disable_compile()),
alone or in a tuple; never when a shared field differs. (Nested records and array fields
are not supported by mahou at all.) Arrays of records are not
subtyped (as in Numba: an array converts only to its own record type)."""

import numpy as np
import pytest

from mahou import float64, int64, njit, typeof, void

A = np.dtype([("a", "f8")])
AB = np.dtype([("a", "f8"), ("b", "f8")])
AXB = np.dtype([("a", "f8"), ("x", "i4"), ("b", "f8")])
IQ = np.dtype([("u", "i2"), ("v", "f4"), ("q", "i8")])
IQ_WIDE = np.dtype([("u", "i2"), ("v", "f4"), ("q", "i8"), ("r", "u1"), ("s", "c16")])


def rec(dtype, *values):
    return np.array([tuple(values)], dtype=dtype)[0]


def field_a(r):
    return r["a"]


@pytest.mark.parametrize("wide", [rec(AB, 2.0, 3.0), rec(AB, -0.0, np.nan), rec(AXB, 7.5, -3, 1.0),
                                  rec(np.dtype({"names": ["a", "z"], "formats": ["f8", "u1"], "itemsize": 24}), 4.0, 9)])
def test_an_explicit_signature_takes_a_wider_record(wide):
    narrow = rec(A, 1.0)
    f = njit(float64(typeof(narrow)))(field_a)
    assert f(narrow) == 1.0
    got, want = f(wide), field_a(wide)
    assert got == want or (np.isnan(got) and np.isnan(want))
    assert f(wide) == want or np.isnan(want)  # again, through the remembered conversion


def test_a_lazy_dispatcher_compiles_the_wider_record_for_itself():
    f = njit(field_a)
    assert f(rec(A, 1.0)) == 1.0 and f(rec(AB, 2.0, 3.0)) == 2.0
    assert len(f.signatures) == 2


def test_disable_compile_reuses_the_narrow_code():
    f = njit(field_a)
    f(rec(A, 1.0))
    f.disable_compile()
    assert f(rec(AB, 5.0, 6.0)) == 5.0 and len(f.signatures) == 1


def test_writes_reach_the_wider_record():
    def bump(r):
        r["a"] += 1.5

    arr = np.array([(1.0, 10.0), (2.0, 20.0)], dtype=AB)
    f = njit(void(typeof(rec(A, 0.0))))(bump)
    f(arr[1])
    assert arr[1]["a"] == 3.5 and arr[1]["b"] == 20.0 and arr[0]["a"] == 1.0


def test_a_returned_record_is_the_narrow_one():
    g = njit(lambda r: r)
    g.compile((typeof(rec(A, 0.0)),))
    g.disable_compile()
    out = g(rec(AB, 2.0, 3.0))
    assert out.dtype == A and out["a"] == 2.0


def test_tuples_of_records():
    @njit
    def total(t):
        x = 0.0
        for i in range(len(t)):
            x += t[i]["a"]
        return x

    total((rec(A, 1.0), rec(A, 2.0)))
    total.disable_compile()
    assert total((rec(AB, 2.0, 9.0), rec(AXB, 3.0, 1, 0.0))) == 5.0


def test_several_shared_fields():
    f = njit(float64(typeof(rec(IQ, 1, 2.0, 3))))(lambda r: r["u"] + r["v"] * r["q"])
    for values in [(4, 0.5, 6, 200, 1j), (-3, -1.25, -7, 0, 0j)]:
        wide = rec(IQ_WIDE, *values)
        assert f(wide) == np.float64(wide["u"] + wide["v"] * wide["q"])


@pytest.mark.parametrize("other", [
    rec(np.dtype([("a", "i8"), ("b", "f8")]), 1, 2.0),  # same name, another type
    rec(np.dtype([("x", "i8"), ("a", "f8")]), 1, 2.0),  # same name and type, another offset
    rec(np.dtype([("c", "f8")]), 1.0),  # another name
    rec(np.dtype([("b", "f8"), ("a", "f8")]), 1.0, 2.0),  # the narrow field not first
    rec(np.dtype([("a", "f4"), ("b", "f4")]), 1.0, 2.0),  # a narrower type at the same offset
])
def test_shared_fields_must_match_exactly(other):
    f = njit(float64(typeof(rec(A, 1.0))))(field_a)
    with pytest.raises(TypeError, match="No matching definition"):
        f(other)


def test_a_narrower_record_is_not_a_subtype():
    f = njit(float64(typeof(rec(AB, 1.0, 2.0))))(field_a)
    with pytest.raises(TypeError, match="No matching definition"):
        f(rec(A, 1.0))


def test_a_read_only_record_does_not_convert_to_a_writable_one():
    arr = np.array([(1.0, 2.0)], dtype=AB)
    arr.flags.writeable = False
    f = njit(float64(typeof(rec(A, 1.0))))(field_a)
    with pytest.raises(TypeError):
        f(arr[0])


def test_arrays_of_records_are_not_subtyped():
    narrow = np.zeros(3, dtype=A)
    f = njit(float64(typeof(narrow)))(lambda a: a[1]["a"])
    assert f(narrow) == 0.0
    with pytest.raises(TypeError):
        f(np.ones(3, dtype=AB))
