"""After the same seed, minigrad draws PyTorch 2.13's CPU random numbers (minigrad/_random.py).

Each test is a program run under PyTorch (recorded: tests/oracle.py) and under minigrad, from
``manual_seed(seed)`` or a seeded ``Generator``, over seeds from 0 to 2**64 - 1 and sizes on
both sides of PyTorch's 16-element switch between its two ways of drawing normal numbers.
Values are compared to 1e-6 relative (integers, masks and permutations exactly), and every
program ends with a draw that shows the stream is where PyTorch's is. The live-only Hypothesis
test at the end draws mixed sequences of calls for seeds and sizes of its own choosing.
"""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad
from oracle import caught

SEEDS = [0, 1, 42, 2147483647, 2 ** 32, 2 ** 40 + 7, 2 ** 63 + 5, 2 ** 64 - 1, -1]
SIZES = [0, 1, 5, 15, 16, 17, 31, 100, 1000]
CLOSE = {"rtol": 1e-6, "atol": 1e-12}  # (float32 numbers near 0: an absolute floor far below their ulp)


def _same(oracle, program, *args):
    oracle.same(program, *args, check_repr=False, **CLOSE)


# ---------------------------------------------------------------------------------------------
# Creation functions and fills, seed by seed
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", SEEDS)
def test_randn_and_rand_every_size(oracle, seed):
    """randn and rand of each size, float32 then float64, from one seed: the normal numbers'
    two paths (under 16 elements: Box-Muller one at a time with its cached second number;
    16 or more: in blocks of 16, the last 16 redone) and the uniform ones, all in one stream."""
    def program(lib, seed):
        lib.manual_seed(seed)
        out = []
        for n in SIZES:
            for dtype in (lib.float32, lib.float64):
                out += [lib.randn(n, dtype=dtype), lib.rand(n, dtype=dtype)]
        return out + [lib.randn(3), lib.initial_seed()]
    _same(oracle, program, seed)


@pytest.mark.parametrize("seed", SEEDS[:4])
def test_fills_with_bounds_and_shapes(oracle, seed):
    """normal_(mean, std) and uniform_(a, b) (a fused multiply-add in PyTorch), torch.normal's
    forms, size= and out=, the *_like functions, and fills of transposed (non-contiguous)
    tensors, which PyTorch draws in memory order, one number at a time."""
    def program(lib, seed):
        lib.manual_seed(seed)
        out = []
        for dtype in (lib.float32, lib.float64):
            for n in (5, 16, 37):
                out += [lib.empty(n, dtype=dtype).normal_(0.3, 2.5), lib.empty(n, dtype=dtype).uniform_(-1 / 3, 2.7)]
            out += [lib.empty(4, 6, dtype=dtype).t().normal_(), lib.empty(5, 20, dtype=dtype).t().normal_(1.0, 0.5),
                    lib.empty(4, 6, dtype=dtype).t().uniform_(-2, 1), lib.empty(3, 9, dtype=dtype)[:, ::2].normal_()]
        out += [lib.normal(lib.zeros(5), lib.ones(5) * 2), lib.normal(lib.arange(20.0), 0.5),
                lib.normal(1.0, lib.arange(18.0)), lib.normal(2.0, 3.0, size=(4, 5)),
                lib.normal(-1.0, 0.1, size=(3,), dtype=lib.float64)]
        out += [lib.rand(size=(3, 4)), lib.randn(size=(17,)), lib.randint(0, 10, size=(3,)),
                lib.randint(10, size=(5,)), lib.randn(2, 3, 4)]
        t, u, v, w = lib.empty(5), lib.empty(2, dtype=lib.float64), lib.empty(0, dtype=lib.int64), lib.empty(0)
        out += [lib.randn(5, out=t), lib.rand(3, 2, out=u), lib.randint(0, 5, (6,), out=v), lib.randperm(7, out=w)]
        out += [lib.randn_like(lib.zeros(3, 3)), lib.rand_like(lib.zeros(2, dtype=lib.float64)),
                lib.randint_like(lib.zeros(4), 3, 9)]
        return out + [lib.randn(3)]
    _same(oracle, program, seed)


