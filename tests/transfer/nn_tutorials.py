"""In the style of PyTorch's "Build the neural network" and "Learning PyTorch with examples"
tutorials and d2l's concise implementations: models built from torch.nn, trained with
torch.optim. Every weight is set from fixed numbers (``fixed_``), the same in both libraries,
so that outputs and losses can be printed and must match; what would depend on random
initialisation (none here) is never printed. Training runs in float64, so that the printed
digits do not depend on the order of a float32 sum."""
import math


def fixed_(torch, model, scale=0.1):
    """Set every parameter to a fixed pattern (a slow sine of its position): the same numbers
    in both libraries, and no two units alike."""
    with torch.no_grad():
        for i, p in enumerate(model.parameters()):
            n = p.numel()
            values = torch.arange(1, n + 1, dtype=torch.float64).mul(0.7 + 0.1 * i).sin() * scale
            p.copy_(values.reshape(p.shape))
    return model


def build_the_network(torch):
    nn = torch.nn

    class NeuralNetwork(nn.Module):
        def __init__(self):
            super().__init__()
            self.flatten = nn.Flatten()
            self.linear_relu_stack = nn.Sequential(
                nn.Linear(28 * 28, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 10))

        def forward(self, x):
            x = self.flatten(x)
            return self.linear_relu_stack(x)

    model = fixed_(torch, NeuralNetwork().double(), scale=0.05)
    print(model)
    X = torch.linspace(0, 1, 28 * 28, dtype=torch.float64).reshape(1, 28, 28)
    logits = model(X)
    pred_probab = nn.Softmax(dim=1)(logits)
    y_pred = pred_probab.argmax(1)
    print(f"Predicted class: {y_pred}")
    print([f"{p:.5f}" for p in pred_probab[0].tolist()])
    input_image = torch.stack([X[0], X[0] * 0.5, 1 - X[0]])
    print(input_image.size())
    flat_image = nn.Flatten()(input_image)
    print(flat_image.size())
    layer1 = nn.Linear(in_features=28 * 28, out_features=20)
    hidden1 = layer1(flat_image.float())
    print(hidden1.size(), nn.ReLU()(hidden1).min().item() >= 0)
    seq_modules = nn.Sequential(nn.Flatten(), layer1, nn.ReLU(), nn.Linear(20, 10))
    print(seq_modules(input_image.float()).shape, nn.Softmax(dim=1)(seq_modules(input_image.float())).sum(1).shape)
    print(f"Model structure: {model}\n\n")
    for name, param in model.named_parameters():
        print(f"Layer: {name} | Size: {param.size()} | Values : {[round(v, 4) for v in param.flatten()[:2].tolist()]}")
    print(list(model.state_dict()))


def polynomial_custom_module(torch):
    class Polynomial3(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.a = torch.nn.Parameter(torch.tensor(0.1, dtype=torch.float64))
            self.b = torch.nn.Parameter(torch.tensor(-0.2, dtype=torch.float64))
            self.c = torch.nn.Parameter(torch.tensor(0.3, dtype=torch.float64))
            self.d = torch.nn.Parameter(torch.tensor(0.05, dtype=torch.float64))

        def forward(self, x):
            return self.a + self.b * x + self.c * x ** 2 + self.d * x ** 3

        def string(self):
            return f"y = {self.a.item():.4f} + {self.b.item():.4f} x + {self.c.item():.4f} x^2 + {self.d.item():.4f} x^3"

    x = torch.linspace(-math.pi, math.pi, 2000, dtype=torch.float64)
    y = torch.sin(x)
    model = Polynomial3()
    criterion = torch.nn.MSELoss(reduction="sum")
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-6)
    for t in range(300):
        y_pred = model(x)
        loss = criterion(y_pred, y)
        if t % 50 == 49:
            print(t, f"{loss.item():.6f}")
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"Result: {model.string()}")
    print([n for n, _ in model.named_parameters()], list(model.state_dict()))


def polynomial_sequential(torch):
    x = torch.linspace(-math.pi, math.pi, 2000, dtype=torch.float64)
    y = torch.sin(x)
    p = torch.tensor([1, 2, 3])
    xx = x.unsqueeze(-1).pow(p)
    print(xx.shape)
    model = torch.nn.Sequential(torch.nn.Linear(3, 1), torch.nn.Flatten(0, 1)).double()
    with torch.no_grad():
        model[0].weight.copy_(torch.tensor([[0.5, 0.1, -0.1]]))
        model[0].bias.fill_(0.0)
    print(model)
    loss_fn = torch.nn.MSELoss(reduction="sum")
    learning_rate = 1e-6
    for t in range(300):
        y_pred = model(xx)
        loss = loss_fn(y_pred, y)
        if t % 100 == 99:
            print(t, f"{loss.item():.6f}")
        model.zero_grad()
        loss.backward()
        with torch.no_grad():
            for param in model.parameters():
                param -= learning_rate * param.grad
    linear_layer = model[0]
    print(f"Result: y = {linear_layer.bias.item():.5f} + {linear_layer.weight[:, 0].item():.5f} x + "
          f"{linear_layer.weight[:, 1].item():.5f} x^2 + {linear_layer.weight[:, 2].item():.5f} x^3")


