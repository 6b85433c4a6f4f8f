# The basic tree and the enhanced graph of a sentence for the validator's compiled screen
# (_cvalidate.pyx): one tree under 0, every word reached, every subtree contiguous.
# Inline C functions, without the GIL, over arrays of word numbers (1-based, 0 = the root).
from libc.stdint cimport int32_t


cdef inline bint _is_tree(const int32_t* head, Py_ssize_t n, int32_t* mark) noexcept nogil:
    """Words 1..n (``head[k]`` in 0..n, not k) form one tree under 0 with one root."""
    cdef Py_ssize_t k, roots = 0
    cdef int32_t j, top
    for k in range(1, n + 1):
        mark[k] = 0
        if head[k] == 0:
            roots += 1
    if roots != 1:
        return False
    for k in range(1, n + 1):  # walk up; 1 = on this walk, 2 = reaches the root
        j = <int32_t>k
        while j != 0 and mark[j] == 0:
            mark[j] = 1
            j = head[j]
        if j != 0 and mark[j] == 1:
            return False  # back on this walk: a cycle
        top = <int32_t>k
        while top != 0 and mark[top] == 1:
            mark[top] = 2
            top = head[top]
    return True


cdef inline bint _graph_connected(const int32_t* edge_head, const int32_t* edge_dep, Py_ssize_t n_edges,
                           Py_ssize_t n, int32_t* start, int32_t* children,
                           int32_t* queue) noexcept nogil:
    """Every word 1..n is reached from 0 by the edges (head -> dependent), all in 0..n;
    ``start`` holds n + 2 items, ``children`` n_edges, ``queue`` 2 (n + 1)."""
    cdef Py_ssize_t k, e, read = 0, got = 1
    cdef int32_t node, child
    cdef int32_t* seen = queue + (n + 1)
    for k in range(n + 2):
        start[k] = 0
    for e in range(n_edges):
        start[edge_head[e] + 1] += 1
    for k in range(1, n + 2):
        start[k] += start[k - 1]
    for e in range(n_edges):  # start[h] runs over h's slots; shifted back below
        children[start[edge_head[e]]] = edge_dep[e]
        start[edge_head[e]] += 1
    for k in range(n + 1, 0, -1):
        start[k] = start[k - 1]
    start[0] = 0
    for k in range(n + 1):
        seen[k] = 0
    seen[0] = 1
    queue[0] = 0
    while read < got:
        node = queue[read]
        read += 1
        for e in range(start[node], start[node + 1]):
            child = children[e]
            if not seen[child]:
                seen[child] = 1
                queue[got] = child
                got += 1
    return got == n + 1



cdef inline bint _projective(const int32_t* head, Py_ssize_t n, int32_t* lo, int32_t* hi,
                             int32_t* size, int32_t* order) noexcept nogil:
    """Every subtree of the tree (words 1..n, one tree under 0: see :func:`_is_tree`) covers a
    contiguous span of words: its first and last word ``lo``, ``hi`` and its ``size`` (n + 1
    items each, like ``order``) are summed from the leaves up, in time linear in n whatever the
    tree's depth (a walk to the root per word was quadratic on a head chain)."""
    cdef Py_ssize_t k, got = 0, first, last
    cdef int32_t j, h
    for k in range(1, n + 1):
        lo[k], hi[k], size[k] = <int32_t>k, <int32_t>k, 0  # size 0: not yet in ``order``
    # ``order``: every word after its parent.  Each word's walk up stops at the first word
    # already placed, so each word is walked over once; the walk is put in root-first order.
    for k in range(1, n + 1):
        first = got
        j = <int32_t>k
        while j != 0 and size[j] == 0:
            size[j] = 1
            order[got] = j
            got += 1
            j = head[j]
        last = got - 1
        while first < last:
            order[first], order[last] = order[last], order[first]
            first += 1
            last -= 1
    for k in range(got - 1, -1, -1):  # children before their parents
        j = order[k]
        h = head[j]
        if h != 0:
            if lo[j] < lo[h]:
                lo[h] = lo[j]
            if hi[j] > hi[h]:
                hi[h] = hi[j]
            size[h] += size[j]
    for k in range(1, n + 1):
        if hi[k] - lo[k] + 1 != size[k]:
            return False
    return True
