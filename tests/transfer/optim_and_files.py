"""In the style of PyTorch's "Optimizing model parameters" and "Save and load the model"
tutorials, the optimizer and scheduler docs, and d2l's linear and softmax regression: on
synthetic data, with the same starting weights set in both libraries, so that the losses
printed are the same."""
import io
import os
import random
import tempfile


def fixed_weights(torch, model):
    """Every parameter set to a fixed pattern (instead of the random initialisation)."""
    with torch.no_grad():
        for i, p in enumerate(model.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.7 + i).reshape(p.shape) * 0.1)
    return model


def images(torch, n):
    """n synthetic 1x8x8 "images" and their labels (0-9), the same in both libraries."""
    X = torch.cos(torch.arange(n * 64, dtype=torch.float32) * 0.37).reshape(n, 1, 8, 8)
    y = X.reshape(n, 64)[:, :10].argmax(1)  # a label the pixels decide: there is something to learn
    return X, y


def optimizing_model_parameters(torch):
    nn = torch.nn
    DataLoader, TensorDataset = torch.utils.data.DataLoader, torch.utils.data.TensorDataset

    train_dataloader = DataLoader(TensorDataset(*images(torch, 96)), batch_size=16)
    test_dataloader = DataLoader(TensorDataset(*images(torch, 40)), batch_size=16)

    class NeuralNetwork(nn.Module):
        def __init__(self):
            super().__init__()
            self.flatten = nn.Flatten()
            self.linear_relu_stack = nn.Sequential(
                nn.Linear(8 * 8, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 10))

        def forward(self, x):
            return self.linear_relu_stack(self.flatten(x))

    model = fixed_weights(torch, NeuralNetwork())
    learning_rate, epochs = 0.5, 3
    loss_fn = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=learning_rate)

    def train_loop(dataloader, model, loss_fn, optimizer):
        size = len(dataloader.dataset)
        model.train()
        for batch, (X, y) in enumerate(dataloader):
            pred = model(X)
            loss = loss_fn(pred, y)
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
            if batch % 2 == 0:
                loss, current = loss.item(), batch * 16 + len(X)
                print(f"loss: {loss:>7.4f}  [{current:>5d}/{size:>5d}]")  # the tutorial prints 6 digits

    def test_loop(dataloader, model, loss_fn):
        model.eval()
        size, num_batches = len(dataloader.dataset), len(dataloader)
        test_loss, correct = 0, 0
        with torch.no_grad():
            for X, y in dataloader:
                pred = model(X)
                test_loss += loss_fn(pred, y).item()
                correct += (pred.argmax(1) == y).type(torch.float).sum().item()
        test_loss /= num_batches
        correct /= size
        print(f"Test Error: \n Accuracy: {(100 * correct):>0.1f}%, Avg loss: {test_loss:>8.4f} \n")

    for t in range(epochs):
        print(f"Epoch {t + 1}\n-------------------------------")
        train_loop(train_dataloader, model, loss_fn, optimizer)
        test_loop(test_dataloader, model, loss_fn)
    print("Done!")


def save_and_load_tensors(torch):
    x = torch.tensor([0.0, 1.0, 2.0, 3.0])
    buffer = io.BytesIO()
    torch.save(x, buffer)
    buffer.seek(0)
    print(torch.load(buffer))
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "tensors.pt")
        w = torch.ones(2, 3, dtype=torch.float64, requires_grad=True)
        torch.save({"x": x, "w": w, "steps": torch.arange(3), "view": x[1:3]}, path)
        loaded = torch.load(path, map_location="cpu", weights_only=True)
    print(sorted(loaded), loaded["w"].dtype, loaded["w"].shape, loaded["w"].requires_grad, loaded["w"].is_leaf)
    print(loaded["steps"], loaded["view"], torch.equal(loaded["x"], x))
    loaded["x"][1] = 10.0  # the view was saved with its tensor: it still shares its memory
    print(loaded["view"])


def save_and_load_the_model(torch):
    nn = torch.nn
    model = fixed_weights(torch, nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2)))
    for name, tensor in model.state_dict().items():
        print(name, "\t", tensor.size())
    buffer = io.BytesIO()
    torch.save(model.state_dict(), buffer)
    buffer.seek(0)
    model2 = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))
    print(model2.load_state_dict(torch.load(buffer, weights_only=True)))
    model2.eval()
    x = torch.linspace(-1, 1, 8).reshape(2, 4)
    print(model2(x), torch.equal(model(x), model2(x)))

    whole = io.BytesIO()
    torch.save(model, whole)
    whole.seek(0)
    try:
        torch.load(whole)
    except Exception as e:  # noqa: BLE001 - what a learner sees
        print(type(e).__name__ + ":", str(e).splitlines()[0][:52])
    whole.seek(0)
    model3 = torch.load(whole, weights_only=False)
    print(model3, type(model3[0].weight).__name__, model3(x).shape)


