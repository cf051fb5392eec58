"""A @jitclass whose fields hold typed containers of a deferred type (trees whose nodes
keep their children in a typed.List or typed.Dict of the class itself), as Numba's
docs build them; the same code also runs as plain Python classes."""

import pytest

from mahou import deferred_type, njit, typed, types
from mahou.experimental import jitclass

node_type = deferred_type()


@jitclass([("value", types.int64), ("children", types.ListType(node_type))])
class Node:
    def __init__(self, value):
        self.value = value
        self.children = typed.List.empty_list(node_type)

    def add(self, child):
        self.children.append(child)


node_type.define(Node.class_type.instance_type)

entry_type = deferred_type()


@jitclass([("name", types.unicode_type), ("entries", types.DictType(types.unicode_type, entry_type))])
class Folder:
    def __init__(self, name):
        self.name = name
        self.entries = typed.Dict.empty(types.unicode_type, entry_type)


entry_type.define(Folder.class_type.instance_type)


@njit
def total(n):
    s = n.value
    for c in n.children:
        s += total(c)
    return s


@njit
def depth(n):
    d = 0
    for c in n.children:
        d = max(d, depth(c))
    return d + 1


@njit
def build(width, levels):
    root = Node(1)
    frontier = typed.List.empty_list(node_type)
    frontier.append(root)
    k = 1
    for _ in range(levels):
        nxt = typed.List.empty_list(node_type)
        for parent in frontier:
            for _ in range(width):
                k += 1
                child = Node(k)
                parent.add(child)
                nxt.append(child)
        frontier = nxt
    return root


@njit
def folder_size(f):
    n = 1
    for name in f.entries:
        n += folder_size(f.entries[name])
    return n


@pytest.mark.parametrize("width,levels", [(0, 0), (1, 3), (2, 3), (3, 2)])
def test_tree_of_typed_lists(width, levels):
    root = build(width, levels)
    nodes = 1 + sum(width ** i for i in range(1, levels + 1))
    assert total(root) == nodes * (nodes + 1) // 2
    assert depth(root) == (levels + 1 if width else 1)
    root.add(Node(1000))  # from Python: the method, and a node made by Python
    assert total(root) == nodes * (nodes + 1) // 2 + 1000


def test_tree_of_typed_dicts():
    root = Folder("root")
    a, b = Folder("a"), Folder("b")
    root.entries["a"] = a
    a.entries["b"] = b
    b.entries["c"] = Folder("c")
    assert folder_size(root) == 4


def test_container_types_of_a_deferred_type_print_once_defined():
    t = deferred_type()
    lt = types.ListType(t)
    with pytest.raises(TypeError, match="not defined yet"):
        str(lt)
    t.define(types.float64)
    assert str(lt) == "ListType[float64]"
    assert lt == types.ListType(types.float64)
