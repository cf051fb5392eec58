"""Record (structured) arrays as kernel arguments: host arrays (copied in and out) and
device arrays (cuda.to_device, device_array, views), fields read and written as r[i].x,
r[i]['x'], r.x[i] and r['x'][i], packed and aligned dtypes, N-D arrays; each against the
same update done by NumPy, and the kernels' PTX assembled by ptxas when present."""


import numpy as np
import pytest

from conftest import assemble_ptx
from mahou import cuda

pytestmark = pytest.mark.gpu

PACKED = np.dtype([("x", np.float64), ("y", np.int32), ("flag", np.bool_), ("z", np.float32)])
ALIGNED = np.dtype([("x", np.float64), ("y", np.int32), ("flag", np.bool_), ("z", np.float32)], align=True)
MIXED = np.dtype([("a", np.int8), ("b", np.uint64), ("c", np.complex128), ("d", np.int16)])


def sample(dtype, n):
    a = np.zeros(n, dtype=dtype)
    a["x"] = np.linspace(-2.5, 3.0, n)
    a["y"] = np.arange(n) * 3 - 7
    a["flag"] = np.arange(n) % 3 == 0
    a["z"] = np.arange(n, dtype=np.float32) / 4
    return a


def update_ref(a):
    r = a.copy()
    for i in range(r.size):
        r[i]["y"] = r[i]["y"] * 2 + int(r[i]["x"])
        r[i]["x"] = r[i]["x"] + 0.5 if r[i]["flag"] else -r[i]["x"]
        r[i]["z"] = np.float32(r[i]["z"] * 3)
        r[i]["flag"] = not r[i]["flag"]
    return r


@cuda.jit
def update(r):
    i = cuda.grid(1)
    if i < r.size:
        r[i].y = r[i].y * 2 + int(r[i]["x"])
        if r[i].flag:
            r[i]["x"] += 0.5
        else:
            r[i].x = -r[i].x
        r.z[i] = r["z"][i] * 3
        r[i]["flag"] = not r[i].flag


def assemble(kernel):
    for sig in kernel.signatures:
        assemble_ptx(cuda.compile_ptx(kernel.py_func, sig, cc=(9, 0))[0])


