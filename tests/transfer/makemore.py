"""In the style of Karpathy's makemore (Neural Networks: Zero to Hero, lecture 2): a bigram
model of names, first as counts in an int32 matrix, then as a one-layer network trained by
gradient descent. Sampling (``torch.multinomial``) draws differ between the libraries by
design, so only the draws' dtype and shape are printed; the weights start from a formula
instead of ``torch.randn``."""

WORDS = ["emma", "olivia", "ava", "isabella", "sophia", "charlotte", "mia", "amelia"]


def _vocabulary():
    chars = sorted(set("".join(WORDS)))
    stoi = {s: i + 1 for i, s in enumerate(chars)}
    stoi["."] = 0
    return stoi, {i: s for s, i in stoi.items()}


def bigram_counts(torch):
    stoi, itos = _vocabulary()
    n = len(stoi)
    N = torch.zeros((n, n), dtype=torch.int32)
    for w in WORDS:
        chs = ["."] + list(w) + ["."]
        for ch1, ch2 in zip(chs, chs[1:]):
            N[stoi[ch1], stoi[ch2]] += 1
    print(N.dtype, N.shape, N.sum(), N.sum().dtype, N.max())
    print(N[0])
    print(N[stoi["a"], stoi["."]].item(), N[0, 1:5].tolist())
    top = N.view(-1).argmax().item()
    print(f"most common bigram: {itos[top // n]}{itos[top % n]} ({N.view(-1)[top].item()} times)")
    P = (N + 1).float()
    P /= P.sum(1, keepdims=True)
    print(P.dtype, P[0, :4], P.sum(1)[:5])
    g = torch.Generator().manual_seed(2147483647)
    ix = torch.multinomial(P[0], num_samples=3, replacement=True, generator=g)
    print(ix.dtype, ix.shape)
    # the average negative log likelihood of the training words under the counts
    log_likelihood, count = 0.0, 0
    for w in WORDS:
        chs = ["."] + list(w) + ["."]
        for ch1, ch2 in zip(chs, chs[1:]):
            log_likelihood += torch.log(P[stoi[ch1], stoi[ch2]])
            count += 1
    print(f"{log_likelihood=}", f"{-log_likelihood / count:.4f}")


def bigram_network(torch):
    F = torch.nn.functional  # noqa: N806 (the lecture's `import torch.nn.functional as F`)
    stoi, _ = _vocabulary()
    n = len(stoi)
    xs, ys = [], []
    for w in WORDS:
        chs = ["."] + list(w) + ["."]
        for ch1, ch2 in zip(chs, chs[1:]):
            xs.append(stoi[ch1])
            ys.append(stoi[ch2])
    xs, ys = torch.tensor(xs), torch.tensor(ys)
    print(xs.dtype, xs.shape, xs[:6])
    N = torch.zeros((n, n), dtype=torch.int32)  # the counts' loss: what the network should approach
    for x, y in zip(xs.tolist(), ys.tolist()):
        N[x, y] += 1
    P = (N + 1).float() / (N + 1).sum(1, keepdim=True)
    print(P.dtype, f"counts' loss: {-P[xs, ys].log().mean().item():.4f}")
    W = ((torch.arange(n * n) % 7 - 3) * 0.1).reshape(n, n).requires_grad_()
    for k in range(5):
        xenc = F.one_hot(xs, num_classes=n).float()
        logits = xenc @ W
        counts = logits.exp()
        probs = counts / counts.sum(1, keepdims=True)
        loss = -probs[torch.arange(len(xs)), ys].log().mean() + 0.01 * (W ** 2).mean()
        W.grad = None
        loss.backward()
        W.data += -50 * W.grad
        print(k, f"{loss.item():.4f}")
    print(probs.shape, probs.dtype, W.grad.shape, loss.grad_fn.name())


PROGRAMS = [bigram_counts, bigram_network]