@pytest.mark.parametrize("seed", SEEDS)
def test_whole_numbers(oracle, seed):
    """randint (a range under 2**28 takes one word per number, from 2**28 on two), random_() of every dtype,
    random_(to), random_(from, to), and randperm of each size (a Fisher-Yates shuffle)."""
    def program(lib, seed):
        lib.manual_seed(seed)
        out = []
        for n in SIZES:
            out += [lib.randint(0, 10, (n,)), lib.randint(-5, 2 ** 40, (n,)), lib.randperm(n)]
        out += [lib.randint(3, 7, (9,), dtype=lib.int32), lib.randint(0, 2, (9,), dtype=lib.bool),
                lib.randint(-3, 300, (9,), dtype=lib.float32), lib.randint(0, 2 ** 33, (4,), dtype=lib.float64),
                lib.randint(0, 2 ** 28 - 1, (4,)), lib.randint(0, 2 ** 28, (4,)),
                lib.randint(-2 ** 27, 2 ** 27, (4,), dtype=lib.int32), lib.randint(5, 2 ** 32, (4,))]
        for dtype in (lib.float32, lib.float64, lib.int64, lib.int32, lib.int16, lib.int8, lib.uint8, lib.bool):
            out.append(lib.empty(20, dtype=dtype).random_())
            if dtype is not lib.bool:
                out += [lib.empty(20, dtype=dtype).random_(3, 100), lib.empty(20, dtype=dtype).random_(20)]
        out.append(lib.randperm(60_000)[::997])
        return out + [lib.randn(3)]
    _same(oracle, program, seed)


def test_float_bounds_beyond_exact_whole_numbers(oracle):
    """random_(from, to) on a float tensor beyond 2**24 (float32) or 2**53 (float64): PyTorch
    moves the bounds to numbers that stay inside once rounded, and warns."""
    def program(lib):
        lib.manual_seed(0)
        out, warned = caught(lambda: [lib.empty(5).random_(low, high) for low, high in
                                      [(0, 2 ** 25), (-2 ** 26 - 3, 5), (3, 2 ** 30 + 1), (0, 2 ** 24 + 1)]]
                             + [lib.randint(-2 ** 25, 2 ** 25, (4,), dtype=lib.float32),
                                lib.empty(5, dtype=lib.float64).random_(0, 2 ** 60)])
        return out + [warned, lib.randn(2)]
    _same(oracle, program)


@pytest.mark.parametrize("seed", SEEDS[:5])
def test_other_distributions(oracle, seed):
    """bernoulli (a tensor of probabilities, float32 and float64; bernoulli_(p) with a number:
    the path PyTorch takes on every CPU but Intel's), exponential_, geometric_, cauchy_,
    log_normal_ (which shares the normal cache) and poisson."""
    def program(lib, seed):
        lib.manual_seed(seed)
        out = []
        for dtype in (lib.float32, lib.float64):
            out += [lib.empty(33, dtype=dtype).exponential_(1.7), lib.empty(33, dtype=dtype).geometric_(0.3),
                    lib.empty(33, dtype=dtype).cauchy_(0.5, 2.0), lib.empty(7, dtype=dtype).log_normal_(0.2, 0.7),
                    lib.randn(3, dtype=dtype)]
            p = lib.linspace(0, 1, 40, dtype=dtype)
            out += [lib.empty(33, dtype=dtype).bernoulli_(0.37), lib.bernoulli(p), lib.bernoulli(p, 0.8),
                    lib.empty(40, dtype=dtype).bernoulli_(p), lib.empty(40, 3).t().bernoulli_(0.5)]
        out += [lib.empty(10, dtype=lib.int64).geometric_(0.2), lib.empty(10, dtype=lib.uint8).bernoulli_(0.5),
                lib.poisson(lib.tensor([0.5, 3.0, 12.0, 100.0, 0.0, 9.99, 10.0]))]
        return out + [lib.randn(3)]
    _same(oracle, program, seed)


