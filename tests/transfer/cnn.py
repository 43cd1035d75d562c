"""The small CNN a learner meets after the MLP: PyTorch's CIFAR-10 tutorial net on synthetic
images, a few training steps from fixed weights, d2l's convolution chapters (cross-correlation,
padding and stride, pooling, LeNet built with lazy modules) and batch normalisation."""


def _fill(torch, net, scale=0.05):
    """The same starting weights in every library, from a formula rather than a generator."""
    with torch.no_grad():
        for k, p in enumerate(net.parameters()):
            n = p.numel()
            p.copy_((torch.arange(n, dtype=torch.float32) * 0.7 + k).sin().reshape(p.shape) * scale)


def _cifar_net(torch):
    nn, F = torch.nn, torch.nn.functional

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(3, 6, 5)
            self.pool = nn.MaxPool2d(2, 2)
            self.conv2 = nn.Conv2d(6, 16, 5)
            self.fc1 = nn.Linear(16 * 5 * 5, 120)
            self.fc2 = nn.Linear(120, 84)
            self.fc3 = nn.Linear(84, 10)

        def forward(self, x):
            x = self.pool(F.relu(self.conv1(x)))
            x = self.pool(F.relu(self.conv2(x)))
            x = torch.flatten(x, 1)  # flatten all dimensions except batch
            x = F.relu(self.fc1(x))
            x = F.relu(self.fc2(x))
            return self.fc3(x)

    return Net()


def cifar_tutorial_net(torch):
    """The tutorial's Net on a batch of random 'images': the net, every layer's output shape,
    the parameters' shapes and counts (random values: only what does not depend on them)."""
    torch.manual_seed(0)
    net = _cifar_net(torch)
    print(net)
    images = torch.randn(4, 3, 32, 32)
    x = images
    for name in ["conv1", "pool", "conv2", "pool"]:
        x = getattr(net, name)(x)
        print(f"{name:6s} -> {tuple(x.shape)}")
    print("flatten ->", torch.flatten(x, 1).shape)
    out = net(images)
    print("output:", out.shape, out.dtype, out.grad_fn)
    for name, p in net.named_parameters():
        print(f"{name:12s} {str(tuple(p.shape)):16s} {p.numel():6d} {p.requires_grad}")
    print("total parameters:", sum(p.numel() for p in net.parameters()))
    print(list(net.state_dict().keys()))
    _, predicted = torch.max(out, 1)
    print(predicted.shape, predicted.dtype)


def cnn_training_steps(torch):
    """The tutorial's training loop from the same (fixed) weights: exact losses step by step."""
    net = _cifar_net(torch)
    _fill(torch, net)
    criterion = torch.nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
    inputs = (torch.arange(8 * 3 * 32 * 32, dtype=torch.float32) * 0.37).cos().reshape(8, 3, 32, 32)
    labels = torch.tensor([3, 8, 8, 0, 6, 6, 1, 6])
    for step in range(5):
        optimizer.zero_grad()
        outputs = net(inputs)
        loss = criterion(outputs, labels)
        loss.backward()
        optimizer.step()
        print(f"[step {step + 1}] loss: {loss.item():.4f}")
    print(f"conv1.weight.grad norm: {net.conv1.weight.grad.norm().item():.4f}")
    with torch.no_grad():
        correct = (net(inputs).argmax(1) == labels).sum().item()
    print(f"accuracy on the batch: {100 * correct // labels.numel()} %")


def corr2d(torch, X, K):
    """d2l's cross-correlation, by hand."""
    h, w = K.shape
    Y = torch.zeros((X.shape[0] - h + 1, X.shape[1] - w + 1))
    for i in range(Y.shape[0]):
        for j in range(Y.shape[1]):
            Y[i, j] = (X[i:i + h, j:j + w] * K).sum()
    return Y