def resume_training_from_a_checkpoint(torch):
    nn = torch.nn

    def make():
        model = fixed_weights(torch, nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1)))
        return model, torch.optim.Adam(model.parameters(), lr=0.01)

    X = torch.linspace(-2, 2, 30).reshape(10, 3)
    y = (X ** 2).sum(1, keepdim=True)
    loss_fn = nn.MSELoss()

    def epochs(model, optimizer, start, stop):
        for epoch in range(start, stop):
            optimizer.zero_grad()
            loss = loss_fn(model(X), y)
            loss.backward()
            optimizer.step()
            print(f"epoch {epoch}: loss {loss.item():.5f}")
        return loss

    model, optimizer = make()
    loss = epochs(model, optimizer, 0, 3)
    buffer = io.BytesIO()
    torch.save({"epoch": 3, "model_state_dict": model.state_dict(),
                "optimizer_state_dict": optimizer.state_dict(), "loss": loss}, buffer)
    print("continuing:")
    epochs(model, optimizer, 3, 6)

    buffer.seek(0)
    checkpoint = torch.load(buffer, weights_only=True)
    model, optimizer = make()
    model.load_state_dict(checkpoint["model_state_dict"])
    optimizer.load_state_dict(checkpoint["optimizer_state_dict"])
    print("resumed at epoch", checkpoint["epoch"], "from loss", round(checkpoint["loss"].item(), 5))
    model.train()
    epochs(model, optimizer, checkpoint["epoch"], 6)
    print(sorted(optimizer.state_dict()["state"][0]), optimizer.state_dict()["param_groups"][0]["params"])


def learning_rate_schedules(torch):
    sched = torch.optim.lr_scheduler
    StepLR, MultiStepLR, ExponentialLR = sched.StepLR, sched.MultiStepLR, sched.ExponentialLR
    CosineAnnealingLR, LambdaLR, ReduceLROnPlateau = sched.CosineAnnealingLR, sched.LambdaLR, sched.ReduceLROnPlateau

    def sequence(make, epochs=10):
        w = torch.zeros(2, requires_grad=True)
        optimizer = torch.optim.SGD([w], lr=0.1, momentum=0.9)
        scheduler = make(optimizer)
        lrs = []
        for _ in range(epochs):
            optimizer.step()
            lrs.append(scheduler.get_last_lr()[0])
            scheduler.step()
        return [round(lr, 10) for lr in lrs]

    print("StepLR", sequence(lambda opt: StepLR(opt, step_size=3, gamma=0.5)))
    print("MultiStepLR", sequence(lambda opt: MultiStepLR(opt, milestones=[2, 6], gamma=0.1)))
    print("ExponentialLR", sequence(lambda opt: ExponentialLR(opt, gamma=0.9)))
    print("CosineAnnealingLR", sequence(lambda opt: CosineAnnealingLR(opt, T_max=8, eta_min=0.001), 12))
    print("LambdaLR", sequence(lambda opt: LambdaLR(opt, lr_lambda=lambda epoch: 0.95 ** epoch)))

    w = torch.zeros(2, requires_grad=True)
    optimizer = torch.optim.SGD([w], lr=0.1)
    scheduler = ReduceLROnPlateau(optimizer, mode="min", factor=0.5, patience=1)
    for val_loss in [1.0, 0.8, 0.8, 0.81, 0.79, 0.79, 0.79, 0.5]:
        optimizer.step()
        scheduler.step(val_loss)
        print(f"val_loss {val_loss}: lr {optimizer.param_groups[0]['lr']}")
    print(scheduler.state_dict()["best"], scheduler.state_dict()["num_bad_epochs"])