@pytest.mark.parametrize("seed", SEEDS[:5])
def test_multinomial(oracle, seed):
    """multinomial without replacement (or one sample: exponential clocks, the largest keys)
    and with replacement (each row's CDF inverted at uniform float64 numbers), 1-D and 2-D,
    float32 and float64 weights."""
    def program(lib, seed):
        lib.manual_seed(seed)
        out = []
        for dtype in (lib.float32, lib.float64):
            p = lib.tensor([[0.1, 0.2, 0.3, 0.4], [0.5, 0.0, 0.25, 0.25]], dtype=dtype)
            out += [lib.multinomial(p, 1), lib.multinomial(p, 3), lib.multinomial(p, 5, replacement=True),
                    lib.multinomial(p, 1, replacement=True), p[0].multinomial(2)]
            q = lib.rand(3, 27, dtype=dtype)
            out += [lib.multinomial(q, 10, True), q.multinomial(1), lib.multinomial(q, 4), lib.multinomial(q[1], 30, True)]
        return out + [lib.randn(3)]
    _same(oracle, program, seed)


# ---------------------------------------------------------------------------------------------
# Generators, the state, and sequences of calls
# ---------------------------------------------------------------------------------------------

def test_generators_and_the_default_stream(oracle):
    """A seeded Generator is a stream of its own (generator= on every draw), and leaves the
    default one alone; manual_seed returns the generator; seeds beyond 32 bits and negative
    ones count as PyTorch counts them."""
    def program(lib):
        lib.manual_seed(7)
        g = lib.Generator().manual_seed(123)
        out = [g.initial_seed(), lib.Generator().initial_seed(), lib.manual_seed(3) is lib.default_generator]
        lib.manual_seed(7)
        out += [lib.randn(6, generator=g), lib.rand(3, generator=g), lib.randint(0, 9, (4,), generator=g),
                lib.randperm(10, generator=g), lib.normal(0.0, 1.0, (20,), generator=g),
                lib.empty(5).uniform_(generator=g), lib.empty(5).normal_(generator=g),
                lib.empty(5).random_(generator=g), lib.empty(5).bernoulli_(0.5, generator=g),
                lib.bernoulli(lib.full((5,), 0.5), generator=g), lib.multinomial(lib.ones(6), 3, generator=g),
                lib.empty(4).exponential_(generator=g), lib.randn(2)]
        out += [lib.Generator().manual_seed(-1).initial_seed(), lib.manual_seed(2 ** 64 - 1).initial_seed(),
                lib.randn(2), lib.Generator().manual_seed(2 ** 32 + 5).get_state()[:40]]
        return out
    _same(oracle, program)


@pytest.mark.parametrize("seed", [0, 42, 2 ** 63 + 5])
def test_state_round_trip(oracle, seed):
    """get_rng_state is PyTorch's 5056 bytes (the seed, the twister's position and words, the
    cached normal number); set_rng_state replays, from any point (the cache too); PyTorch's
    bytes and minigrad's are the same at every step (compared: the header, every 7th byte of
    the words, the normal caches, and whether the whole state is the one before)."""
    def program(lib, seed):
        def seen(state):
            return [state[:24], state[24:5016:7], state[5016:]]
        lib.manual_seed(seed)
        out = [seen(lib.get_rng_state())]
        for n in (3, 1, 624, 1247, 17):  # an odd number of normals leaves one cached
            lib.randn(n)
            out.append(seen(lib.get_rng_state()))
        state = lib.get_rng_state()
        a = [lib.randn(5), lib.rand(700), lib.randn(2, dtype=lib.float64)]
        lib.set_rng_state(state)
        b = [lib.randn(5), lib.rand(700), lib.randn(2, dtype=lib.float64)]
        g = lib.Generator()
        g.set_state(state)
        out += [a, b, lib.randn(3, generator=g), bool((g.get_state() == lib.random.get_rng_state()).all())]
        before = lib.get_rng_state()
        with lib.random.fork_rng():
            lib.randn(10)
        return out + [bool((lib.get_rng_state() == before).all()), lib.randn(2), lib.random.initial_seed()]
    _same(oracle, program, seed)