def d2l_convolutions(torch):
    """d2l 7.2-7.5: cross-correlation by hand and as Conv2d, learning an edge detector,
    padding and stride, multiple channels, 1x1 convolution, pooling."""
    nn = torch.nn
    X = torch.tensor([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]])
    K = torch.tensor([[0.0, 1.0], [2.0, 3.0]])
    print(corr2d(torch, X, K))
    X = torch.ones((6, 8))
    X[:, 2:6] = 0
    K = torch.tensor([[1.0, -1.0]])
    Y = corr2d(torch, X, K)
    print(Y)
    print(corr2d(torch, X.t(), K))
    conv2d = nn.Conv2d(1, 1, kernel_size=(1, 2), bias=False)
    with torch.no_grad():
        conv2d.weight.copy_(torch.tensor([[[[0.3, 0.5]]]]))  # d2l starts from random; fixed here
    X, Y = X.reshape((1, 1, 6, 8)), Y.reshape((1, 1, 6, 7))
    lr = 3e-2
    for i in range(10):
        Y_hat = conv2d(X)
        l = (Y_hat - Y) ** 2  # noqa: E741 - d2l's name
        conv2d.zero_grad()
        l.sum().backward()
        conv2d.weight.data[:] -= lr * conv2d.weight.grad
        if (i + 1) % 2 == 0:
            print(f"epoch {i + 1}, loss {l.sum():.3f}")
    print(conv2d.weight.data.reshape((1, 2)))

    def comp_conv2d(conv2d, X):
        X = X.reshape((1, 1) + X.shape)
        Y = conv2d(X)
        return Y.reshape(Y.shape[2:])

    X = torch.rand((8, 8))  # (d2l passes size=(8, 8))
    for conv in [nn.Conv2d(1, 1, kernel_size=3, padding=1), nn.Conv2d(1, 1, kernel_size=(5, 3), padding=(2, 1)),
                 nn.Conv2d(1, 1, kernel_size=3, padding=1, stride=2),
                 nn.Conv2d(1, 1, kernel_size=(3, 5), padding=(0, 1), stride=(3, 4))]:
        print(conv, comp_conv2d(conv, X).shape)
    X = torch.tensor([[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]],
                      [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]])
    K = torch.tensor([[[0.0, 1.0], [2.0, 3.0]], [[1.0, 2.0], [3.0, 4.0]]])
    print(sum(corr2d(torch, x, k) for x, k in zip(X, K)))
    print(torch.nn.functional.conv2d(X.unsqueeze(0), K.unsqueeze(0)))
    K3 = torch.stack((K, K + 1, K + 2), 0)
    print(K3.shape, torch.nn.functional.conv2d(X, K3))
    X = torch.arange(16, dtype=torch.float32).reshape((1, 1, 4, 4))
    print(X, nn.MaxPool2d(3)(X), nn.MaxPool2d(3, padding=1, stride=2)(X))
    print(nn.MaxPool2d((2, 3), stride=(2, 3), padding=(0, 1))(X))
    X = torch.cat((X, X + 1), 1)
    print(nn.MaxPool2d(3, padding=1, stride=2)(X), nn.AvgPool2d(2)(X))
    print(nn.AdaptiveAvgPool2d((1, 1))(X), nn.AdaptiveAvgPool2d(3)(X))


def d2l_lenet_lazy(torch):
    """d2l 7.6: LeNet built from lazy modules, its layer summary, then a classic LeNet's
    parameter count (randomly initialised: shapes and counts only)."""
    nn = torch.nn
    torch.manual_seed(0)
    net = nn.Sequential(
        nn.LazyConv2d(6, kernel_size=5, padding=2), nn.Sigmoid(),
        nn.AvgPool2d(kernel_size=2, stride=2),
        nn.LazyConv2d(16, kernel_size=5), nn.Sigmoid(),
        nn.AvgPool2d(kernel_size=2, stride=2),
        nn.Flatten(),
        nn.LazyLinear(120), nn.Sigmoid(),
        nn.LazyLinear(84), nn.Sigmoid(),
        nn.LazyLinear(10))
    print(net)
    print([type(p).__name__ for p in net.parameters()][:2], net[0].weight)
    X = torch.randn(1, 1, 28, 28)
    for layer in net:
        X = layer(X)
        print(layer.__class__.__name__, "output shape:\t", X.shape)
    print(net)
    print([(name, tuple(p.shape)) for name, p in net.named_parameters()])
    print(sum(p.numel() for p in net.parameters()))
    optimizer = torch.optim.SGD(net.parameters(), lr=0.1)  # built after the first call, as d2l does
    loss = nn.functional.cross_entropy(net(torch.randn(4, 1, 28, 28)), torch.tensor([0, 1, 2, 3]))
    loss.backward()
    optimizer.step()
    print(loss.shape, loss.grad_fn, net[0].weight.grad.shape)
    net2 = nn.Sequential(nn.LazyConv2d(8, 3), nn.LazyBatchNorm2d(), nn.ReLU(), nn.AdaptiveAvgPool2d((1, 1)),
                         nn.Flatten(), nn.LazyLinear(10))
    print(net2)
    print(net2(torch.randn(2, 3, 16, 16)).shape)
    print(net2)


def batchnorm2d_train_eval(torch):
    """BatchNorm2d in training (the batch's statistics per channel, running averages moved by
    momentum) and in eval (the running averages), d2l-style: per-channel means and variances."""
    nn = torch.nn
    X = (torch.arange(2 * 3 * 4 * 4, dtype=torch.float32) * 0.3).sin().reshape(2, 3, 4, 4) * 2 + 1
    bn = nn.BatchNorm2d(3)
    print(bn, bn.training)
    print(list(bn.state_dict().keys()))
    Y = bn(X)
    print(Y.mean(dim=(0, 2, 3)).abs().max() < 1e-6, Y.var(dim=(0, 2, 3), unbiased=False))
    print(bn.running_mean, bn.running_var, bn.num_batches_tracked)
    bn(X * 2)
    print(bn.running_mean, bn.running_var, bn.num_batches_tracked)
    bn.eval()
    Z = bn(X)
    print(bn.training, Z[0, :, 0, :2])
    print(Z.grad_fn, bn.num_batches_tracked)
    net = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(), nn.MaxPool2d(2),
                        nn.Dropout2d(0.5))
    _fill(torch, net)
    net.eval()
    out = net(X)
    print(out.shape, out[1, :, 0])
    net.train()
    print(net[1].training, net[4].training, net(X).shape)


PROGRAMS = [cifar_tutorial_net, cnn_training_steps, d2l_convolutions, d2l_lenet_lazy, batchnorm2d_train_eval]
