"""minigrad.utils.data against torch.utils.data: datasets, collation, DataLoader batching
and shuffling. Shuffled orders are checked here for what they must be: a permutation per
epoch, reproducible from a seed, different from one epoch to the next (that they are
PyTorch's orders after the same seed: tests/ops/test_random_torch.py). PyTorch's side runs live, or
is replayed from its recording where PyTorch is not installed (tests/oracle.py).
"""
import collections

import numpy as np
import pytest

import minigrad
from minigrad.utils.data import (BatchSampler, ConcatDataset, DataLoader, Dataset, RandomSampler,
                                 SequentialSampler, Subset, SubsetRandomSampler, TensorDataset,
                                 default_collate, random_split)
from oracle import ErrorRecord, caught, error_of

N = 10
XS = np.arange(N * 3, dtype=np.float32).reshape(N, 3)
YS = np.arange(N, dtype=np.int64) % 3


def tensor_dataset(lib):
    return lib.utils.data.TensorDataset(lib.from_numpy(XS.copy()), lib.from_numpy(YS.copy()))


def to_numpy(obj):
    """Batches of either library as nested lists/dicts of (array, dtype name) pairs."""
    if hasattr(obj, "detach"):
        return obj.detach().numpy(), str(obj.dtype)
    if isinstance(obj, dict):
        return {k: to_numpy(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return type(obj).__name__, [to_numpy(v) for v in obj]
    return obj


# -- datasets -----------------------------------------------------------------------------------------
def test_tensor_dataset_indexing_and_len(oracle):
    def program(lib):
        ds = tensor_dataset(lib)
        return len(ds), [to_numpy(ds[index]) for index in (0, 3, N - 1, -1, slice(2, 5))]
    assert oracle.same(program)[0] == N  # types, nesting, dtypes, shapes and values
    mine = tensor_dataset(minigrad)
    assert all(isinstance(mine[index], tuple) for index in (0, -1, slice(2, 5)))
    x, y = mine[4]
    assert x.tolist() == XS[4].tolist() and y.item() == YS[4]
    with pytest.raises(IndexError):
        mine[N]


def test_tensor_dataset_size_mismatch(oracle):
    error = oracle.same(lambda lib: error_of(lib.utils.data.TensorDataset, lib.zeros(3, 2), lib.zeros(4)))
    assert error == ErrorRecord("AssertionError", "Size mismatch between tensors")


def test_dataset_base_class_and_concatenation(oracle):
    class Squares(Dataset):
        def __init__(self, n):
            self.n = n

        def __getitem__(self, i):
            return i * i

        def __len__(self):
            return self.n

    with pytest.raises(NotImplementedError, match="^Subclasses of Dataset should implement __getitem__.$"):
        Dataset()[0]
    both = Squares(3) + Squares(2)
    assert isinstance(both, ConcatDataset) and len(both) == 5
    assert [both[i] for i in range(5)] == [0, 1, 4, 0, 1]
    assert both[-1] == 1 and both[-5] == 0 and both.cumulative_sizes == [3, 5]
    def program(lib):
        return (error_of(lambda: lib.utils.data.ConcatDataset([[1, 2], [3]])[-4]),
                error_of(lib.utils.data.ConcatDataset, []))
    negative, empty = oracle.same(program)
    assert (negative.type, empty.type) == ("ValueError", "AssertionError")


def test_subset_and_random_split(oracle):
    ds = list(range(10))
    sub = Subset(ds, [7, 2, 5])
    assert len(sub) == 3 and [sub[i] for i in range(3)] == [7, 2, 5]
    a, b = random_split(ds, [7, 3], generator=minigrad.Generator().manual_seed(1))
    assert len(a) == 7 and len(b) == 3 and sorted(list(a) + list(b)) == ds
    a2, _ = random_split(ds, [7, 3], generator=minigrad.Generator().manual_seed(1))
    assert list(a) == list(a2)  # the same seed, the same split
    def program(lib):
        split = lib.utils.data.random_split
        return ([len(s) for s in split(range(10), [0.5, 0.3, 0.2])],
                [len(s) for s in split(range(11), [0.34, 0.33, 0.33])], error_of(split, ds, [3, 3]))
    tenths, thirds, error = oracle.same(program)
    assert tenths == [5, 3, 2]
    assert error == ErrorRecord("ValueError", "Sum of input lengths does not equal the length of the input dataset!")


# -- collation ----------------------------------------------------------------------------------------
Point = collections.namedtuple("Point", "x y")


def samples(lib):
    """Lists of samples of every kind default_collate handles."""
    t = lambda *v: lib.tensor(list(v))
    return {
        "tensors": [t(1.0, 2.0), t(3.0, 4.0)],
        "int tensors": [t(1), t(2)],
        "0-d tensors": [lib.tensor(1.5), lib.tensor(2.5)],
        "floats": [1.5, 2.0, -3.25],
        "ints": [1, 2, 3],
        "bools": [True, False],
        "strings": ["a", "bc"],
        "numpy arrays": [np.array([1.0, 2.0]), np.array([3.0, 4.0])],
        "numpy float32 arrays": [np.ones((2, 2), np.float32), np.zeros((2, 2), np.float32)],
        "numpy scalars": [np.float32(1.5), np.float32(2.5)],
        "tuples": [(t(1.0), 0), (t(2.0), 1)],
        "lists": [[1.0, 2], [3.0, 4]],
        "dicts": [{"x": t(1.0, 2.0), "label": 3, "name": "a"}, {"x": t(3.0, 4.0), "label": 4, "name": "b"}],
        "nested": [{"pair": (t(1.0), [2, 3])}, {"pair": (t(4.0), [5, 6])}],
        "namedtuples": [Point(1.0, t(1)), Point(2.0, t(2))],
    }


@pytest.mark.parametrize("kind", samples(minigrad))
def test_default_collate_matches_torch(oracle, kind):
    oracle.same(lambda lib: to_numpy(lib.utils.data.default_collate(samples(lib)[kind])))
    if kind == "namedtuples":
        assert isinstance(default_collate(samples(minigrad)[kind]), Point)


def test_default_collate_errors(oracle):
    def program(lib):
        collate = lib.utils.data.default_collate
        return [error_of(collate, [[1, 2], [3]]), error_of(collate, [object(), object()]),
                error_of(collate, [lib.zeros(2), lib.zeros(3)])]
    unequal, objects, sizes = oracle.same(program)
    assert unequal == ErrorRecord("RuntimeError", "each element in list of batch should be of equal size")
    assert objects == ErrorRecord("TypeError", "default_collate: batch must contain tensors, numpy arrays, "
                                               "numbers, dicts or lists; found <class 'object'>")
    assert sizes.type == "RuntimeError" and sizes.message.startswith("stack expects each tensor to be equal size")


# -- DataLoader: batches ------------------------------------------------------------------------------
LOADER_CASES = {
    "default": {},
    "batches": {"batch_size": 3},
    "exact": {"batch_size": 5},
    "drop_last": {"batch_size": 3, "drop_last": True},
    "drop_last exact": {"batch_size": 5, "drop_last": True},
    "bigger than data": {"batch_size": 64},
    "bigger, drop_last": {"batch_size": 64, "drop_last": True},
    "unbatched": {"batch_size": None},
    "workers": {"batch_size": 4, "num_workers": 0},
}


@pytest.mark.parametrize("case", LOADER_CASES)
def test_loader_batches_match_torch(oracle, case):
    kwargs = LOADER_CASES[case]

    def program(lib):
        loader = lib.utils.data.DataLoader(tensor_dataset(lib), **kwargs)
        return len(loader), [to_numpy(batch) for batch in loader]
    length, batches = oracle.same(program)
    assert length == len(batches)


def test_loader_batch_sizes():
    sizes = lambda loader: [len(x) for x, _ in loader]
    ds = tensor_dataset(minigrad)
    assert sizes(DataLoader(ds, batch_size=3)) == [3, 3, 3, 1] and len(DataLoader(ds, batch_size=3)) == 4
    assert sizes(DataLoader(ds, batch_size=3, drop_last=True)) == [3, 3, 3]
    assert len(DataLoader(ds, batch_size=3, drop_last=True)) == 3
    assert sizes(DataLoader(ds, batch_size=11, drop_last=True)) == []
    x, y = next(iter(DataLoader(ds, batch_size=4)))
    assert x.shape == minigrad.Size([4, 3]) and y.shape == minigrad.Size([4])
    assert x.dtype is minigrad.float32 and y.dtype is minigrad.int64
    assert x.tolist() == XS[:4].tolist()


def test_unbatched_loader_gives_samples():
    ds = tensor_dataset(minigrad)
    loader = DataLoader(ds, batch_size=None)
    assert len(loader) == N
    items = list(loader)
    assert len(items) == N and [x.shape for x, _ in items] == [minigrad.Size([3])] * N
    assert [y.item() for _, y in items] == YS.tolist()


@pytest.mark.parametrize("kind", ["dicts", "tuples", "floats", "nested"])
def test_loader_over_a_list_of_samples_matches_torch(oracle, kind):
    oracle.same(lambda lib: [[to_numpy(batch) for batch in lib.utils.data.DataLoader(samples(lib)[kind], **kwargs)]
                             for kwargs in ({"batch_size": 2}, {"batch_size": None})])


def test_custom_collate_fn_sampler_and_batch_sampler():
    ds = list(range(10))
    loader = DataLoader(ds, batch_size=4, collate_fn=lambda batch: sum(batch))
    assert list(loader) == [6, 22, 17]
    loader = DataLoader(ds, batch_size=3, sampler=[9, 8, 7, 1], collate_fn=list)
    assert list(loader) == [[9, 8, 7], [1]] and len(loader) == 2
    loader = DataLoader(ds, batch_sampler=[[0, 1], [5]], collate_fn=list)
    assert list(loader) == [[0, 1], [5]] and loader.batch_size is None
    loader = DataLoader(ds, batch_sampler=BatchSampler(SequentialSampler(ds), 4, True))
    assert [b.tolist() for b in loader] == [[0, 1, 2, 3], [4, 5, 6, 7]] and len(loader) == 2


def test_getitems_fetches_a_whole_batch():
    class Batched(Dataset):
        def __init__(self):
            self.calls = []

        def __getitems__(self, indices):
            self.calls.append(list(indices))
            return [float(i) for i in indices]

        def __len__(self):
            return 5

    ds = Batched()
    assert [b.tolist() for b in DataLoader(ds, batch_size=2)] == [[0.0, 1.0], [2.0, 3.0], [4.0]]
    assert ds.calls == [[0, 1], [2, 3], [4]]


def test_multiple_workers_are_accepted_and_give_the_same_batches():
    ds = tensor_dataset(minigrad)
    plain = [x.tolist() for x, _ in DataLoader(ds, batch_size=4)]
    workers = DataLoader(ds, batch_size=4, num_workers=4, pin_memory=True, persistent_workers=True)
    assert [x.tolist() for x, _ in workers] == plain and workers.num_workers == 4


def loader_errors(lib, ds):
    DL = lib.utils.data.DataLoader
    return {
        "sampler and shuffle": lambda: DL(ds, sampler=[0, 1], shuffle=True),
        "batch_sampler and batch_size": lambda: DL(ds, batch_sampler=[[0]], batch_size=2),
        "batch_sampler and shuffle": lambda: DL(ds, batch_sampler=[[0]], shuffle=True),
        "batch_sampler and drop_last": lambda: DL(ds, batch_sampler=[[0]], drop_last=True),
        "unbatched and drop_last": lambda: DL(ds, batch_size=None, drop_last=True),
        "negative workers": lambda: DL(ds, num_workers=-1),
        "negative timeout": lambda: DL(ds, timeout=-1),
        "zero batch size": lambda: DL(ds, batch_size=0),
        "float batch size": lambda: DL(ds, batch_size=2.0),
        "drop_last not bool": lambda: DL(ds, drop_last=1),
        "num_samples": lambda: lib.utils.data.RandomSampler(ds, num_samples=0),
        "replacement": lambda: lib.utils.data.RandomSampler(ds, replacement=1),
    }


@pytest.mark.parametrize("case", loader_errors(minigrad, []))
def test_loader_errors_match_torch(oracle, case):
    oracle.same_error(lambda lib: loader_errors(lib, list(range(4)))[case]())


# -- DataLoader: shuffling ------------------------------------------------------------------------------
def epoch_order(loader):
    return [int(i) for _, idx in loader for i in idx.tolist()]


def indexed(n=50):
    return TensorDataset(minigrad.zeros(n, 1), minigrad.arange(n))


def test_shuffle_visits_every_sample_once_per_epoch():
    loader = DataLoader(indexed(), batch_size=7, shuffle=True)
    assert len(loader) == 8
    for _ in range(3):
        order = epoch_order(loader)
        assert sorted(order) == list(range(50)) and order != list(range(50))


def test_shuffle_is_new_each_epoch_and_reproducible_from_a_seeded_generator():
    def orders(seed):
        generator = minigrad.Generator().manual_seed(seed)
        loader = DataLoader(indexed(), batch_size=8, shuffle=True, generator=generator)
        return [epoch_order(loader) for _ in range(3)]

    first = orders(0)
    assert first == orders(0)  # the same seed: the same epochs
    assert first[0] != first[1] != first[2] != first[0]  # each epoch its own order
    assert first != orders(1)


def test_shuffle_follows_manual_seed():
    loader = DataLoader(indexed(), batch_size=8, shuffle=True)
    minigrad.manual_seed(123)
    a = [epoch_order(loader) for _ in range(2)]
    minigrad.manual_seed(123)
    b = [epoch_order(loader) for _ in range(2)]
    assert a == b and a[0] != a[1]


def test_shuffle_with_drop_last_leaves_out_different_samples():
    loader = DataLoader(indexed(10), batch_size=4, shuffle=True, drop_last=True,
                        generator=minigrad.Generator().manual_seed(0))
    epochs = [epoch_order(loader) for _ in range(5)]
    assert all(len(e) == 8 and len(set(e)) == 8 for e in epochs)
    assert len({tuple(sorted(e)) for e in epochs}) > 1


def test_samplers():
    g = minigrad.Generator().manual_seed(3)
    assert list(SequentialSampler(range(4))) == [0, 1, 2, 3]
    assert sorted(RandomSampler(range(6), generator=g)) == list(range(6))
    more = list(RandomSampler(range(4), num_samples=10, generator=g))
    assert len(more) == 10 and sorted(more[:8]) == [0, 0, 1, 1, 2, 2, 3, 3]
    drawn = list(RandomSampler(range(3), replacement=True, num_samples=30, generator=g))
    assert len(drawn) == 30 and set(drawn) == {0, 1, 2}
    sub = SubsetRandomSampler(list(range(100, 120)), generator=g)
    epochs = [list(sub) for _ in range(3)]
    assert all(sorted(e) == list(range(100, 120)) for e in epochs) and len(sub) == 20
    assert epochs[0] != epochs[1] != epochs[2] and epochs[0] != list(range(100, 120))


# -- random_split, Subset and ConcatDataset in depth -----------------------------------------------------
def test_splits_and_concatenations_match_torch(oracle):
    """All but which samples land where (that depends on the random stream): lengths, types,
    what each piece holds, the fraction arithmetic and its warnings."""
    def program(lib):
        data = lib.utils.data
        ds = tensor_dataset(lib)
        g = lib.Generator().manual_seed(42)
        train, val, test = data.random_split(ds, [0.7, 0.2, 0.1], generator=g)
        pieces = [(type(s).__name__, len(s), s.dataset is ds, len(s.indices), type(s.indices).__name__)
                  for s in (train, val, test)]
        union = sorted(i for s in (train, val, test) for i in s.indices)
        sample = train[0]
        nested = data.Subset(data.Subset(ds, [9, 8, 7, 6]), [1, 3])
        both = data.ConcatDataset([ds, data.TensorDataset(lib.zeros(3, 3), lib.ones(3, dtype=lib.int64))])
        plus = ds + ds
        rounding = [[len(s) for s in data.random_split(range(n), fracs, generator=lib.Generator().manual_seed(0))]
                    for n, fracs in ((11, [0.34, 0.33, 0.33]), (7, [0.5, 0.5]), (3, [0.25, 0.25, 0.5]),
                                     (10, [1.0]))]
        with_zero = caught(data.random_split, range(2), [0.1, 0.9])
        return (pieces, union, [tuple(t.shape) for t in sample], [str(t.dtype) for t in sample], nested[0], nested[1],
                len(both), both.cumulative_sizes, both[10], both[-1], both[9], len(plus), type(plus).__name__,
                rounding, [len(s) for s in with_zero[0]], with_zero[1],
                error_of(data.random_split, ds, [0.5, 0.6]), error_of(data.random_split, ds, [1.5, -0.5]),
                error_of(data.random_split, ds, [4, 5]), error_of(data.random_split, ds, [11, -1]))
    answer = oracle.same(program)
    assert [p[1] for p in answer[0]] == [7, 2, 1] and answer[1] == list(range(N))


def test_the_same_generator_seed_gives_the_same_split():
    ds = tensor_dataset(minigrad)
    split = lambda seed: [s.indices for s in random_split(ds, [0.6, 0.4], generator=minigrad.Generator().manual_seed(seed))]
    assert split(7) == split(7) and split(7) != split(8)
    minigrad.manual_seed(3)
    a = [s.indices for s in random_split(ds, [5, 5])]
    minigrad.manual_seed(3)
    assert a == [s.indices for s in random_split(ds, [5, 5])]  # no generator: the global one


def test_loader_with_a_seeded_generator_matches_torch_in_shapes(oracle):
    def program(lib):
        data = lib.utils.data
        ds = tensor_dataset(lib)
        loader = data.DataLoader(ds, batch_size=4, shuffle=True, generator=lib.Generator().manual_seed(0))
        shapes = [(tuple(x.shape), tuple(y.shape), str(x.dtype), str(y.dtype)) for x, y in loader]
        seen = sorted(int(v) for _, y in loader for v in (y * 0 + 1).tolist())
        sampler = data.RandomSampler(ds, generator=lib.Generator().manual_seed(1))
        train, _ = data.random_split(ds, [8, 2], generator=lib.Generator().manual_seed(2))
        split_loader = data.DataLoader(train, batch_size=3, drop_last=True)
        return (len(loader), shapes, len(seen), len(list(sampler)), sorted(sampler), len(split_loader),
                [tuple(x.shape) for x, _ in split_loader])
    oracle.same(program)