def every_optimizer_on_one_problem(torch):
    X = torch.linspace(-1, 1, 20, dtype=torch.float64).reshape(10, 2)
    y = X @ torch.tensor([2.0, -3.0], dtype=torch.float64) + 0.5
    for name, options in [("SGD", {"lr": 0.1, "momentum": 0.9}), ("Adam", {"lr": 0.1}),
                          ("AdamW", {"lr": 0.1, "weight_decay": 0.1}),
                          ("RMSprop", {"lr": 0.05, "centered": True}), ("Adagrad", {"lr": 0.5})]:
        w = torch.zeros(2, dtype=torch.float64, requires_grad=True)
        b = torch.zeros(1, dtype=torch.float64, requires_grad=True)
        optimizer = getattr(torch.optim, name)([w, b], **options)
        for _ in range(25):
            optimizer.zero_grad()
            loss = ((X @ w + b - y) ** 2).mean()
            loss.backward()
            optimizer.step()
        print(f"{name:8s} loss {loss.item():.8f}  w {[round(v, 6) for v in w.tolist()]}")
    print(torch.optim.AdamW([w], lr=0.1))


def linear_regression_from_scratch(torch):
    def synthetic_data(w, b, num_examples):
        X = torch.sin(torch.arange(num_examples * len(w), dtype=torch.float32) * 1.3).reshape(-1, len(w))
        y = torch.matmul(X, w) + b
        y += 0.01 * torch.cos(torch.arange(num_examples, dtype=torch.float32) * 2.1)  # fixed "noise"
        return X, y.reshape((-1, 1))

    true_w, true_b = torch.tensor([2, -3.4]), 4.2
    features, labels = synthetic_data(true_w, true_b, 100)
    print("features:", features[0], "\nlabel:", labels[0])

    def data_iter(batch_size, features, labels):
        num_examples = len(features)
        indices = list(range(num_examples))
        random.shuffle(indices)  # Python's own generator: the same order in both libraries
        for i in range(0, num_examples, batch_size):
            batch_indices = torch.tensor(indices[i: min(i + batch_size, num_examples)])
            yield features[batch_indices], labels[batch_indices]

    w = torch.full((2, 1), 0.01, requires_grad=True)
    b = torch.zeros(1, requires_grad=True)

    def linreg(X, w, b):
        return torch.matmul(X, w) + b

    def squared_loss(y_hat, y):
        return (y_hat - y.reshape(y_hat.shape)) ** 2 / 2

    def sgd(params, lr, batch_size):
        with torch.no_grad():
            for param in params:
                param -= lr * param.grad / batch_size
                param.grad.zero_()

    random.seed(0)
    lr, num_epochs, batch_size = 0.03, 3, 10
    for epoch in range(num_epochs):
        for X, y in data_iter(batch_size, features, labels):
            l = squared_loss(linreg(X, w, b), y)  # noqa: E741 (d2l's name)
            l.sum().backward()
            sgd([w, b], lr, batch_size)
        with torch.no_grad():
            train_l = squared_loss(linreg(features, w, b), labels)
            print(f"epoch {epoch + 1}, loss {float(train_l.mean()):.4f}")
    print(f"error in estimating w: {true_w - w.reshape(true_w.shape)}")
    print(f"error in estimating b: {true_b - b}")


def linear_regression_concise(torch):
    nn, data = torch.nn, torch.utils.data

    true_w, true_b = torch.tensor([2, -3.4]), 4.2
    features = torch.sin(torch.arange(200, dtype=torch.float32) * 1.3).reshape(-1, 2)
    labels = (features @ true_w + true_b).reshape(-1, 1)

    def load_array(data_arrays, batch_size, is_train=True):
        dataset = data.TensorDataset(*data_arrays)
        return data.DataLoader(dataset, batch_size, shuffle=False)  # d2l shuffles: see the seeded loader

    data_iter = load_array((features, labels), 10)
    print(next(iter(data_iter))[0].shape, len(data_iter))
    net = nn.Sequential(nn.Linear(2, 1))
    net[0].weight.data.fill_(0.01)
    net[0].bias.data.fill_(0)
    loss = nn.MSELoss()
    trainer = torch.optim.SGD(net.parameters(), lr=0.03)
    for epoch in range(3):
        for X, y in data_iter:
            l = loss(net(X), y)  # noqa: E741
            trainer.zero_grad()
            l.backward()
            trainer.step()
        l = loss(net(features), labels)  # noqa: E741
        print(f"epoch {epoch + 1}, loss {l:f}")
    w, b = net[0].weight.data, net[0].bias.data
    print("error in estimating w:", true_w - w.reshape(true_w.shape))
    print("error in estimating b:", true_b - b)