def test_a_sequence_of_mixed_calls_stays_in_step(oracle):
    """One stream, many kinds of draws after each other, each leaving it where PyTorch's is."""
    def program(lib):
        lib.manual_seed(2024)
        out = [lib.randn(5), lib.rand(3, dtype=lib.float64), lib.randint(0, 100, (4,)), lib.randn(1),
               lib.randperm(12), lib.empty(7).log_normal_(), lib.randn(20), lib.randn(3, dtype=lib.float64),
               lib.empty(9).bernoulli_(0.3), lib.multinomial(lib.rand(5), 2), lib.randn(17),
               lib.empty(3).cauchy_(), lib.randint(0, 2 ** 40, (3,)), lib.randn(1, dtype=lib.float64),
               lib.nn.functional.dropout(lib.ones(8), 0.5), lib.randn(2)]
        return out
    _same(oracle, program)


# ---------------------------------------------------------------------------------------------
# What draws: nn.init and the layers, dropout, data loading
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", SEEDS[:4])
def test_layers_start_with_pytorchs_parameters(oracle, seed):
    """Each layer's parameters after construction (kaiming_uniform_ then the bias's uniform_,
    normal_ for Embedding, uniform_ for every RNN weight in order, xavier for attention...)."""
    def program(lib, seed):
        lib.manual_seed(seed)
        nn = lib.nn
        layers = [nn.Linear(7, 5), nn.Linear(3, 2, bias=False), nn.Conv2d(3, 4, 3), nn.Conv1d(2, 3, 5),
                  nn.Conv2d(4, 4, 3, groups=2), nn.ConvTranspose2d(2, 3, 2), nn.ConvTranspose1d(2, 2, 3),
                  nn.Embedding(10, 4), nn.Embedding(5, 3, padding_idx=1), nn.LSTM(4, 3, num_layers=2),
                  nn.GRU(3, 2), nn.RNN(3, 4), nn.LSTMCell(3, 4), nn.GRUCell(2, 3), nn.RNNCell(2, 2),
                  nn.BatchNorm1d(3), nn.LayerNorm(4), nn.PReLU(), nn.MultiheadAttention(8, 2),
                  nn.TransformerEncoderLayer(8, 2, 16), nn.Sequential(nn.Linear(50, 20), nn.ReLU(), nn.Linear(20, 10))]
        return [[p.detach() for p in layer.parameters()] for layer in layers] + [lib.randn(3)]
    _same(oracle, program, seed)


def test_nn_init(oracle):
    """nn.init's random fillers, float32 and float64, with their bounds computed as PyTorch's
    (trunc_normal_ both ways: rejected normals, or uniform candidates when the bounds hold
    little of the mass; sparse_ picks its zeros with the default generator; orthogonal_'s QR
    rounds differently in LAPACK, so to 1e-5)."""
    def program(lib):
        lib.manual_seed(11)
        init, out = lib.nn.init, []
        fills = [lambda t: init.uniform_(t, -0.3, 0.9), lambda t: init.normal_(t, 0.1, 0.7), init.xavier_uniform_,
                 init.xavier_normal_, lambda t: init.kaiming_uniform_(t, a=0.1),
                 lambda t: init.kaiming_normal_(t, mode="fan_out", nonlinearity="relu"), init.trunc_normal_,
                 lambda t: init.trunc_normal_(t, 0.0, 1.0, 1.5, 3.0), lambda t: init.sparse_(t, 0.3),
                 lambda t: init.uniform_(t, generator=lib.Generator().manual_seed(1))]
        for fill in fills:
            out += [fill(lib.empty(6, 9)), fill(lib.empty(20, 3, dtype=lib.float64))]
        return out + [lib.randn(3)]
    _same(oracle, program)


