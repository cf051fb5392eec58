"""cache=True for functions that use a @jitclass (beyond Numba: numba/numba#9659, #4830): a
class's handle is a digest of its module, qualified name, fields and source, so a second
process finds the code compiled by the first (instances passed in, made and returned,
methods, properties, static methods, special methods); editing a method or a field
recompiles; a class with the same name in another module is another class."""

import json
import os
import subprocess
import sys
import textwrap

import pytest

SHAPES = """
import mahou
from mahou import float64, int64
from mahou.experimental import jitclass


@jitclass([("x", float64), ("y", float64), ("hits", int64)])
class Point:
    def __init__(self, x, y):
        self.x = x
        self.y = y

    def norm2(self):
        self.hits += 1
        return self.x * self.x + self.y * self.y

    @property
    def flipped(self):
        return Point(self.y, self.x)

    @staticmethod
    def origin():
        return Point(0.0, 0.0)

    def __add__(self, other):
        return Point(self.x + other.x, self.y + other.y)

    def __hash__(self):
        return hash((self.x, self.y))
"""

KERN = """
import mahou
from shapes import Point


@mahou.njit(cache=True)
def total(p, n):
    s = 0.0
    q = Point.origin()
    for i in range(n):
        q = q + p
        s += q.norm2()
    return s, q.flipped, hash(q) == hash((q.x, q.y))
"""

MAIN = """
import json
from shapes import Point
import kern
s, q, same = kern.total(Point(1.0, 2.0), 4)
st = list(kern.total.stats.values())[0]
print(json.dumps({"s": s, "q": [q.x, q.y], "same": same, "cached": st["cached"]}))
"""


def write(path, text):
    path.write_text(textwrap.dedent(text))
    for cached in path.parent.glob("__pycache__/*.pyc"):
        cached.unlink()


def run(tmp_path):
    env = dict(os.environ, MAHOU_CACHE_DIR=str(tmp_path / "cache"))
    out = subprocess.run([sys.executable, "-c", MAIN], cwd=tmp_path, env=env, capture_output=True, text=True,
                         timeout=180)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.fixture
def project(tmp_path):
    write(tmp_path / "shapes.py", SHAPES)
    write(tmp_path / "kern.py", KERN)
    return tmp_path


EXPECTED = {"s": 5.0 + 20.0 + 45.0 + 80.0, "q": [8.0, 4.0], "same": True}


def test_second_process_loads_code_using_a_jitclass(project):
    first = run(project)
    assert first == dict(EXPECTED, cached=False)
    assert list((project / "cache").rglob("*.mahou"))
    assert run(project) == dict(EXPECTED, cached=True)


def test_editing_a_method_recompiles(project):
    run(project)
    write(project / "shapes.py", SHAPES.replace("return self.x * self.x + self.y * self.y",
                                                "return self.x * self.x + 2.0 * self.y * self.y"))
    r = run(project)
    assert r["cached"] is False
    assert r["s"] == 9.0 + 36.0 + 81.0 + 144.0
    assert run(project)["cached"] is True


def test_changing_a_field_type_recompiles(project):
    run(project)
    write(project / "shapes.py", SHAPES.replace('("hits", int64)', '("hits", float64)'))
    r = run(project)
    assert r == dict(EXPECTED, cached=False)


def test_same_name_in_another_module_is_another_class(project):
    run(project)
    write(project / "shapes2.py", SHAPES.replace("self.x * self.x + self.y * self.y", "1.0"))
    write(project / "kern.py", KERN.replace("from shapes import Point", "from shapes2 import Point"))
    write(project / "main2.py", MAIN.replace("from shapes import Point", "from shapes2 import Point"))
    env = dict(os.environ, MAHOU_CACHE_DIR=str(project / "cache"))
    out = subprocess.run([sys.executable, "main2.py"], cwd=project, env=env, capture_output=True, text=True,
                         timeout=180)
    assert out.returncode == 0, out.stderr
    r = json.loads(out.stdout.strip().splitlines()[-1])
    assert r == {"s": 4.0, "q": [8.0, 4.0], "same": True, "cached": False}


def test_handles_are_stable_and_distinct():
    from mahou import float64
    from mahou.experimental import jitclass

    def make():
        @jitclass([("v", float64)])
        class Twin:
            def __init__(self, v):
                self.v = v
        return Twin

    a, b = make(), make()
    ta, tb = a.class_type.instance_type, b.class_type.instance_type
    assert ta != tb  # the same description twice in one process: two classes
    assert a(1.0).v == b(2.0).v - 1.0


LINKED = """
import mahou
from mahou import int64, optional, typed, types
from mahou.experimental import jitclass
from mahou import deferred_type

node_type = deferred_type()


@jitclass([("value", int64), ("next", optional(node_type))])
class Node:
    def __init__(self, value, next):
        self.value = value
        self.next = next


node_type.define(Node.class_type.instance_type)


@mahou.njit(cache=True)
def build(n):
    head = Node(0, None)
    for i in range(1, n):
        head = Node(i, head)
    return head


@mahou.njit(cache=True)
def total(head):
    s = 0
    node = head
    while node is not None:
        s += node.value
        node = node.next
    return s
"""

LINKED_MAIN = """
import json, pickle, sys
import linked
head = linked.build(10)
out = {"sum": linked.total(head), "cached": [list(f.stats.values())[0]["cached"] for f in (linked.build, linked.total)]}
if len(sys.argv) > 1:
    with open(sys.argv[1], "wb") as fh:
        pickle.dump(head.next, fh)
print(json.dumps(out))
"""

UNPICKLE = """
import json, pickle, sys
with open(sys.argv[1], "rb") as fh:
    node = pickle.load(fh)
import linked
print(json.dumps({"sum": linked.total(node), "value": node.value, "type": type(node).__name__}))
"""


def run_script(path, text, *args):
    env = dict(os.environ, MAHOU_CACHE_DIR=str(path / "cache"))
    out = subprocess.run([sys.executable, "-c", text, *args], cwd=path, env=env, capture_output=True, text=True,
                         timeout=180)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_recursive_class_through_a_deferred_type(tmp_path):
    write(tmp_path / "linked.py", LINKED)
    assert run_script(tmp_path, LINKED_MAIN) == {"sum": 45, "cached": [False, False]}
    assert run_script(tmp_path, LINKED_MAIN) == {"sum": 45, "cached": [True, True]}


def test_instance_pickled_in_one_process_loads_in_another(tmp_path):
    write(tmp_path / "linked.py", LINKED)
    blob = str(tmp_path / "node.pkl")
    run_script(tmp_path, LINKED_MAIN, blob)
    assert run_script(tmp_path, UNPICKLE, blob) == {"sum": 36, "value": 8, "type": "Node"}
