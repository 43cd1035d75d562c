"""Device-agnostic code, as tutorials write it: pick "cuda" when there is one, else the CPU,
and move data and parameters there."""


def pick_a_device(torch):
    device = (
        "cuda" if torch.cuda.is_available()
        else "mps" if torch.backends.mps.is_available()
        else "cpu"
    )
    print(f"Using {device} device")
    acc = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
    print(f"Using {acc} device")
    torch.set_default_device(device)
    print(torch.get_default_device(), torch.cuda.device_count())
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], device=device)
    w = torch.ones(2, 1, device=torch.device(device), requires_grad=True)
    print(x.device, w.device, x.device == w.device, x.is_cuda)
    out = (x @ w).sum()
    out.backward()
    print(out.item(), w.grad.cpu().numpy().tolist())


def move_to_device(torch):
    device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
    print(repr(device), str(device), device.type)
    batch = [torch.arange(6.0).reshape(2, 3), torch.tensor([0, 1])]
    inputs, labels = (t.to(device) for t in batch)
    print(inputs.device, labels.device, labels.dtype)
    w = torch.full((3, 2), 0.5).to(device, torch.float64).requires_grad_()
    print(w.dtype, w.device)
    logits = inputs.to(w) @ w
    print(logits, logits.dtype)
    print(logits.detach().cpu().numpy().shape, inputs.to("cpu") is inputs, inputs.cpu().tolist())


def seeding_for_reproducibility(torch):
    seed = 42
    torch.manual_seed(seed)
    torch.cuda.manual_seed(seed)
    torch.cuda.manual_seed_all(seed)
    torch.backends.cudnn.deterministic = True
    torch.backends.cudnn.benchmark = False
    g = torch.Generator().manual_seed(seed)
    a = torch.randn(3, generator=g)
    g.manual_seed(seed)
    b = torch.randn(3, generator=g)
    print(torch.equal(a, b), a.shape, a.dtype, g.initial_seed())
    torch.manual_seed(0)
    c = torch.rand(2, 2)
    torch.manual_seed(0)
    print(torch.equal(c, torch.rand(2, 2)), torch.randint(0, 10, (5,)).dtype, torch.randperm(5).sort().values)


PROGRAMS = [pick_a_device, move_to_device, seeding_for_reproducibility]
