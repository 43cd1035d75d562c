"""minigrad.optim: optimizers, as in torch.optim (issue #3)."""
