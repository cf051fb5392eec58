"""Reflected lists of lists keep Python's identities: a row that compiled code moves,
swaps, duplicates, removes or returns is written back into the Python list it came from,
and that object is the one the outer list (or the caller) holds afterwards, so an alias of
a row sees what the compiled code did to it. Each case runs under CPython and compiled, on
fresh copies, and compares the contents and which original row object stands where."""

import copy
import sys

import pytest

from mahou import njit


def append_then_change_a_row(lst):
    lst.append([7])
    lst[0][0] = 9


def swap_rows_then_change_one(lst):
    lst[0], lst[1] = lst[1], lst[0]
    lst[0][0] = 8


def duplicate_a_row(lst):
    lst.append(lst[0])
    lst[-1].append(6)


def remove_a_changed_row(lst):
    lst[0].append(5)
    del lst[0]


def pop_and_return_a_row(lst):
    row = lst.pop(0)
    row.append(4)
    return row


def return_a_row_unchanged_outer(lst):
    lst[1][0] = -1
    return lst[1]


def return_the_argument(lst):
    lst.append([0])
    return lst


def return_new_outer_of_old_rows(lst):
    lst[2].append(1)
    return [lst[2], lst[0], lst[2]]


def reverse_rows(lst):
    lst.reverse()
    lst[0].append(3)


def insert_a_new_row_first(lst):
    lst.insert(0, [10, 11])
    lst[1][1] = 12


def move_a_grandchild(deep):
    g = deep[0].pop(0)
    g.append(99)
    deep[1].append(g)


def clear_and_refill(lst):
    rows = [lst[1], lst[0]]
    lst.clear()
    for r in rows:
        lst.append(r)
    lst[0].append(1)


CASES = [append_then_change_a_row, swap_rows_then_change_one, duplicate_a_row, remove_a_changed_row,
         pop_and_return_a_row, return_a_row_unchanged_outer, return_the_argument, return_new_outer_of_old_rows,
         reverse_rows, insert_a_new_row_first,
         clear_and_refill]


def rows_of(lst):
    return [[1, 2], [3, 4], [5]] if lst is None else lst


def shape(value, originals):
    """Contents with each list replaced by (which original it is, or None; its items)."""
    if isinstance(value, list):
        who = next((i for i, o in enumerate(originals) if o is value), None)
        return (who, [shape(v, originals) for v in value])
    return value


def run(fn, data):
    lst = copy.deepcopy(data)
    originals = [lst] + list(lst) + [g for row in lst for g in row if isinstance(g, list)]
    result = fn(lst)
    return shape(lst, originals), shape(result, originals), [shape(o, originals) for o in originals]


@pytest.mark.parametrize("fn", CASES, ids=[f.__name__ for f in CASES])
def test_rows_keep_their_identity(fn):
    data = [[1, 2], [3, 4], [5]]
    assert run(njit(fn), data) == run(fn, data)


def test_three_deep_a_moved_grandchild_stays_itself():
    data = [[[1], [2, 2]], [[3]]]
    assert run(njit(move_a_grandchild), data) == run(move_a_grandchild, data)


def test_the_same_list_passed_twice_stays_one():
    def f(a, b):
        a.append([0])
        b[0][0] = 5
        return len(a), len(b)

    py = [[1], [2]]
    mh = copy.deepcopy(py)
    rows_py, rows_mh = list(py), list(mh)
    assert njit(f)(mh, mh) == f(py, py)
    assert mh == py and [r is o for r, o in zip(mh, rows_mh)] == [r is o for r, o in zip(py, rows_py)]


def test_no_reference_is_leaked_or_lost():
    f = njit(swap_rows_then_change_one)
    lst = [[1, 2], [3, 4]]
    rows = list(lst)
    f(lst)
    before = [sys.getrefcount(r) for r in rows], sys.getrefcount(lst)
    for _ in range(1000):
        f(lst)
    assert ([sys.getrefcount(r) for r in rows], sys.getrefcount(lst)) == before
    assert lst == [[8, 4], [8, 2]] or lst[0][0] == 8  # rows swapped 1001 times, each changed
    assert {id(r) for r in lst} == {id(r) for r in rows}
