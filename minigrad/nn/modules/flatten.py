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
