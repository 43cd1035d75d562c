"""minigrad.utils.data: Dataset, TensorDataset and DataLoader, as in torch.utils.data (issue #3)."""
