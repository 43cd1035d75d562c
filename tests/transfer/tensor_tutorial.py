"""In the style of PyTorch's tensor tutorial: making tensors, their attributes, operations,
indexing, joining, in-place operations and the NumPy bridge."""
import numpy as np


def making_tensors(torch):
    data = [[1, 2], [3, 4]]
    x_data = torch.tensor(data)
    x_np = torch.from_numpy(np.array(data))
    print(x_data, x_np, sep="\n")
    x_ones = torch.ones_like(x_data)
    print(f"Ones Tensor:\n{x_ones}\n")
    x_rand = torch.rand_like(x_data, dtype=torch.float)
    print(f"Random Tensor shape: {x_rand.shape}, dtype: {x_rand.dtype}\n")
    shape = (2, 3,)
    for name, t in [("Random", torch.rand(shape)), ("Ones", torch.ones(shape)), ("Zeros", torch.zeros(shape))]:
        print(f"{name} Tensor: shape {t.shape}, dtype {t.dtype}")
    print(torch.zeros(shape))
    print(torch.full((2, 2), 7), torch.full((2,), 0.5), torch.arange(0, 10, 3), torch.linspace(-1, 1, 5))
    print(torch.eye(3), torch.empty(2, 3).shape, torch.tensor(3.5).item(), torch.tensor([True, False]))


def tensor_attributes(torch):
    tensor = torch.rand(3, 4)
    print(f"Shape of tensor: {tensor.shape}")
    print(f"Datatype of tensor: {tensor.dtype}")
    print(f"Device tensor is stored on: {tensor.device}")
    print(tensor.size(), tensor.size(1), tensor.dim(), tensor.ndim, tensor.numel(), tensor.nelement())
    print(tensor.type(), tensor.double().type(), tensor.long().type(), (tensor > 2).type())
    print(tensor.element_size(), tensor.is_floating_point(), tensor.requires_grad, tensor.is_leaf)
    print(type(tensor), type(tensor.shape), torch.is_tensor(tensor), torch.numel(tensor))


def operations_on_tensors(torch):
    device = "cuda" if torch.cuda.is_available() else "cpu"
    tensor = torch.arange(16.0).reshape(4, 4).to(device)
    print(f"First row: {tensor[0]}")
    print(f"First column: {tensor[:, 0]}")
    print(f"Last column: {tensor[..., -1]}")
    tensor[:, 1] = 0
    print(tensor)
    t1 = torch.cat([tensor, tensor, tensor], dim=1)
    print(t1.shape, torch.stack([tensor, tensor]).shape)
    y1 = tensor @ tensor.T
    y2 = tensor.matmul(tensor.T)
    print(y1, torch.equal(y1, y2))
    z1 = tensor * tensor
    z2 = tensor.mul(tensor)
    print(z1, torch.equal(z1, z2))
    agg = tensor.sum()
    agg_item = agg.item()
    print(agg_item, type(agg_item))
    print(f"{tensor} \n")
    tensor.add_(5)
    print(tensor)
    print(tensor.max(), tensor.argmax(), tensor.min(dim=1), tensor.mean(dim=0), tensor.std())


def numpy_bridge(torch):
    t = torch.ones(5)
    print(f"t: {t}")
    n = t.numpy()
    print(f"n: {n}")
    t.add_(1)
    print(f"t: {t}")
    print(f"n: {n}")
    n = np.ones(5)
    t = torch.from_numpy(n)
    np.add(n, 1, out=n)
    print(f"t: {t}")
    print(f"n: {n}")
    print(torch.tensor(np.arange(6).reshape(2, 3)).T.contiguous().tolist())


def reshaping_and_selecting(torch):
    x = torch.arange(24).reshape(2, 3, 4)
    print(x.view(6, 4).shape, x.flatten(1).shape, x.permute(2, 0, 1).shape, x.transpose(0, 2).shape)
    print(x.unsqueeze(0).shape, x[None].squeeze().shape, x.movedim(0, -1).shape, x.unflatten(2, (2, 2)).shape)
    print(x.sum(axis=1), x.sum(dim=(0, 2)), x.float().mean(1, keepdim=True))
    a, b = x.chunk(2, dim=2)
    print(a.shape, b.shape, [p.shape for p in x.split([1, 2], dim=1)])
    print(x.flip(0)[0, 0], x.roll(1, dims=2)[0, 0], x.narrow(2, 1, 2)[1])
    print(x.repeat(1, 2, 1).shape, torch.tile(x[0, 0], (2,)))
    idx = torch.tensor([[0, 3], [1, 1], [2, 0]])
    print(x[0].gather(1, idx), x[0].index_select(1, torch.tensor([0, 3])))
    mask = x[1] % 3 == 0
    print(x[1].masked_fill(mask, -1), x[1].masked_select(mask), mask.nonzero()[:3])
    print(torch.where(x[0] > 5, x[0], torch.zeros_like(x[0])))
    print(x.float().topk(2, dim=-1).values[0], x[0, 0].sort(descending=True).indices, x.float().norm())
    print(x.cumsum(2)[0], x[0, 0].float().cumprod(0), x[0].prod(1), (x > 0).all(), (x > 22).any(dim=2))


PROGRAMS = [making_tensors, tensor_attributes, operations_on_tensors, numpy_bridge, reshaping_and_selecting]