def dynamic_net(torch):
    class DynamicNet(torch.nn.Module):
        """The tutorial draws how many times ``e`` is reused at random; here it is the call count
        that decides, so both libraries take the same branches."""

        def __init__(self):
            super().__init__()
            self.a = torch.nn.Parameter(torch.tensor(0.1, dtype=torch.float64))
            self.b = torch.nn.Parameter(torch.tensor(0.2, dtype=torch.float64))
            self.c = torch.nn.Parameter(torch.tensor(-0.1, dtype=torch.float64))
            self.d = torch.nn.Parameter(torch.tensor(0.0, dtype=torch.float64))
            self.e = torch.nn.Parameter(torch.tensor(0.01, dtype=torch.float64))
            self.calls = 0

        def forward(self, x):
            self.calls += 1
            y = self.a + self.b * x + self.c * x ** 2 + self.d * x ** 3
            for exp in range(4, 4 + self.calls % 3):
                y = y + self.e * x ** exp  # the same parameter, used 0, 1 or 2 times
            return y

    x = torch.linspace(-math.pi, math.pi, 500, dtype=torch.float64)
    y = torch.sin(x)
    model = DynamicNet()
    criterion = torch.nn.MSELoss(reduction="sum")
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-8, momentum=0.9)
    for t in range(60):
        loss = criterion(model(x), y)
        if t % 20 == 19:
            print(t, f"{loss.item():.6f}", type(loss.grad_fn).__name__)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print([f"{p.item():.6f}" for p in model.parameters()])


