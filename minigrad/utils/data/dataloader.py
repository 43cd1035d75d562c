"""DataLoader: iterate over a dataset in (shuffled) batches, as torch.utils.data's.

Three small pieces do the work: a *sampler* yields sample indices (in order, or a
new random permutation each epoch), a *batch sampler* groups them into lists of
``batch_size``, and ``collate_fn`` turns a list of samples into one batch (by default
stacking tensors along a new first dimension). Everything runs in this process.
"""
import collections.abc
import copy
import itertools
import math
import numbers
import warnings

import numpy as np

from ... import _creation, _dtype, _random
from ..._functions import multinomial, stack
from ..._tensor import Tensor
from .dataset import IterableDataset


# -- samplers: which indices, in which order ------------------------------------------------------
class Sampler:
    """Base class: iterating gives dataset indices."""

    def __init__(self, data_source=None):
        pass

    def __iter__(self):
        raise NotImplementedError


class SequentialSampler(Sampler):
    """0, 1, ..., len(data_source) - 1."""

    def __init__(self, data_source):
        self.data_source = data_source

    def __iter__(self):
        return iter(range(len(self.data_source)))

    def __len__(self):
        return len(self.data_source)


class RandomSampler(Sampler):
    """A random order: a fresh permutation each time it is iterated (each epoch).

    Drawn from ``generator``; without one, as PyTorch does, from a new generator seeded
    with a number drawn from the default one (so ``manual_seed`` makes it reproducible).
    ``replacement=True`` draws ``num_samples`` indices independently instead.
    """

    def __init__(self, data_source, replacement=False, num_samples=None, generator=None):
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        if not isinstance(self.replacement, bool):
            raise TypeError(f"replacement should be a boolean value, but got replacement={self.replacement}")
        if not isinstance(self.num_samples, int) or self.num_samples <= 0:
            raise ValueError(f"num_samples should be a positive integer value, but got "
                             f"num_samples={self.num_samples}")

    @property
    def num_samples(self):
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self):
        n = len(self.data_source)
        generator = self.generator
        if generator is None:  # PyTorch's: torch.empty((), dtype=torch.int64).random_() as the seed
            seed = int(_random.random_any(_random.default_generator, 1, _dtype.int64)[0])
            generator = _random.Generator().manual_seed(seed)
        if self.replacement:
            for _ in range(self.num_samples // 32):
                yield from _creation.randint(n, size=(32,), generator=generator).tolist()
            yield from _creation.randint(n, size=(self.num_samples % 32,), generator=generator).tolist()
            return
        for _ in range(self.num_samples // n):  # num_samples > n: whole permutations, then part of one
            yield from _creation.randperm(n, generator=generator).tolist()
        yield from _creation.randperm(n, generator=generator).tolist()[:self.num_samples % n]

    def __len__(self):
        return self.num_samples


class SubsetRandomSampler(Sampler):
    """The given indices, in a new random order each epoch."""

    def __init__(self, indices, generator=None):
        self.indices = indices
        self.generator = generator

    def __iter__(self):
        for i in _creation.randperm(len(self.indices), generator=self.generator).tolist():
            yield self.indices[i]

    def __len__(self):
        return len(self.indices)


class WeightedRandomSampler(Sampler):
    """``num_samples`` indices drawn with probabilities proportional to ``weights`` (one
    per sample; need not sum to 1): to oversample rare classes. With replacement by
    default; ``replacement=False`` draws each index at most once."""

    def __init__(self, weights, num_samples, replacement=True, generator=None):
        if not isinstance(num_samples, int) or isinstance(num_samples, bool) or num_samples <= 0:
            raise ValueError(f"num_samples should be a positive integer value, but got num_samples={num_samples}")
        if not isinstance(replacement, bool):
            raise ValueError(f"replacement should be a boolean value, but got replacement={replacement}")  # noqa: TRY004 (PyTorch's)
        weights_tensor = _creation.as_tensor(weights, dtype=_dtype.float64)
        if len(weights_tensor.shape) != 1:
            raise ValueError("weights should be a 1d sequence but given weights have shape "
                             f"{tuple(weights_tensor.shape)}")
        self.weights = weights_tensor
        self.num_samples = num_samples
        self.replacement = replacement
        self.generator = generator

    def __iter__(self):
        drawn = multinomial(self.weights, self.num_samples, self.replacement, generator=self.generator)
        yield from iter(drawn.tolist())

    def __len__(self):
        return self.num_samples


class _InfiniteConstantSampler(Sampler):
    """The sampler of a DataLoader over an IterableDataset: None forever (the dataset's own
    iterator decides what comes, and when it ends)."""

    def __iter__(self):
        while True:
            yield None


class BatchSampler(Sampler):
    """Groups another sampler's indices into lists of ``batch_size``; the last may be
    shorter, unless ``drop_last=True`` leaves it out."""

    def __init__(self, sampler, batch_size, drop_last):
        if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size <= 0:
            raise ValueError("batch_size should be a positive integer value, "
                             f"but got batch_size={batch_size}")
        if not isinstance(drop_last, bool):
            raise ValueError(  # noqa: TRY004 (PyTorch's type)
                f"drop_last should be a boolean value, but got drop_last={drop_last}")
        self.sampler = sampler
        self.batch_size = batch_size
        self.drop_last = drop_last

    def __iter__(self):
        indices = iter(self.sampler)
        while batch := list(itertools.islice(indices, self.batch_size)):
            if self.drop_last and len(batch) < self.batch_size:
                return
            yield batch

    def __len__(self):
        if self.drop_last:
            return len(self.sampler) // self.batch_size
        return (len(self.sampler) + self.batch_size - 1) // self.batch_size


# -- collating: a list of samples -> one batch ------------------------------------------------------
_COLLATE_ERROR = ("default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; "
                  "found {}")


def default_collate(batch):
    """Merge a list of samples into a batch, keeping the samples' structure.

    Tensors are stacked (a new first dimension of size ``len(batch)``); NumPy arrays
    too, as tensors; Python floats become a float64 tensor and ints an int64 tensor;
    strings stay a list. A tuple/list sample gives a list with one batch per position
    (``(x, y)`` samples give ``[X, Y]``), a dict sample a dict with one batch per key.
    """
    elem = batch[0]
    if isinstance(elem, Tensor):
        return stack(batch, 0)
    if isinstance(elem, np.ndarray):
        if elem.dtype.kind in "OSUV":  # strings or Python objects: nothing to stack
            raise TypeError(_COLLATE_ERROR.format(elem.dtype))
        return default_collate([_creation.tensor(b) for b in batch])
    if isinstance(elem, np.generic):  # a NumPy scalar, such as np.float32(1.0)
        return _creation.tensor(np.array(batch))
    if isinstance(elem, float):
        return _creation.tensor(batch, dtype=_dtype.float64)
    if isinstance(elem, (int, numbers.Integral)):  # bools too: they give a bool tensor
        return _creation.tensor(batch)
    if isinstance(elem, (str, bytes)):
        return batch
    if isinstance(elem, collections.abc.Mapping):
        collated = {key: default_collate([d[key] for d in batch]) for key in elem}
        if isinstance(elem, collections.abc.MutableMapping):
            out = copy.copy(elem)  # keep the mapping's own type (e.g. OrderedDict)
            out.update(collated)
            return out
        return collated
    if isinstance(elem, tuple) and hasattr(elem, "_fields"):  # a namedtuple keeps its type
        return type(elem)(*(default_collate(samples) for samples in zip(*batch)))
    if isinstance(elem, collections.abc.Sequence):
        if any(len(sample) != len(elem) for sample in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        return [default_collate(samples) for samples in zip(*batch)]
    raise TypeError(_COLLATE_ERROR.format(type(elem)))


def default_convert(data):
    """What ``batch_size=None`` applies to each sample: NumPy arrays become tensors,
    inside tuples, lists and dicts too; everything else is left as it is."""
    if isinstance(data, np.ndarray) and data.dtype.kind not in "OSUV":
        return _creation.tensor(data)
    if isinstance(data, np.generic) and data.dtype.kind not in "OSUV":
        return _creation.tensor(np.asarray(data))
    if isinstance(data, collections.abc.Mapping):
        return {key: default_convert(value) for key, value in data.items()}
    if isinstance(data, tuple) and hasattr(data, "_fields"):
        return type(data)(*(default_convert(d) for d in data))
    if isinstance(data, tuple):
        return [default_convert(d) for d in data]  # as PyTorch: a list
    if isinstance(data, list):
        return [default_convert(d) for d in data]
    return data


# -- the loader -------------------------------------------------------------------------------------
def get_worker_info():
    """Inside a DataLoader worker process, PyTorch tells the worker's id and the number of
    workers (so an IterableDataset can split its stream between them); in the main process
    it is None. minigrad always loads in the main process: always None."""
    return None  # noqa: RET501 (what a learner reads: the answer is None)


class DataLoader:
    """Iterate over ``dataset`` in batches of ``batch_size``.

    ``shuffle=True`` visits the samples in a new random order each epoch, drawn from
    ``generator`` (default: the global one, so ``manual_seed`` makes it reproducible).
    ``drop_last=True`` leaves out a last, incomplete batch. ``batch_size=None`` gives
    the samples one by one, unbatched. ``sampler`` / ``batch_sampler`` choose the
    indices yourself; ``collate_fn`` merges a list of samples into a batch.

    Loading always happens in this process: ``num_workers``, ``pin_memory`` and the
    other multiprocessing options are accepted so PyTorch code runs, and ignored
    (the batches are the same; only PyTorch's speed-up is missing). One exception: over an
    IterableDataset, each of PyTorch's workers iterates its own copy of the dataset (so
    samples repeat unless ``get_worker_info`` splits them); here it is iterated once.
    """

    def __init__(self, dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None,
                 num_workers=0, collate_fn=None, pin_memory=False, drop_last=False, timeout=0,
                 worker_init_fn=None, multiprocessing_context=None, generator=None, *,
                 prefetch_factor=None, persistent_workers=False, pin_memory_device="", in_order=True):
        if num_workers < 0:
            raise ValueError("num_workers option should be non-negative; "
                             "use num_workers=0 to disable multiprocessing.")
        if timeout < 0:
            raise ValueError("timeout option should be non-negative")
        self._is_iterable = isinstance(dataset, IterableDataset)
        if self._is_iterable:  # its samples come in its own order: nothing to choose
            if shuffle not in {False, None}:
                raise ValueError("DataLoader with IterableDataset: expected unspecified shuffle option, but got "
                                 f"shuffle={shuffle}")
            if sampler is not None:
                raise ValueError("DataLoader with IterableDataset: expected unspecified sampler option, but got "
                                 f"sampler={sampler}")
            if batch_sampler is not None:
                raise ValueError("DataLoader with IterableDataset: expected unspecified batch_sampler option, but "
                                 f"got batch_sampler={batch_sampler}")
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError("batch_sampler option is mutually exclusive with batch_size, shuffle, "
                                 "sampler, and drop_last")
            batch_size, drop_last = None, False
        elif batch_size is None and drop_last:
            raise ValueError("batch_size=None option disables auto-batching and is mutually exclusive "
                             "with drop_last")

        if sampler is None:
            if self._is_iterable:
                sampler = _InfiniteConstantSampler()
            else:
                sampler = RandomSampler(dataset, generator=generator) if shuffle else SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)

        self.dataset = dataset
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler  # None means no batching: one sample at a time
        self.num_workers = num_workers
        self.generator = generator
        if collate_fn is None:
            collate_fn = default_collate if batch_sampler is not None else default_convert
        self.collate_fn = collate_fn
        self._IterableDataset_len_called = None  # what len(loader) said, for the warning below

    def __iter__(self):
        # PyTorch's iterator, when it is made, draws a seed for worker processes (its _base_seed:
        # an int64's random_(), two words of ``generator`` or of the default generator), with
        # workers or without: drawn here too, so that the stream stays in step with PyTorch's.
        _random.random_any(_random.generator_of(self.generator), 1, _dtype.int64)
        if self._is_iterable:  # (what len(loader) said so far is read now, as PyTorch's iterator does)
            return self._iter_iterable(self._IterableDataset_len_called)
        return self._iter_map()

    def _iter_map(self):
        dataset, collate = self.dataset, self.collate_fn
        if self.batch_sampler is None:
            for index in self.sampler:
                yield collate(dataset[index])
            return
        # A dataset may fetch a whole batch at once with __getitems__ (as in PyTorch).
        getitems = getattr(dataset, "__getitems__", None)
        for indices in self.batch_sampler:
            samples = getitems(indices) if getitems else [dataset[i] for i in indices]
            yield collate(samples)

    def _iter_iterable(self, promised):
        """Batches of the samples as the dataset yields them; a last short batch unless
        ``drop_last``. PyTorch warns when more come than ``len(loader)`` promised."""
        samples, collate = iter(self.dataset), self.collate_fn
        yielded = 0
        while True:
            if self.batch_sampler is None:
                try:
                    data = next(samples)
                except StopIteration:
                    return
            else:
                data = list(itertools.islice(samples, self.batch_size))
                if len(data) == 0 or (self.drop_last and len(data) < self.batch_size):
                    return
            batch = collate(data)
            yielded += 1
            if promised is not None and yielded > promised:
                warnings.warn(f"Length of IterableDataset {self.dataset} was reported to be "
                              f"{promised}(when accessing len(dataloader)), but {yielded} "
                              "samples have been fetched. ", stacklevel=2)
            yield batch

    def __len__(self):
        if self._is_iterable:  # what the dataset says, in batches (TypeError if it has no len)
            length = self._IterableDataset_len_called = len(self.dataset)
            if self.batch_size is not None:
                length = length // self.batch_size if self.drop_last else math.ceil(length / self.batch_size)
            return length
        return len(self.sampler if self.batch_sampler is None else self.batch_sampler)