@pytest.mark.parametrize("dtype", [PACKED, ALIGNED], ids=["packed", "aligned"])
@pytest.mark.parametrize("n", [0, 1, 5, 70])
def test_host_record_array_fields(dtype, n):
    a = sample(dtype, n)
    ref = update_ref(a)
    update[max(1, (n + 31) // 32), 32](a)
    np.testing.assert_array_equal(a, ref)
    assemble(update)


@pytest.mark.parametrize("dtype", [PACKED, ALIGNED], ids=["packed", "aligned"])
def test_device_record_array_round_trip(dtype):
    a = sample(dtype, 40)
    d = cuda.to_device(a)
    assert d.dtype == dtype
    update[2, 32](d)
    update[2, 32](d)
    np.testing.assert_array_equal(d.copy_to_host(), update_ref(update_ref(a)))
    np.testing.assert_array_equal(a, sample(dtype, 40))  # the host array is untouched


def test_non_contiguous_record_views():
    a = sample(ALIGNED, 30)
    ref = a.copy()
    ref[::3] = update_ref(a[::3])
    view = a[::3]
    update[1, 32](view)  # a host view: written back through its strides
    np.testing.assert_array_equal(a, ref)
    b = sample(PACKED, 30)
    d = cuda.to_device(b)
    update[1, 32](d[1::2])  # a device view
    ref = b.copy()
    ref[1::2] = update_ref(b[1::2])
    np.testing.assert_array_equal(d.copy_to_host(), ref)


@cuda.jit
def fill_grid(r):
    i, j = cuda.grid(2)
    if i < r.shape[0] and j < r.shape[1]:
        r[i, j].a = i - j
        r[i, j]["b"] = i * 100 + j
        r[i, j].c = complex(i, -j)
        r[i, j].d = r[i, j].a * r[i, j].d


def test_two_dimensional_records_of_several_dtypes():
    a = np.zeros((3, 5), dtype=MIXED)
    a["d"] = np.arange(15).reshape(3, 5) - 4
    ref = a.copy()
    for i in range(3):
        for j in range(5):
            ref[i, j]["a"] = i - j
            ref[i, j]["b"] = i * 100 + j
            ref[i, j]["c"] = complex(i, -j)
            ref[i, j]["d"] = (i - j) * ref[i, j]["d"]
    d = cuda.device_array((3, 5), dtype=MIXED)
    d.copy_to_device(a)
    fill_grid[(1, 1), (4, 8)](d)
    np.testing.assert_array_equal(d.copy_to_host(), ref)
    fill_grid[(1, 1), (4, 8)](a)
    np.testing.assert_array_equal(a, ref)
    assemble(fill_grid)


@cuda.jit
def sum_fields(r, out):
    i = cuda.grid(1)
    if i < r.size:
        cuda.atomic.add(out, 0, r[i].x)
        cuda.atomic.add(out, 1, r.z[i])


def test_reading_records_in_a_reduction():
    a = sample(PACKED, 100)
    out = np.zeros(2)
    sum_fields[4, 32](a, out)
    np.testing.assert_allclose(out, [a["x"].sum(), a["z"].astype(np.float64).sum()])


@cuda.jit
def missing_field(r):
    r[0].nope = 1


def test_a_missing_field_is_a_typing_error():
    from mahou.errors import TypingError

    with pytest.raises(TypingError, match="nope"):
        missing_field[1, 1](sample(PACKED, 2))


def test_unsupported_record_dtypes_are_refused():
    @cuda.jit
    def k(r):
        pass

    nested = np.zeros(2, dtype=[("v", np.float64, (3,))])
    with pytest.raises(TypeError, match="record dtype is not supported"):
        k[1, 1](nested)


@cuda.jit
def one_record(r, v, out):
    out[0] = r.x + r["y"]
    if v != 0:
        r.y = v
        r["x"] = r.x * 2


@pytest.mark.parametrize("dtype", [PACKED, ALIGNED], ids=["packed", "aligned"])
def test_a_record_argument_is_copied_in_and_out(dtype):
    a = sample(dtype, 4)
    out = np.zeros(1)
    rec = a[2]  # an np.void viewing a's third element
    one_record[1, 1](rec, 11, out)
    ref = sample(dtype, 4)
    assert out[0] == ref[2]["x"] + ref[2]["y"]
    ref[2]["y"] = 11
    ref[2]["x"] *= 2
    np.testing.assert_array_equal(a, ref)  # written back through the record
    one_record[1, 1](a[0], 0, out)  # read only
    assert out[0] == ref[0]["x"] + ref[0]["y"]
    np.testing.assert_array_equal(a, ref)


def test_a_record_of_a_read_only_array_is_read_only():
    from mahou.errors import TypingError

    a = sample(PACKED, 3)
    a.flags.writeable = False
    out = np.zeros(1)
    with pytest.raises(TypingError, match="read-only"):
        one_record[1, 1](a[1], 5, out)

    @cuda.jit
    def reader(r, out):
        out[0] = r.x * r.z

    reader[1, 1](a[1], out)
    assert out[0] == a[1]["x"] * np.float64(a[1]["z"])


def test_device_record():
    """cuda.to_device(record) (numba-cuda's DeviceRecord): a kernel takes it as a record."""
    a = sample(ALIGNED, 3)
    d = cuda.to_device(a[1])
    out = np.zeros(1)
    one_record[1, 1](d, -4, out)
    assert out[0] == a[1]["x"] + a[1]["y"]
    back = d.copy_to_host()
    assert back["y"] == -4 and back["x"] == 2 * a[1]["x"]
    np.testing.assert_array_equal(a, sample(ALIGNED, 3))  # the host record is untouched
    assemble(one_record)


@cuda.jit
def chain(src, dst):
    if cuda.grid(1) == 0:
        for i in range(dst.size):
            dst[i].x = src[i].x + 1.0


@cuda.jit
def through_a_record(rec, arr, out):
    before = rec.x
    arr[1].x = before + 1.0
    out[0] = rec.x  # the store through arr changed rec: it is the same memory


def test_overlapping_record_arguments():
    """Views of one device array (arrays of records, and a 0-d record view) share memory:
    the launch must not run the form that assumes disjoint arrays."""
    a = sample(ALIGNED, 32)
    d = cuda.to_device(a)
    chain[1, 32](d[:-1], d[1:])
    np.testing.assert_array_equal(d.copy_to_host()["x"], a["x"][0] + np.arange(32))
    d = cuda.to_device(sample(PACKED, 4))
    out = np.zeros(1)
    through_a_record[1, 1](d[1:2].reshape(()), d, out)
    assert out[0] == sample(PACKED, 4)[1]["x"] + 1.0


@cuda.jit
def triple(x):
    i = cuda.grid(1)
    if i < x.size:
        x[i] = x[i] * 3


@pytest.mark.parametrize("field", ["x", "y", "z"])
def test_misaligned_field_views_as_arguments(field):
    # a packed record's field is an array whose items are not at multiples of their size:
    # the launch runs the form of the kernel that assumes no alignment (no device trap)
    a = sample(PACKED, 37)
    ref = a.copy()
    ref[field] = ref[field] * 3
    triple[2, 32](a[field])
    np.testing.assert_array_equal(a, ref)
    triple[2, 32](np.arange(8, dtype=np.float32))  # an aligned launch still works after
    raw = np.zeros(4 * 9 + 1, np.uint8)
    view = raw[1:].view(np.float32)  # data one byte past an aligned address
    view[:] = np.arange(9)
    triple[1, 32](view)
    np.testing.assert_array_equal(view, np.arange(9, dtype=np.float32) * 3)
