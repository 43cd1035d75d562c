"""torch.utils.data.sampler's path: the samplers themselves are in dataloader.py."""
from .dataloader import (BatchSampler, RandomSampler, Sampler, SequentialSampler, SubsetRandomSampler,
                         WeightedRandomSampler)

__all__ = ["BatchSampler", "RandomSampler", "Sampler", "SequentialSampler", "SubsetRandomSampler",
           "WeightedRandomSampler"]
