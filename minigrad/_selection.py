"""Which element PyTorch's CPU picks among equal values, in kthvalue and mode: its C++ steps,
followed line by line (Python loops over the elements of each line), so that the same index
comes out. kthvalue selects with its own quickselect; mode sorts (value, index) pairs with
C++'s std::sort, which is not stable. Used by minigrad/_tensor_reduce.py.
"""
import numpy as np


def _lines(x, axis, index_of_line):
    """``index_of_line`` applied to each line of ``x`` along ``axis`` (a Python loop: the
    selections below follow PyTorch's C++ step by step, ties and all)."""
    lines = np.moveaxis(x, axis, -1)
    found = [index_of_line(line) for line in lines.reshape(-1, x.shape[axis])]
    return np.array(found, dtype=np.int64).reshape(lines.shape[:-1])


def kth_index(x, axis, k):
    return _lines(x, axis, lambda line: _quickselect(line.tolist(), k - 1))


def _quickselect(values, k):
    """Where the k-th smallest (from 0) of ``values`` is, found as PyTorch's kthvalue finds it
    (quick_select_template: median-of-three pivots, NaN largest), so that among equal
    values the same index comes out."""
    def greater(a, b):  # a > b, a NaN above any number
        return (a != a and b == b) or a > b
    index = list(range(len(values)))

    def swap(i, j):
        values[i], values[j] = values[j], values[i]
        index[i], index[j] = index[j], index[i]
    lo, hi = 0, len(values) - 1
    while True:
        if hi <= lo:
            return index[k]
        if hi == lo + 1:
            if greater(values[lo], values[hi]):
                swap(lo, hi)
            return index[k]
        swap(lo + (hi - lo) // 2, lo + 1)  # the pivot: the median of the first, middle and last
        if greater(values[lo + 1], values[hi]):
            swap(lo + 1, hi)
        if greater(values[lo], values[hi]):
            swap(lo, hi)
        if greater(values[lo + 1], values[lo]):
            swap(lo + 1, lo)
        i, j, pivot = lo + 1, hi, values[lo]
        while True:  # smaller values to the left of the pivot, greater to its right
            i += 1
            while greater(pivot, values[i]):
                i += 1
            j -= 1
            while greater(values[j], pivot):
                j -= 1
            if j < i:
                break
            swap(i, j)
        swap(lo, j)
        if j <= k:  # go on in the part that holds position k
            lo = i
        if j >= k:
            hi = j - 1


def mode_index(x, axis):
    """PyTorch's mode, line by line: sort (value, index) pairs by value with C++'s std::sort
    (so that equal values end in its order), then the longest run of equal values, the first
    of the longest; its index is the last pair's of the run."""
    def index_of_line(line):
        pairs = list(zip(line.tolist(), range(len(line))))
        _std_sort(pairs)
        best = run = 0
        for i, (value, index) in enumerate(pairs):
            run += 1
            if i == len(pairs) - 1 or value != pairs[i + 1][0]:  # (NaN != NaN: a run of its own)
                if run > best:
                    best, found = run, index
                run = 0
        return found
    return _lines(x, axis, index_of_line)


def _std_sort(a):
    """libstdc++'s std::sort of (value, index) pairs by value (not stable): introsort, quick
    sort with median-of-three pivots down to runs of 16, a heap sort if it goes too deep,
    then one insertion sort."""
    def less(i, j):
        return a[i][0] < a[j][0]

    def sift_down(first, hole, n, value):  # __adjust_heap, then __push_heap
        top = child = hole
        while child < (n - 1) // 2:
            child = 2 * (child + 1)
            if a[first + child][0] < a[first + child - 1][0]:
                child -= 1
            a[first + hole], hole = a[first + child], child
        if n % 2 == 0 and child == (n - 2) // 2:
            child = 2 * (child + 1)
            a[first + hole], hole = a[first + child - 1], child - 1
        parent = (hole - 1) // 2
        while hole > top and a[first + parent][0] < value[0]:
            a[first + hole], hole = a[first + parent], parent
            parent = (hole - 1) // 2
        a[first + hole] = value

    def heap_sort(first, last):
        n = last - first
        for parent in range((n - 2) // 2, -1, -1):
            sift_down(first, parent, n, a[first + parent])
        for end in range(last - 1, first, -1):
            value, a[end] = a[end], a[first]
            sift_down(first, 0, end - first, value)

    def introsort(first, last, depth):
        while last - first > 16:
            if depth == 0:
                return heap_sort(first, last)
            depth -= 1
            mid, lo, hi = first + (last - first) // 2, first + 1, last - 1
            if less(lo, mid):  # the median of three to the front
                pick = mid if less(mid, hi) else hi if less(lo, hi) else lo
            else:
                pick = lo if less(lo, hi) else hi if less(mid, hi) else mid
            a[first], a[pick] = a[pick], a[first]
            i, j = first + 1, last
            while True:  # Hoare's partition around a[first]
                while less(i, first):
                    i += 1
                j -= 1
                while less(first, j):
                    j -= 1
                if not i < j:
                    break
                a[i], a[j] = a[j], a[i]
                i += 1
            introsort(i, last, depth)
            last = i

    if len(a) > 1:
        introsort(0, len(a), 2 * (len(a).bit_length() - 1))
    for i in range(1, len(a)):  # insertion sort: each element moves past the greater ones
        value, j = a[i], i
        if i < 16 and value[0] < a[0][0]:  # (past 16, C++ does not look at the front first)
            a[1:i + 1], a[0] = a[0:i], value
            continue
        while j and value[0] < a[j - 1][0]:
            a[j], j = a[j - 1], j - 1
        a[j] = value