def softmax_regression_from_scratch(torch):
    num_inputs, num_outputs, n = 16, 3, 60
    X_all = torch.cos(torch.arange(n * num_inputs, dtype=torch.float32) * 0.61).reshape(n, num_inputs)
    y_all = X_all[:, :3].argmax(1)  # the class the features decide

    W = torch.full((num_inputs, num_outputs), 0.01, requires_grad=True)
    b = torch.zeros(num_outputs, requires_grad=True)

    def softmax(X):
        X_exp = torch.exp(X)
        partition = X_exp.sum(1, keepdim=True)
        return X_exp / partition

    X = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    print(softmax(X), softmax(X).sum(1))

    def net(X):
        return softmax(torch.matmul(X.reshape((-1, W.shape[0])), W) + b)

    def cross_entropy(y_hat, y):
        return -torch.log(y_hat[range(len(y_hat)), y])

    def accuracy(y_hat, y):
        if len(y_hat.shape) > 1 and y_hat.shape[1] > 1:
            y_hat = y_hat.argmax(axis=1)
        cmp = y_hat.type(y.dtype) == y
        return float(cmp.type(y.dtype).sum())

    y = torch.tensor([0, 2])
    y_hat = torch.tensor([[0.1, 0.3, 0.6], [0.3, 0.2, 0.5]])
    print(y_hat[[0, 1], y], cross_entropy(y_hat, y), accuracy(y_hat, y) / len(y))

    lr = 0.5
    for epoch in range(4):
        for i in range(0, n, 20):
            Xb, yb = X_all[i:i + 20], y_all[i:i + 20]
            l = cross_entropy(net(Xb), yb)  # noqa: E741
            l.mean().backward()
            with torch.no_grad():
                for param in (W, b):
                    param -= lr * param.grad
                    param.grad.zero_()
        with torch.no_grad():
            y_hat = net(X_all)
            print(f"epoch {epoch + 1}, loss {cross_entropy(y_hat, y_all).mean().item():.5f}, "
                  f"train acc {accuracy(y_hat, y_all) / n:.3f}")


def splitting_datasets(torch):
    data = torch.utils.data
    ConcatDataset, Subset, TensorDataset, random_split = data.ConcatDataset, data.Subset, data.TensorDataset, \
        data.random_split

    dataset = TensorDataset(torch.arange(50.0).reshape(25, 2), torch.arange(25))
    generator = torch.Generator().manual_seed(42)
    train_set, val_set = random_split(dataset, [0.8, 0.2], generator=generator)
    print(len(train_set), len(val_set), type(train_set).__name__, train_set.dataset is dataset)
    print(sorted(train_set.indices + val_set.indices) == list(range(25)))
    parts = random_split(range(10), [3, 3, 4], generator=torch.Generator().manual_seed(0))
    print([len(p) for p in parts], [len(p) for p in random_split(range(11), [0.34, 0.33, 0.33])])
    try:
        random_split(dataset, [20, 4])
    except ValueError as e:
        print("ValueError:", e)
    first = Subset(dataset, range(5))
    x, label = first[4]
    print(len(first), x, label)
    both = ConcatDataset([first, Subset(dataset, [20, 21])])
    print(len(both), both.cumulative_sizes, both[5][1], both[-1][0])
    print(len(dataset + dataset), type(dataset + dataset).__name__)


def a_seeded_data_loader(torch):
    DataLoader, TensorDataset = torch.utils.data.DataLoader, torch.utils.data.TensorDataset
    dataset = TensorDataset(torch.arange(46.0).reshape(23, 2), torch.arange(23) % 2)
    g = torch.Generator()
    g.manual_seed(0)
    loader = DataLoader(dataset, batch_size=5, shuffle=True, generator=g)
    print(len(loader), len(loader.dataset))
    for X, y in loader:
        print(X.shape, y.shape, X.dtype, y.dtype)
    seen = sorted(int(v) for _, y in loader for v in y.tolist())
    print(len(seen))
    loader = DataLoader(dataset, batch_size=5, shuffle=True, drop_last=True,
                        generator=torch.Generator().manual_seed(1))
    print(len(loader), [tuple(X.shape) for X, _ in loader])
    features, labels = next(iter(DataLoader(dataset, batch_size=4)))
    print(features, labels)


PROGRAMS = [optimizing_model_parameters, save_and_load_tensors, save_and_load_the_model,
            resume_training_from_a_checkpoint, learning_rate_schedules, every_optimizer_on_one_problem,
            linear_regression_from_scratch, linear_regression_concise, softmax_regression_from_scratch,
            splitting_datasets, a_seeded_data_loader]
