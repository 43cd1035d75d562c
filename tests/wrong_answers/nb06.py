"""Typical wrong answers for the exercises of notebook 06 (see tests/wrong_answers/__init__.py)."""

WRONG = {
    "nb06_unbroadcast": [
        ("unchanged", "    return grad", "broadcast shape", ["keepdims"]),
        ("sum_axis0_only", "    return grad.sum(axis=0)", "size 1", []),
        ("leading_dims_only",
         "    while grad.ndim > len(shape):\n        grad = grad.sum(axis=0)\n    return grad",
         "broadcast shape", []),
        ("mean_not_sum",
         ("    while grad.ndim > len(shape):\n"
         "        grad = grad.mean(axis=0)\n"
         "    for axis, size in enumerate(shape):\n"
         "        if size == 1 and grad.shape[axis] != 1:\n"
         "            grad = grad.mean(axis=axis, keepdims=True)\n"
         "    return grad"),
         "average", ["sum("]),
        ("reshape", "    return grad.reshape(shape)", "unbroadcast raised", []),
    ],
    "nb06_jacobian": [
        ("no_zeroing",
         ("    y = f(x)\n"
         "    rows = []\n"
         "    for i in range(y.shape[0]):\n"
         "        v = torch.zeros(y.shape[0], dtype=y.dtype)\n"
         "        v[i] = 1.0\n"
         "        y.backward(gradient=v, retain_graph=True)\n"
         "        rows.append(x.grad.clone())\n"
         "    x.grad = None\n"
         "    return torch.stack(rows)"),
         "accumulates", []),
        ("no_retain_graph",
         ("    y = f(x)\n"
         "    rows = []\n"
         "    for i in range(y.shape[0]):\n"
         "        v = torch.zeros(y.shape[0], dtype=y.dtype)\n"
         "        v[i] = 1.0\n"
         "        x.grad = None\n"
         "        y.backward(gradient=v)\n"
         "        rows.append(x.grad.clone())\n"
         "    return torch.stack(rows)"),
         "freed the graph", []),
        ("columns_not_rows",
         ("    y = f(x)\n"
         "    rows = []\n"
         "    for i in range(y.shape[0]):\n"
         "        v = torch.zeros(y.shape[0], dtype=y.dtype)\n"
         "        v[i] = 1.0\n"
         "        x.grad = None\n"
         "        y.backward(gradient=v, retain_graph=True)\n"
         "        rows.append(x.grad.clone())\n"
         "    x.grad = None\n"
         "    return torch.stack(rows, dim=1)"),
         "swapped", []),
        ("ones_gradient",
         ("    y = f(x)\n"
         "    rows = []\n"
         "    for i in range(y.shape[0]):\n"
         "        x.grad = None\n"
         "        y.backward(gradient=torch.ones_like(y), retain_graph=True)\n"
         "        rows.append(x.grad.clone())\n"
         "    x.grad = None\n"
         "    return torch.stack(rows)"),
         "all your rows are the same", []),
        ("rows_share_x_grad",
         ("    y = f(x)\n"
         "    rows = []\n"
         "    for i in range(y.shape[0]):\n"
         "        v = torch.zeros(y.shape[0], dtype=y.dtype)\n"
         "        v[i] = 1.0\n"
         "        if x.grad is not None:\n"
         "            x.grad.zero_()\n"
         "        y.backward(gradient=v, retain_graph=True)\n"
         "        rows.append(x.grad)\n"
         "    return torch.stack(rows)"),
         "changes in place", ["clone"]),
    ],
    "nb06_linear_backward": [
        ("grad_x_uses_W_T",
         "    return grad_out @ W.T, grad_out.T @ x, grad_out.sum(dim=0)",
         "the other way", ["grad_out @ W,"]),
        ("grad_W_transposed",
         "    return grad_out @ W, x.T @ grad_out, grad_out.sum(dim=0)",
         "transposed", []),
        ("bias_not_summed",
         "    return grad_out @ W, grad_out.T @ x, grad_out",
         "one bias gradient per sample", []),
        ("bias_mean",
         "    return grad_out @ W, grad_out.T @ x, grad_out.mean(dim=0)",
         "average", ["sum("]),
        ("grad_W_mean",
         "    return grad_out @ W, grad_out.T @ x / x.shape[0], grad_out.sum(dim=0)",
         "average over the batch", []),
    ],
    "nb06_second_derivative": [
        ("no_create_graph", """\
    x = x.detach().requires_grad_()
    (d1,) = torch.autograd.grad(f(x).sum(), x)
    (d2,) = torch.autograd.grad(d1.sum(), x)
    return d2""", "asked to record", ["create_graph=True"]),
        ("x_without_grad", """\
    (d1,) = torch.autograd.grad(f(x).sum(), x, create_graph=True)
    (d2,) = torch.autograd.grad(d1.sum(), x)
    return d2""", "arrive without requires_grad", ["create_graph=True"]),
        ("first_derivative", """\
    x = x.detach().requires_grad_()
    (d1,) = torch.autograd.grad(f(x).sum(), x, create_graph=True)
    return d1""", "first derivatives", ["create_graph=True"]),
        ("backward_twice", """\
    x = x.detach().requires_grad_()
    f(x).sum().backward(create_graph=True)
    x.grad.sum().backward()
    return x.grad""", "f'(x) + f''(x)", ["create_graph=True"]),
        ("no_sum", """\
    x = x.detach().requires_grad_()
    (d1,) = torch.autograd.grad(f(x), x, create_graph=True)
    (d2,) = torch.autograd.grad(d1, x)
    return d2""", "one number per point", ["create_graph=True"]),
    ],
}
