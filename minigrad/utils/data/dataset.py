"""Datasets, as torch.utils.data's: map-style ones answer ``__getitem__(i)`` and
``__len__()``; iterable-style ones (``IterableDataset``) are iterated, for data that comes
as a stream (lines of a file, a generator) rather than by index."""
import bisect
import collections.abc
import math
import warnings

from ... import _creation


class Dataset:
    """Base class of map-style datasets: ``dataset[i]`` is sample ``i``.

    Subclasses write ``__getitem__`` and (for DataLoader's default sampler) ``__len__``.
    """

    def __getitem__(self, index):
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")

    def __add__(self, other):
        return ConcatDataset([self, other])


class IterableDataset(Dataset, collections.abc.Iterable):
    """Base class of iterable-style datasets: subclasses write ``__iter__``, yielding the
    samples (and may write ``__len__``). A DataLoader over one batches the samples in the
    order they come: it takes no ``shuffle``, ``sampler`` or ``batch_sampler``."""

    def __add__(self, other):
        return ChainDataset([self, other])


class ChainDataset(IterableDataset):
    """Several iterable datasets, one after the other (``a + b`` makes one)."""

    def __init__(self, datasets):
        super().__init__()
        self.datasets = datasets

    def __iter__(self):
        for d in self.datasets:
            if not isinstance(d, IterableDataset):
                raise AssertionError("ChainDataset only supports IterableDataset")  # noqa: TRY004 (PyTorch's)
            yield from d

    def __len__(self):
        total = 0
        for d in self.datasets:
            if not isinstance(d, IterableDataset):
                raise AssertionError("ChainDataset only supports IterableDataset")  # noqa: TRY004 (PyTorch's)
            total += len(d)
        return total


class StackDataset(Dataset):
    """Datasets of the same length side by side: sample ``i`` is the tuple of their samples
    ``i`` (``StackDataset(images, labels)``), or a dict with keyword arguments
    (``StackDataset(image=images, label=labels)``)."""

    def __init__(self, *args, **kwargs):
        if args:
            if kwargs:
                raise ValueError("Supported either ``tuple``- (via ``args``) or``dict``- (via ``kwargs``) like "
                                 "input/output, but both types are given.")
            self._length = len(args[0])
            if any(self._length != len(dataset) for dataset in args):
                raise ValueError("Size mismatch between datasets")
            self.datasets = args
        elif kwargs:
            values = list(kwargs.values())
            self._length = len(values[0])
            if any(self._length != len(dataset) for dataset in values):
                raise ValueError("Size mismatch between datasets")
            self.datasets = kwargs
        else:
            raise ValueError("At least one dataset should be passed")

    def __getitem__(self, index):
        if isinstance(self.datasets, dict):
            return {k: dataset[index] for k, dataset in self.datasets.items()}
        return tuple(dataset[index] for dataset in self.datasets)

    def __getitems__(self, indices):
        """A batch of samples at once (DataLoader asks so), from each dataset's own
        ``__getitems__`` where it has one."""
        named = isinstance(self.datasets, dict)
        items = self.datasets.items() if named else enumerate(self.datasets)
        batch = [{} if named else [] for _ in indices]
        for k, dataset in items:
            if callable(getattr(dataset, "__getitems__", None)):
                samples = dataset.__getitems__(indices)
                if len(samples) != len(indices):
                    raise ValueError(f"Nested dataset's output size mismatch. Expected {len(indices)}, "
                                     f"got {len(samples)}")
            else:
                samples = [dataset[idx] for idx in indices]
            for sample, data in zip(batch, samples):
                if named:
                    sample[k] = data
                else:
                    sample.append(data)
        return batch if named else [tuple(sample) for sample in batch]

    def __len__(self):
        return self._length


class TensorDataset(Dataset):
    """Sample ``i`` is ``(t[i] for t in tensors)``: e.g. ``TensorDataset(X, y)`` gives ``(x, y)`` pairs."""

    def __init__(self, *tensors):
        if any(tensors[0].size(0) != t.size(0) for t in tensors):
            raise AssertionError("Size mismatch between tensors")
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(t[index] for t in self.tensors)

    def __len__(self):
        return self.tensors[0].size(0)


class ConcatDataset(Dataset):
    """Several datasets one after the other (``a + b`` makes one)."""

    def __init__(self, datasets):
        self.datasets = list(datasets)
        if len(self.datasets) == 0:
            raise AssertionError("datasets should not be an empty iterable")
        for d in self.datasets:
            if isinstance(d, IterableDataset):
                raise AssertionError("ConcatDataset does not support IterableDataset")  # noqa: TRY004 (PyTorch's)
        self.cumulative_sizes = []  # the end of each dataset in the joint numbering
        total = 0
        for d in self.datasets:
            total += len(d)
            self.cumulative_sizes.append(total)

    def __len__(self):
        return self.cumulative_sizes[-1]

    def __getitem__(self, idx):
        if idx < 0:
            if -idx > len(self):
                raise ValueError("absolute value of index should not exceed dataset length")
            idx = len(self) + idx
        which = bisect.bisect_right(self.cumulative_sizes, idx)  # the first dataset ending after idx
        start = self.cumulative_sizes[which - 1] if which > 0 else 0
        return self.datasets[which][idx - start]


class Subset(Dataset):
    """The samples of ``dataset`` at ``indices``, renumbered from 0."""

    def __init__(self, dataset, indices):
        self.dataset = dataset
        self.indices = indices

    def __getitem__(self, idx):
        if isinstance(idx, list):
            return self.dataset[[self.indices[i] for i in idx]]
        return self.dataset[self.indices[idx]]

    def __len__(self):
        return len(self.indices)


def random_split(dataset, lengths, generator=None):
    """Split ``dataset`` at random into non-overlapping Subsets of the given lengths.

    ``lengths`` may also be fractions summing to 1 (``[0.8, 0.2]``): each split gets
    ``floor(fraction * len(dataset))`` samples, and any left over go one each to the
    first splits. ``generator`` (default: the global one) makes the split reproducible.
    """
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        counts = []
        for i, frac in enumerate(lengths):
            if frac < 0 or frac > 1:
                raise ValueError(f"Fraction at index {i} is not between 0 and 1")
            counts.append(math.floor(len(dataset) * frac))
        for i in range(len(dataset) - sum(counts)):
            counts[i % len(counts)] += 1
        lengths = counts
        for i, length in enumerate(lengths):
            if length == 0:
                warnings.warn(f"Length of split at index {i} is 0. This might result in an empty dataset.",
                              stacklevel=2)
    if sum(lengths) != len(dataset):
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    indices = _creation.randperm(sum(lengths), generator=generator).tolist()
    splits, offset = [], 0
    for length in lengths:
        splits.append(Subset(dataset, indices[offset:offset + length]))
        offset += length
    return splits