def test_orthogonal(oracle):
    def program(lib):
        lib.manual_seed(5)
        return [lib.nn.init.orthogonal_(lib.empty(6, 9)), lib.nn.init.orthogonal_(lib.empty(9, 4), gain=2.0),
                lib.randn(3)]
    oracle.same(program, check_repr=False, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("seed", SEEDS[:4])
def test_dropout_masks(oracle, seed):
    """Dropout's mask is bernoulli_(1 - p) on a tensor like the input (the whole channel for
    dropout1d/2d: shape (N, C, 1, ...)), scaled by 1 / (1 - p); p = 1 draws nothing."""
    def program(lib, seed):
        lib.manual_seed(seed)
        F = lib.nn.functional
        x = lib.ones(4, 6)
        out = [F.dropout(x, 0.3), F.dropout(x, 0.5, training=False), F.dropout(lib.ones(40, dtype=lib.float64), 0.2),
               F.dropout2d(lib.ones(2, 3, 4, 4), 0.5), F.dropout1d(lib.ones(2, 5, 3), 0.4),
               F.alpha_dropout(lib.ones(10), 0.3, training=True), F.dropout(x, 1.0), lib.randn(2),
               lib.nn.Dropout(0.25)(lib.ones(3, 5)), F.dropout(lib.ones(3, 4).t(), 0.5),
               F.rrelu(lib.linspace(-2, 2, 9), training=True), F.dropout(lib.randn(300), 0.1)]
        return out + [lib.randn(3)]
    _same(oracle, program, seed)


def test_attention_dropout(oracle):
    """Attention drops its weights so, and a Transformer layer in training mode draws its
    masks in PyTorch's order (the values: float32 matmuls, to 1e-5)."""
    def program(lib):
        lib.manual_seed(3)
        q, k, v = lib.randn(2, 3, 5, 4), lib.randn(2, 3, 5, 4), lib.randn(2, 3, 5, 4)
        out = [lib.nn.functional.scaled_dot_product_attention(q, k, v, dropout_p=0.4)]
        attention = lib.nn.MultiheadAttention(8, 2, dropout=0.3)
        x = lib.randn(5, 2, 8)
        out += [t.detach() for t in attention(x, x, x)]
        out.append(lib.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.2)(x).detach())
        return out + [lib.randn(3)]
    oracle.same(program, check_repr=False)


@pytest.mark.parametrize("seed", SEEDS[:4])
def test_data_loading(oracle, seed):
    """DataLoader's shuffling (each iterator draws its _base_seed; RandomSampler seeds a new
    generator from the default one), with generator= too, epoch after epoch; random_split;
    the other samplers."""
    def program(lib, seed):
        lib.manual_seed(seed)
        data = lib.utils.data
        ds = data.TensorDataset(lib.arange(23.0))
        out = []
        loader = data.DataLoader(ds, batch_size=5, shuffle=True)
        for _ in range(2):
            out += [b for (b,) in loader]
        g = lib.Generator().manual_seed(9)
        loader = data.DataLoader(ds, batch_size=4, shuffle=True, generator=g, drop_last=True)
        for _ in range(2):
            out += [b for (b,) in loader]
        out += [lib.randn(2), lib.randn(1, generator=g)]
        out += [b for (b,) in data.DataLoader(ds, batch_size=6)]  # in order, yet it draws
        out.append(lib.rand(2))
        out += [list(s) for s in data.random_split(range(30), [0.5, 0.3, 0.2])]
        out += [list(s) for s in data.random_split(range(10), [3, 7], generator=lib.Generator().manual_seed(42))]
        out += [list(data.RandomSampler(range(10), replacement=True, num_samples=40)),
                list(data.RandomSampler(range(7), num_samples=17)), list(data.SubsetRandomSampler([3, 5, 7, 9])),
                list(data.WeightedRandomSampler([0.1, 0.9, 0.4], 8)),
                list(data.WeightedRandomSampler([0.1, 0.9, 0.4, 0.2], 3, replacement=False))]
        it = iter(data.DataLoader(ds, batch_size=4, shuffle=True))
        x = lib.randn(3)  # after the iterator's _base_seed, before the sampler's seed
        out += [next(it)[0], x, lib.randn(4)]
        return out
    _same(oracle, program, seed)


