"""``nn.Dropout``, ``nn.Dropout1d``, ``nn.Dropout2d``, ``nn.Dropout3d``, ``nn.AlphaDropout`` and
``nn.FeatureAlphaDropout``."""
from .. import functional as F
from .module import Module


class Dropout(Module):
    """In training, zero each element with probability ``p`` and scale the rest by
    ``1/(1-p)``; in eval mode, return the input unchanged."""

    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        if not 0 <= p <= 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p, self.inplace = p, inplace

    def forward(self, input):
        return F.dropout(input, self.p, self.training, self.inplace)

    def extra_repr(self):
        return f"p={self.p}, inplace={self.inplace}"


class Dropout2d(Dropout):
    """Dropout of whole channels: in training, each (sample, channel) feature map of an
    input (N, C, H, W) is zeroed with probability ``p``, the rest scaled by ``1/(1-p)``."""

    def forward(self, input):
        return F.dropout2d(input, self.p, self.training, self.inplace)


class AlphaDropout(Dropout):
    """Dropout for SELU networks (see F.alpha_dropout): keeps mean 0 and variance 1."""

    def forward(self, input):
        return F.alpha_dropout(input, self.p, self.training)


class FeatureAlphaDropout(Dropout):
    """alpha_dropout of whole channels."""

    def forward(self, input):
        return F.feature_alpha_dropout(input, self.p, self.training)


class Dropout1d(Dropout):
    """Dropout of whole channels of sequences (N, C, L) or (C, L)."""

    def forward(self, input):
        return F.dropout1d(input, self.p, self.training, self.inplace)


class Dropout3d(Dropout):
    """Dropout of whole channels of volumes (N, C, D, H, W) or (C, D, H, W)."""

    def forward(self, input):
        return F.dropout3d(input, self.p, self.training, self.inplace)
