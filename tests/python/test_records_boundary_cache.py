"""np.void arguments are typed through a small cache of recent dtypes (bindings/records.cpp):
the same record dtype reuses its type; a renamed field (dtype.names = ...), an item of a
read-only array, and more distinct dtypes than the cache holds are each typed afresh."""

import numpy as np
import pytest

import mahou


@mahou.njit
def first_field(r):
    return r[0]


@mahou.njit
def field_x(r):
    return r["x"]


@mahou.njit
def set_x(r, v):
    r["x"] = v


def test_same_dtype_many_calls():
    a = np.array([(1.5, 2), (3.5, 4)], dtype=[("x", "f8"), ("y", "i4")])
    for _ in range(3):
        assert field_x(a[0]) == 1.5
        assert field_x(a[1]) == 3.5
    set_x(a[1], 9.0)
    assert a[1]["x"] == 9.0


def test_renamed_fields_are_seen():
    dt = np.dtype([("x", "f8"), ("y", "f8")])
    a = np.array([(1.0, 2.0)], dtype=dt)
    assert field_x(a[0]) == 1.0
    dt2 = np.dtype([("x", "f8"), ("y", "f8")])
    b = np.array([(5.0, 6.0)], dtype=dt2)
    b.dtype.names = ("y", "x")  # in place: the second field is x now
    assert field_x(b[0]) == 6.0
    assert field_x(a[0]) == 1.0


def test_read_only_items_refuse_stores():
    a = np.array([(1.0, 2.0)], dtype=[("x", "f8"), ("y", "f8")])
    set_x(a[0], 4.0)
    assert a[0]["x"] == 4.0
    a.flags.writeable = False
    assert field_x(a[0]) == 4.0
    with pytest.raises(Exception):
        set_x(a[0], 5.0)
    assert a[0]["x"] == 4.0


def test_more_dtypes_than_the_cache_holds():
    arrays = []
    for k in range(40):
        dt = np.dtype([("f%d" % k, "f8"), ("x", "i8")])
        arrays.append(np.array([(k + 0.5, k)], dtype=dt))
    for _ in range(2):
        for k, a in enumerate(arrays):
            assert first_field(a[0]) == k + 0.5
            assert field_x(a[0]) == k


@mahou.njit
def scaled_x(r, v):
    return r.x * v


@mahou.njit
def x_plus(v, r, w):
    return r["x"] + v + w


@mahou.njit
def store_scaled(r, v, out):
    r.x = v
    out[0] = r.x * 2


@mahou.njit
def two_records(p, q, v):
    return p.x + q.x + v


@mahou.njit
def same_record(r, v):
    return r


def test_records_beside_other_arguments():
    # a record's pointer once shared its call-buffer slot with the next argument: the
    # float written there made the record a wild pointer
    a = np.array([(1.5, 2.0), (3.5, 4.0)], dtype=[("x", "f8"), ("y", "f8")])
    assert scaled_x(a[1], 2.0) == 7.0
    assert scaled_x(a[0], 3) == 4.5
    assert x_plus(1.0, a[1], 10) == 14.5
    out = np.zeros(1)
    store_scaled(a[0], 8.0, out)
    assert a[0]["x"] == 8.0 and out[0] == 16.0
    assert two_records(a[0], a[1], 0.5) == 12.0
    r = same_record(a[1], 1.0)
    assert r["x"] == 3.5 and r["y"] == 4.0
