"""``nn.Flatten``."""
from .module import Module


class Flatten(Module):
    """Merge dims ``start_dim`` to ``end_dim`` into one: by default, every dim but the
    batch dim, e.g. images (N, C, H, W) into rows (N, C*H*W) for a Linear layer."""

    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__()
        self.start_dim, self.end_dim = start_dim, end_dim

    def forward(self, input):
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self):
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class Unflatten(Module):
    """Split dim ``dim`` into ``unflattened_size``: Flatten's inverse, e.g. rows (N, 784)
    back into images (N, 1, 28, 28) with ``Unflatten(1, (1, 28, 28))``."""

    def __init__(self, dim, unflattened_size):
        super().__init__()
        self.dim, self.unflattened_size = dim, unflattened_size

    def forward(self, input):
        return input.unflatten(self.dim, self.unflattened_size)

    def extra_repr(self):
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"