def module_list_and_dict(torch):
    nn = torch.nn

    class MyModule(nn.Module):
        def __init__(self):
            super().__init__()
            self.linears = nn.ModuleList([nn.Linear(6, 6) for i in range(4)])
            self.choices = nn.ModuleDict({"lin": nn.Linear(6, 6, bias=False), "id": nn.Identity()})
            self.activations = nn.ModuleDict([["lrelu", nn.LeakyReLU()], ["gelu", nn.GELU()]])
            self.norm = nn.LayerNorm(6)

        def forward(self, x, choice, act):
            for i, l in enumerate(self.linears):
                x = self.linears[i // 2](x) + l(x)  # ModuleList can act as an iterable, or be indexed
            x = self.choices[choice](x)
            return self.norm(self.activations[act](x))

    model = fixed_(torch, MyModule().double())
    print(model)
    print(list(model.state_dict()))
    x = torch.linspace(-1, 1, 12, dtype=torch.float64).reshape(2, 6)
    for choice in ("lin", "id"):
        for act in ("lrelu", "gelu"):
            out = model(x, choice, act)
            print(choice, act, out.shape, type(out.grad_fn).__name__, [f"{v:.5f}" for v in out[0, :3].tolist()])
    print(len(model.linears), [type(m).__name__ for m in model.children()])
    print(sum(p.numel() for p in model.parameters()))


def hooks_print_shapes(torch):
    nn = torch.nn
    model = fixed_(torch, nn.Sequential(nn.Flatten(), nn.Linear(12, 8), nn.SiLU(), nn.Linear(8, 3)).double())
    handles = []
    for name, layer in model.named_children():
        handles.append(layer.register_forward_hook(
            lambda m, inp, out, name=name: print(f"{name} {type(m).__name__}: {tuple(inp[0].shape)} -> {tuple(out.shape)}")))
    handles.append(model[1].register_forward_pre_hook(lambda m, inp: print("about to run", m)))
    handles.append(model[3].register_full_backward_hook(
        lambda m, gi, go: print("backward", [tuple(g.shape) for g in gi], [tuple(g.shape) for g in go])))
    x = torch.linspace(-1, 1, 24, dtype=torch.float64).reshape(2, 3, 4).requires_grad_()
    out = model(x)
    out.sum().backward()
    print(x.grad.shape, f"{x.grad.abs().sum().item():.6f}")
    for h in handles:
        h.remove()
    model(x)
    print("hooks removed")
    activation = {}

    def get_activation(name):
        def hook(model, input, output):
            activation[name] = output.detach()
        return hook
    model[2].register_forward_hook(get_activation("silu"))
    model(x)
    print(activation["silu"].shape, f"{activation['silu'].sum().item():.6f}")


def _make_classes(torch, n=60):
    """Four features, three classes: a fixed cloud of points, labelled by which of three
    fixed directions they lie furthest along."""
    i = torch.arange(n, dtype=torch.float64)
    X = torch.stack([(i * 0.37).sin(), (i * 0.91).cos(), (i * 1.3).sin() * 0.5, (i * 0.23).cos()], dim=1)
    W = torch.tensor([[1.0, -0.5, 0.2, 0.0], [-0.3, 1.0, 0.0, 0.4], [0.2, 0.1, -1.0, -0.6]], dtype=torch.float64)
    return X, (X @ W.T).argmax(1)


def softmax_regression_concise(torch):
    nn = torch.nn
    X, y = _make_classes(torch)
    print(X.shape, y.shape, [(y == k).sum().item() for k in range(3)])
    net = nn.Sequential(nn.Flatten(), nn.Linear(4, 3)).double()

    def init_weights(m):
        if type(m) is nn.Linear:
            nn.init.constant_(m.weight, 0.01)
            nn.init.zeros_(m.bias)
    net.apply(init_weights)
    loss = nn.CrossEntropyLoss(reduction="none", label_smoothing=0.1)
    trainer = torch.optim.SGD(net.parameters(), lr=0.5)
    data = torch.utils.data.TensorDataset(X, y)
    for epoch in range(5):
        total, count = 0.0, 0
        for Xb, yb in torch.utils.data.DataLoader(data, batch_size=15, shuffle=False):
            l = loss(net(Xb), yb)
            trainer.zero_grad()
            l.mean().backward()
            trainer.step()
            total += l.sum().item()
            count += l.numel()
        accuracy = (net(X).argmax(1) == y).double().mean().item()
        print(f"epoch {epoch + 1}, loss {total / count:.6f}, train acc {accuracy:.4f}")
    print(net)
    print(f"{nn.CrossEntropyLoss(label_smoothing=0.1)(net(X), y).item():.6f}",
          f"{nn.CrossEntropyLoss()(net(X), y).item():.6f}")


def binary_classifier_with_logits(torch):
    nn = torch.nn
    i = torch.arange(40, dtype=torch.float64)
    X = torch.stack([(i * 0.5).sin() * 2, (i * 0.8).cos() * 2], dim=1)
    y = ((X[:, 0] + 0.5 * X[:, 1]) > 0.3).double().unsqueeze(1)
    model = nn.Sequential(nn.Linear(2, 4), nn.Tanh(), nn.Linear(4, 1)).double()
    fixed_(torch, model, scale=0.5)
    criterion = nn.BCEWithLogitsLoss(pos_weight=torch.tensor([1.5], dtype=torch.float64))
    print(criterion, list(criterion.state_dict()))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.3)
    for epoch in range(40):
        logits = model(X)
        loss = criterion(logits, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if epoch % 10 == 9:
            predicted = (torch.sigmoid(logits) > 0.5).double()
            print(f"epoch {epoch + 1}: loss {loss.item():.6f}, accuracy {(predicted == y).double().mean().item():.3f}")
    probs = torch.sigmoid(model(X[:3]))
    print([f"{p:.5f}" for p in probs.flatten().tolist()])
    bce = nn.BCELoss()(probs, y[:3])
    print(f"{bce.item():.6f}", type(bce.grad_fn).__name__, type(loss.grad_fn).__name__)


def embedding_bag_of_words(torch):
    nn = torch.nn

    class TextClassifier(nn.Module):
        def __init__(self, vocab_size, embed_dim, num_class):
            super().__init__()
            self.embedding = nn.Embedding(vocab_size, embed_dim, padding_idx=0)
            self.norm = nn.LayerNorm(embed_dim)
            self.fc = nn.Linear(embed_dim, num_class)

        def forward(self, text):
            mask = (text != 0).unsqueeze(-1).double()
            summed = (self.embedding(text) * mask).sum(1) / mask.sum(1)
            return self.fc(self.norm(summed))

    model = TextClassifier(10, 4, 2).double()
    print(model)
    print(list(model.state_dict()), model.embedding.weight[0].abs().sum().item())
    fixed_(torch, model, scale=0.5)
    text = torch.tensor([[1, 4, 5, 0], [2, 2, 9, 3], [7, 0, 0, 0]])
    labels = torch.tensor([0, 1, 1])
    out = model(text)
    loss = nn.functional.cross_entropy(out, labels)
    loss.backward()
    print(out.shape, f"{loss.item():.6f}", type(loss.grad_fn).__name__)
    print(model.embedding.weight.grad[0].tolist(), [f"{v:.5f}" for v in model.embedding.weight.grad[2].tolist()])
    print(nn.functional.one_hot(labels, num_classes=2))


PROGRAMS = [build_the_network, polynomial_custom_module, polynomial_sequential, dynamic_net, module_list_and_dict,
            hooks_print_shapes, softmax_regression_concise, binary_classifier_with_logits, embedding_bag_of_words]
