"""minigrad.nn: modules, losses and functional forms, as in torch.nn (issue #3)."""