def test_a_training_step_with_dropout_stays_in_step(oracle):
    """A small seeded model trained two steps on shuffled batches with dropout: the same
    parameters, losses and final draw as PyTorch."""
    def program(lib):
        lib.manual_seed(0)
        nn = lib.nn
        model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Dropout(0.3), nn.Linear(8, 3))
        opt = lib.optim.SGD(model.parameters(), lr=0.1)
        x, y = lib.randn(12, 4), lib.randint(0, 3, (12,))
        loader = lib.utils.data.DataLoader(lib.utils.data.TensorDataset(x, y), batch_size=4, shuffle=True)
        losses = []
        for _ in range(2):
            for xb, yb in loader:
                loss = nn.functional.cross_entropy(model(xb), yb)
                opt.zero_grad()
                loss.backward()
                opt.step()
                losses.append(loss.item())
        return [p.detach() for p in model.parameters()] + [lib.tensor(losses), lib.randn(2)]
    oracle.same(program, check_repr=False, rtol=1e-5, atol=1e-6)


# ---------------------------------------------------------------------------------------------
# Live against PyTorch (Hypothesis; skipped without PyTorch: the recorded cases above stand in)
# ---------------------------------------------------------------------------------------------

_CALLS = {
    "randn": lambda lib, n, g: lib.randn(n, generator=g),
    "randn64": lambda lib, n, g: lib.randn(n, dtype=lib.float64, generator=g),
    "rand": lambda lib, n, g: lib.rand(n, generator=g),
    "rand64": lambda lib, n, g: lib.rand(n, dtype=lib.float64, generator=g),
    "normal_": lambda lib, n, g: lib.empty(n).normal_(-0.5, 3.0, generator=g),
    "uniform_": lambda lib, n, g: lib.empty(n, dtype=lib.float64).uniform_(-2.5, 0.25, generator=g),
    "randint": lambda lib, n, g: lib.randint(-7, 2 ** n, (n,), generator=g),
    "randperm": lambda lib, n, g: lib.randperm(n, generator=g),
    "bernoulli_": lambda lib, n, g: lib.empty(n).bernoulli_(0.4, generator=g),
    "bernoulli": lambda lib, n, g: lib.bernoulli(lib.linspace(0, 1, n), generator=g),
    "log_normal_": lambda lib, n, g: lib.empty(n).log_normal_(generator=g),
    "multinomial": lambda lib, n, g: lib.multinomial(lib.arange(1.0, n + 2), min(n, 3) or 1, generator=g),
}


@settings(max_examples=40, deadline=None, derandomize=True, database=None)
@given(seed=st.integers(-2 ** 63, 2 ** 64 - 1), own=st.booleans(),
       calls=st.lists(st.tuples(st.sampled_from(sorted(_CALLS)), st.integers(0, 40)), min_size=1, max_size=8))
def test_mixed_calls_against_pytorch(torch, seed, own, calls):
    """Any sequence of draws, from the default generator or a Generator of one's own, gives
    PyTorch's numbers and leaves both streams where PyTorch leaves them."""
    results = []
    for lib in (minigrad, torch):
        g = lib.Generator().manual_seed(seed) if own else None
        lib.manual_seed(seed)
        drawn = [_CALLS[name](lib, n, g).numpy() for name, n in calls]
        results.append(drawn + [lib.randn(3).numpy(), lib.get_rng_state().numpy()])
    for mine, theirs in zip(*results):
        assert mine.dtype == theirs.dtype and mine.shape == theirs.shape
        np.testing.assert_allclose(mine, theirs, **CLOSE)
