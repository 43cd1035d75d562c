"""minigrad.utils.data: Dataset, TensorDataset and DataLoader, as in torch.utils.data (issue #3).

A dataset answers ``dataset[i]`` and ``len(dataset)``; a DataLoader walks through
it in (optionally shuffled) batches::

    loader = DataLoader(TensorDataset(X, y), batch_size=32, shuffle=True)
    for xb, yb in loader:
        ...
"""
from . import sampler
from .dataloader import (BatchSampler, DataLoader, RandomSampler, Sampler, SequentialSampler,
                         SubsetRandomSampler, default_collate, default_convert)
from .dataloader import WeightedRandomSampler, get_worker_info
from .dataset import ChainDataset, ConcatDataset, Dataset, IterableDataset, StackDataset, Subset, TensorDataset
from .dataset import random_split

__all__ = ["BatchSampler", "ConcatDataset", "DataLoader", "Dataset", "RandomSampler", "Sampler",
           "SequentialSampler", "Subset", "SubsetRandomSampler", "TensorDataset", "default_collate",
           "default_convert", "random_split"]
__all__ += ["ChainDataset", "IterableDataset", "StackDataset", "WeightedRandomSampler", "get_worker_info"]
