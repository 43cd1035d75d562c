"""Datasets: anything with ``__getitem__(i)`` and ``__len__()``, as torch.utils.data's."""
import bisect
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
