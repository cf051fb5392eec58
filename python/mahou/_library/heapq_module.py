"""The heapq module's functions in compiled code (asked for as '@heapq.<name>'): CPython's
algorithms (Lib/heapq.py) on a list of one item type, so that the heap a compiled
function builds is element for element the heap Python builds. nlargest and nsmallest
take their first two arguments, as in Numba."""

from mahou import njit


@njit
def _siftdown(heap, startpos, pos):
    newitem = heap[pos]
    while pos > startpos:
        parentpos = (pos - 1) >> 1
        parent = heap[parentpos]
        if newitem < parent:
            heap[pos] = parent
            pos = parentpos
            continue
        break
    heap[pos] = newitem


@njit
def _siftup(heap, pos):
    endpos = len(heap)
    startpos = pos
    newitem = heap[pos]
    childpos = 2 * pos + 1
    while childpos < endpos:
        rightpos = childpos + 1
        if rightpos < endpos and not heap[childpos] < heap[rightpos]:
            childpos = rightpos
        heap[pos] = heap[childpos]
        pos = childpos
        childpos = 2 * pos + 1
    heap[pos] = newitem
    _siftdown(heap, startpos, pos)


@njit
def heappush(heap, item):
    heap.append(item)
    _siftdown(heap, 0, len(heap) - 1)


@njit
def heappop(heap):
    lastelt = heap.pop()  # IndexError on an empty heap, as Python
    if len(heap) > 0:
        returnitem = heap[0]
        heap[0] = lastelt
        _siftup(heap, 0)
        return returnitem
    return lastelt


@njit
def heapreplace(heap, item):
    returnitem = heap[0]  # IndexError on an empty heap, as Python
    heap[0] = item
    _siftup(heap, 0)
    return returnitem


@njit
def heappushpop(heap, item):
    if len(heap) > 0 and heap[0] < item:
        returnitem = heap[0]
        heap[0] = item
        _siftup(heap, 0)
        return returnitem
    return item


@njit
def heapify(x):
    n = len(x)
    for i in range(n // 2 - 1, -1, -1):
        _siftup(x, i)


@njit
def nsmallest(n, iterable):
    out = sorted(iterable)
    return out[:max(n, 0)]


@njit
def nlargest(n, iterable):
    out = sorted(iterable, reverse=True)
    return out[:max(n, 0)]
