"""Random numbers as PyTorch makes them on the CPU: ``torch.Generator``, ``manual_seed``, and
every draw (rand, randn, randint, randperm, bernoulli, multinomial, ...) done the way PyTorch
2.13's CPU kernels do it. After ``manual_seed(s)`` minigrad gives PyTorch's numbers, and a
sequence of calls stays in step with PyTorch's, because each draw takes as many numbers from
the stream as PyTorch's does.

The stream (aten/src/ATen/CPUGeneratorImpl.cpp, aten/src/ATen/core/MT19937RNGEngine.h)
-------------------------------------------------------------------------------------
A generator is a Mersenne Twister, MT19937: 624 words of state, from which it makes 32-bit
words, one at a time; when all 624 are used, it "twists" the state into 624 new ones.
``manual_seed(s)`` fills the state from the low 32 bits of ``s`` (``init_with_uint32``).
PyTorch's kernels take from it either ``random()``, one 32-bit word, or ``random64()``, two
words, the first the high half. NumPy has the same engine, ``np.random.MT19937``; we give it
PyTorch's state and let its ``random_raw(n)`` make n words at once.

The draws (aten/src/ATen/core/DistributionsHelper.h, TransformationHelper.h,
aten/src/ATen/native/cpu/DistributionTemplates.h)
------------------------------------------------------------------------------------------
- a uniform float32 in [0, 1) is the low 24 bits of one word times 2**-24; a float64 the low
  53 bits of a random64() times 2**-53. ``uniform_(a, b)``: ``u * (b - a) + a``, which the
  compiler fuses into one multiply-add (rounded once: ``_fma``);
- a normal number: Box-Muller on two uniforms, ``sqrt(-2 log1p(-u2)) * cos(2 pi u1)``; its
  twin ``... * sin(2 pi u1)`` is kept for the next call (the generator's "normal cache");
- a tensor of 16 or more contiguous elements is filled another way (``normal_fill``): all
  the uniforms first, then Box-Muller on blocks of 16 (element j with element j + 8); when
  the size is not a multiple of 16, the last 16 are drawn again and redone. In float32 the
  block is computed with AVX2 (``normal_fill_16_AVX2``): eight floats at a time, with the
  Cephes-style log and sincos of aten/src/ATen/native/cpu/avx_mathfun.h, which we repeat
  step by step (``_log_avx``, ``_sincos_avx``), so that the numbers are PyTorch's bit for bit.
- whole numbers in [low, high): a word (two for a range of 2**28 or more) modulo the range.

Where PyTorch's CPUs differ
---------------------------
``bernoulli_(p)`` with a number p (dropout's masks) has two ways in PyTorch: on an Intel CPU
it draws through Intel's MKL (``viRngBernoulli`` from an MCG31 stream seeded with one word of
the generator: aten/src/ATen/native/cpu/DistributionKernels.cpp), on any other CPU (AMD's,
Arm's) it compares a uniform float64 with p per element. minigrad does the latter: on an
Intel machine PyTorch's dropout masks differ from minigrad's (and an Intel machine's from an
AMD machine's). Machines whose CPU has no AVX2 compute the float32 normal blocks with the C
library's log, sin and cos instead, and no fused multiply-adds: the last bit may differ.
"""
import contextlib
import math
import numbers
import os
import warnings

import numpy as np

from . import _device, _dtype, ops
from ._conventions import typename
from .core.tensor import TensorBase

_DEFAULT_SEED = 67280421310721  # a new Generator()'s seed, as in PyTorch
_N = 624  # MT19937's state: 624 words (MERSENNE_STATE_N)
_STATE_SIZE = 5056  # bytes of get_state(): PyTorch's CPUGeneratorImplState


def _mt19937_state(seed):
    """The 624 words of MT19937's state after seeding (``mt19937_engine::init_with_uint32``):
    the seed's low 32 bits, then each word made from the one before."""
    word = seed & 0xFFFFFFFF
    key = [word]
    for j in range(1, _N):
        word = (1812433253 * (word ^ (word >> 30)) + j) & 0xFFFFFFFF
        key.append(word)
    return np.array(key, np.uint32)


class Generator:
    """A stream of random numbers (PyTorch's CPU generator, an MT19937); ``manual_seed``
    makes it reproducible. Random functions take one as ``generator=g``; without it they
    draw from ``torch.default_generator``, which ``torch.manual_seed`` seeds."""

    def __init__(self, device="cpu"):
        _device.check(device)
        self.device = _device.CPU
        self.manual_seed(_DEFAULT_SEED)

    def __repr__(self):
        return f"<torch._C.Generator object at {id(self):#x}>"

    def manual_seed(self, seed):
        """Restart the stream from ``seed`` (an int; a negative one counts as its 64-bit two's
        complement, as in PyTorch); returns the generator."""
        seed = int(seed)
        if not -2 ** 63 <= seed < 2 ** 64:
            raise ValueError("Overflow when unpacking long long")
        self._seed = seed % 2 ** 64
        self._bits = np.random.MT19937()
        self._bits.state = {"bit_generator": "MT19937",
                            "state": {"key": _mt19937_state(self._seed), "pos": _N}}
        self._fresh = True  # no word drawn since seeding (get_state writes next = 0, not 624)
        self._next_double_normal = None  # Box-Muller's second number, kept for the next call
        self._next_float_normal = None  # (PyTorch's float cache: kept in the state only)
        return self

    def initial_seed(self):
        return self._seed

    def seed(self):
        """Seed with a number from the operating system's randomness, and return it."""
        seed = int.from_bytes(os.urandom(8), "little")
        self.manual_seed(seed)
        return seed

    # -- the words: CPUGeneratorImpl::random() and random64() ----------------------------------
    def _random(self, n):
        """n 32-bit words (uint64 array), as n calls of PyTorch's ``random()``."""
        if n:
            self._fresh = False
        return self._bits.random_raw(n)

    def _random64(self, n):
        """n 64-bit words, as n calls of ``random64()``: two words each, the first the high half."""
        words = self._random(2 * n)
        return (words[0::2] << np.uint64(32)) | words[1::2]

    # -- the state: PyTorch's bytes ------------------------------------------------------------
    def get_state(self):
        """The generator's state as PyTorch writes it: 5056 bytes (a uint8 tensor) that
        ``set_state`` takes back, here or in PyTorch. The layout (CPUGeneratorImplState):
        the seed (uint64), ``left`` and ``seeded`` (int32), ``next`` (uint64), the 624 words
        (each as a uint64), three unused float64 and the cached normal (``normal_y``), its
        flag (int32, then 4 bytes of padding), then the float cache (float32) and its flag."""
        bits = self._bits.state["state"]
        pos = int(bits["pos"])  # the next word's index; 624: twist first
        next_word = 0 if self._fresh else pos
        state = np.zeros(_STATE_SIZE, np.uint8)
        header = np.array([self._seed], np.uint64).tobytes() + np.array([_N + 1 - pos, 1], np.int32).tobytes() \
            + np.array([next_word], np.uint64).tobytes()
        state[:24] = np.frombuffer(header, np.uint8)
        state[24:24 + 8 * _N] = bits["key"].astype(np.uint64).view(np.uint8)
        if self._next_double_normal is not None:
            state[5024:5032] = np.array([self._next_double_normal], np.float64).view(np.uint8)
            state[5040:5044] = np.array([1], np.int32).view(np.uint8)
        if self._next_float_normal is not None:
            state[5048:5052] = np.array([self._next_float_normal], np.float32).view(np.uint8)
            state[5052] = 1
        return TensorBase._wrap(state)

    def set_state(self, new_state):
        """Go back to a state ``get_state`` returned (PyTorch's 5056 bytes)."""
        if not hasattr(new_state, "_data"):
            raise TypeError(f"expected a torch.ByteTensor, but got {type(new_state).__name__}")
        if new_state._data.dtype != np.uint8:
            raise TypeError("RNG state must be a torch.ByteTensor")
        if new_state._data.size != _STATE_SIZE:
            raise RuntimeError(f"Expected a CPUGeneratorImplState of size {_STATE_SIZE} but found the input "
                               f"RNG state size to be {new_state._data.size}")
        raw = new_state._data.reshape(-1).tobytes()
        seed = int(np.frombuffer(raw, np.uint64, 1, 0)[0])
        left, seeded = (int(v) for v in np.frombuffer(raw, np.int32, 2, 8))
        next_word = int(np.frombuffer(raw, np.uint64, 1, 16)[0])
        if not (seeded and 0 < left <= _N and next_word <= _N):
            raise RuntimeError("Invalid mt19937 state")
        self._seed = seed
        self._bits = np.random.MT19937()
        key = np.frombuffer(raw, np.uint64, _N, 24).astype(np.uint32)  # (each word kept in 64 bits)
        self._bits.state = {"bit_generator": "MT19937", "state": {"key": key, "pos": _N + 1 - left}}
        self._fresh = next_word == 0 and left == 1
        has_double, = np.frombuffer(raw, np.int32, 1, 5040)
        has_float = raw[5052]
        self._next_double_normal = float(np.frombuffer(raw, np.float64, 1, 5024)[0]) if has_double else None
        self._next_float_normal = float(np.frombuffer(raw, np.float32, 1, 5048)[0]) if has_float else None
        return self


default_generator = Generator()
default_generator.seed()  # as PyTorch's: seeded from the operating system, a new stream each run


def manual_seed(seed):
    """Seed the default generator (randn, rand, randint, randperm, dropout, shuffling); returns it."""
    return default_generator.manual_seed(int(seed))


def seed():
    """Seed the default generator from the operating system's randomness; the seed is returned."""
    return default_generator.seed()


def initial_seed():
    """The seed the default generator was last seeded with."""
    return default_generator.initial_seed()


def get_rng_state():
    """The default generator's state: PyTorch's 5056 bytes (see Generator.get_state)."""
    return default_generator.get_state()


def set_rng_state(new_state):
    default_generator.set_state(new_state)


@contextlib.contextmanager
def fork_rng(devices=None, enabled=True, _caller="fork_rng", _devices_kw="devices", device_type="cuda"):
    """``with torch.random.fork_rng():`` draws inside, then puts the default generator back
    as it was (the CPU's; minigrad has no other device)."""
    if not enabled:
        yield
        return
    state = get_rng_state()
    try:
        yield
    finally:
        set_rng_state(state)


def generator_of(generator):
    """The generator to draw from: ``generator``, or the default one."""
    return default_generator if generator is None else generator


# ---------------------------------------------------------------------------------------------
# Uniform numbers (uniform_real_distribution; TransformationHelper.h's uniform_real)
# ---------------------------------------------------------------------------------------------

def _libm(function, x):
    """``function`` (math's: the C library's, which PyTorch's kernels call) on each element of
    ``x``: NumPy's own log, log1p, exp and tan are not the C library's, and differ from it in
    the last bit now and then. (Their sin and cos agree; the float32 blocks use neither.)"""
    return np.frompyfunc(function, 1, 1)(x).astype(np.float64)


def _log(x):
    return math.log(x) if x > 0 else -math.inf  # (a uniform of 0 for geometric_: log(0))


def _exp(x):
    return math.exp(x) if x < 709.8 else math.inf


def _digits(np_dtype):
    """Bits of a float's significand, the hidden one included (float32: 24, float64: 53)."""
    return np.finfo(np_dtype).nmant + 1


def _unit(generator, n, np_dtype):
    """n uniform numbers in [0, 1) of the float dtype: the low 24 bits (float32) of a word, or
    the low 53 bits (float64) of a random64(), times 2**-24 or 2**-53: exact, no rounding."""
    np_dtype = np.dtype(np_dtype)
    digits = _digits(np_dtype)
    words = generator._random64(n) if np_dtype == np.float64 else generator._random(n)
    return ((words & np.uint64(2 ** digits - 1)).astype(np.float64) * 2.0 ** -digits).astype(np_dtype)


def _fma(a, b, c, np_dtype):
    """``a * b + c`` rounded once, as the fused multiply-add PyTorch's compiled kernels use.
    In float32 the product is exact in float64, so float64 does it; in float64 the product's
    rounding error is computed exactly (Dekker's product, Knuth's sum) and added back."""
    if np_dtype != np.float64:
        return (np.asarray(a, np.float64) * np.asarray(b, np.float64) + np.asarray(c, np.float64)).astype(np_dtype)
    a, b, c = (np.asarray(v, np.float64) for v in (a, b, c))
    product = a * b
    error = _product_error(a, b, product)  # a * b == product + error, exactly
    total = product + c
    back = total - product
    sum_error = (product - (total - back)) + (c - back)  # product + c == total + sum_error
    with np.errstate(invalid="ignore", over="ignore"):
        fused = total + (error + sum_error)
    return np.where(np.isfinite(product) & np.isfinite(c), fused, product + c)


def _product_error(a, b, product):
    """The rounding error of ``product = a * b`` (Dekker): each factor split into two halves
    of 26 bits, whose products are exact."""
    def split(x):
        big = x * 134217729.0  # 2**27 + 1
        high = big - (big - x)
        return high, x - high
    with np.errstate(invalid="ignore", over="ignore"):
        a_hi, a_lo = split(a)
        b_hi, b_lo = split(b)
        return ((a_hi * b_hi - product) + a_hi * b_lo + a_lo * b_hi) + a_lo * b_lo


def uniform(generator, n, np_dtype, low=0.0, high=1.0):
    """n numbers uniform in [low, high) (``uniform_kernel``): ``u * (high - low) + low`` with
    the bounds first made numbers of the dtype."""
    np_dtype = np.dtype(np_dtype)
    low, high = np_dtype.type(low), np_dtype.type(high)
    u = _unit(generator, n, np_dtype)
    if low == 0 and high == 1:
        return u
    return _fma(u, high - low, low, np_dtype)


# ---------------------------------------------------------------------------------------------
# Normal numbers (normal_kernel in cpu/DistributionTemplates.h)
# ---------------------------------------------------------------------------------------------

def normal(generator, n, np_dtype, mean=0.0, std=1.0, contiguous=True):
    """n normal numbers of that mean and std. A contiguous tensor of 16 or more elements is
    filled block by block (normal_fill); otherwise one number per element, Box-Muller with
    its second number kept (normal_distribution<double>)."""
    if n >= 16 and contiguous:
        if np_dtype == np.float32:
            return _normal_fill(generator, n, np.float32, mean, std, _box_muller_avx)
        return _normal_fill(generator, n, np_dtype, mean, std, _box_muller_16)
    return normal_numbers(generator, n, mean, std).astype(np_dtype)


def normal_numbers(generator, n, mean=0.0, std=1.0):
    """n float64 normal numbers, one at a time as ``normal_distribution<double>`` draws them:
    each pair of uniforms (u1, u2) gives ``r cos(theta)`` now and ``r sin(theta)``, kept in
    the generator, at the next call (r = sqrt(-2 log1p(-u2)), theta = 2 pi u1)."""
    values = []
    if n and generator._next_double_normal is not None:
        values.append(np.array([generator._next_double_normal]))
        generator._next_double_normal = None
        n -= 1
    pairs = (n + 1) // 2
    u = _unit(generator, 2 * pairs, np.float64)
    u1, u2 = u[0::2], u[1::2]
    r = np.sqrt(-2.0 * _libm(math.log1p, -u2))
    theta = 2.0 * math.pi * u1
    both = np.stack([r * np.cos(theta), r * np.sin(theta)], axis=1).reshape(-1)
    if n % 2:  # the last pair's sine waits for the next call
        generator._next_double_normal = float(both[-1])
    values.append(both[:n])
    return _fma(np.concatenate(values), std, mean, np.float64)


def _normal_fill(generator, n, np_dtype, mean, std, box_muller):
    """``normal_fill``: n uniforms, then Box-Muller block by block (16 numbers: element j
    with j + 8); if n is not a multiple of 16, the last 16 are drawn again and redone."""
    data = _unit(generator, n, np_dtype)
    whole = n - n % 16
    data[:whole] = box_muller(data[:whole], mean, std)
    if n % 16:
        data[n - 16:] = box_muller(_unit(generator, 16, np_dtype), mean, std)
    return data


def _box_muller_16(data, mean, std):
    """normal_fill_16 (float64): in each block of 16, u1 = 1 - data[j], u2 = data[j + 8]."""
    blocks = data.reshape(-1, 2, 8)
    radius = np.sqrt(-2.0 * _libm(math.log, 1.0 - blocks[:, 0]))
    theta = 2.0 * math.pi * blocks[:, 1]
    both = np.stack([radius * np.cos(theta), radius * np.sin(theta)], axis=1)
    return _fma(both, std, mean, np.float64).reshape(-1)


def _box_muller_avx(data, mean, std):
    """normal_fill_16_AVX2 (float32): the same, in float32, with avx_mathfun.h's log and sincos."""
    f = np.float32
    blocks = data.reshape(-1, 2, 8)
    radius = np.sqrt(f(-2.0) * _log_avx(f(1.0) - blocks[:, 0]))
    sin, cos = _sincos_avx(f(2.0 * math.pi) * blocks[:, 1])
    both = np.stack([radius * cos, radius * sin], axis=1)
    return _fma(both, f(std), f(mean), np.float32).reshape(-1)


# avx_mathfun.h's functions, step by step in float32 (Cephes' polynomials). ``_fma`` is where
# PyTorch's compiler (GCC) fused a multiply with the add that follows it.
_LOG_P = [7.0376836292E-2, -1.1514610310E-1, 1.1676998740E-1, -1.2420140846E-1, 1.4249322787E-1,
          -1.6668057665E-1, 2.0000714765E-1, -2.4999993993E-1, 3.3333331174E-1]


def _log_avx(x):
    """log256_ps: x = m * 2**e with m in [sqrt(1/2), sqrt(2)); log(m) by a polynomial."""
    f, fma = np.float32, (lambda a, b, c: _fma(a, b, c, np.float32))
    bits = np.maximum(x, np.finfo(f).tiny).view(np.int32)
    e = ((bits >> 23) - 0x7F).astype(f) + f(1)
    m = ((bits & ~0x7F800000) | f(0.5).view(np.int32)).view(f)  # the significand, in [0.5, 1)
    small = m < f(0.707106781186547524)
    e = e - small.astype(f)
    m = (m - f(1)) + np.where(small, m, f(0))  # m - 1, or 2m - 1 if m < sqrt(1/2)
    z = m * m
    y = np.full_like(m, f(_LOG_P[0]))
    for p in _LOG_P[1:]:
        y = fma(y, m, f(p))
    y = fma(y * m, z, e * f(-2.12194440e-4))
    y = y - z * f(0.5)
    return fma(e, f(0.693359375), m + y)


def _sincos_avx(x):
    """sincos256_ps: x reduced to [-pi/4, pi/4] by a multiple j of pi/4 (in three parts, for
    precision), then sine and cosine polynomials, chosen and signed by j. Returns (sin, cos)."""
    f, fma = np.float32, (lambda a, b, c: _fma(a, b, c, np.float32))
    sign_sin = x.view(np.int32) & np.int32(-2 ** 31)
    x = np.abs(x)
    j = ((x * f(1.27323954473516)).astype(np.int32) + 1) & ~1  # 4 / pi
    y = j.astype(f)
    for part in (-0.78515625, -2.4187564849853515625e-4, -3.77489497744594108e-8):  # -pi/4
        x = fma(y, f(part), x)
    sign_sin = sign_sin ^ ((j & 4) << 29)
    sign_cos = (~(j - 2) & 4) << 29
    use_sine = (j & 2) == 0
    z = x * x
    c = fma(fma(f(2.443315711809948E-005), z, f(-1.388731625493765E-003)), z, f(4.166664568298827E-002))
    c = fma(c * z, z, -(z * f(0.5))) + f(1)
    s = fma(fma(f(-1.9515295891E-4), z, f(8.3321608736E-3)), z, f(-1.6666654611E-1))
    s = fma(s * z, x, x)
    sin = np.where(use_sine, s, c).view(np.int32) ^ sign_sin
    cos = np.where(use_sine, c, s).view(np.int32) ^ sign_cos
    return sin.view(f), cos.view(f)


# ---------------------------------------------------------------------------------------------
# Whole numbers (random_ and randint; uniform_int_from_to_distribution, uniform_int_distribution)
# ---------------------------------------------------------------------------------------------

def random_from_to(generator, n, dtype, low, high):
    """n whole numbers in [low, high): a word modulo the range, plus low; two words
    (random64) for a range of 2**28 or more (uniform_int_from_to_distribution: PyTorch's
    public builds switch at 2**28, for any dtype, to keep the modulo's skew small)."""
    if dtype.is_floating_point:
        low, high = _float_bounds(low, high, dtype)
    span = high - low
    words = generator._random64(n) if span >= 2 ** 28 else generator._random(n)
    return _as_dtype((words % np.uint64(span)).astype(np.int64) + np.int64(low), dtype)


def _float_bounds(low, high, dtype):
    """[low, high) for a float tensor (random_from_to_impl in aten/src/ATen/native/
    DistributionTemplates.h): beyond 2**digits not every whole number is a float, so PyTorch
    moves ``low`` up and ``high`` down to bounds whose numbers stay inside once rounded
    (update_from, update_to), and warns about bounds beyond +-2**digits."""
    digits = _digits(dtype.np)
    rounded = int(dtype.np.type(low + 1))
    if rounded < low:
        low = rounded + (1 << (max(abs(low + 1).bit_length() - 1, 0) - digits + 1))
    rounded = int(dtype.np.type(high - 1))
    if rounded >= high:
        high = rounded - (1 << (max(abs(high - 1).bit_length() - 1, 0) - digits + 1))
    for name, value in (("from", low), ("to - 1", high - 1)):
        if not -2 ** digits <= value <= 2 ** digits:
            warnings.warn(f"{name} is out of bounds [-(2^{digits}), 2^{digits}]. Due to precision limitations "
                          f"{_C_TYPES[dtype.name]} can support discrete uniform distribution only within this "
                          "range. This warning will become an error in version 1.7 release, please fix the code "
                          "in advance", UserWarning, stacklevel=4)
    return low, high


_C_TYPES = {"float32": "float", "float64": "double"}


def random_any(generator, n, dtype):
    """``random_()``: whole numbers from 0 to the dtype's largest (integers), or to 2**digits
    (floats, all exactly representable); bool: a word's lowest bit."""
    if dtype.name == "bool":
        return (generator._random(n) & np.uint64(1)).astype(np.bool_)
    if dtype.is_floating_point:
        top = 2 ** _digits(dtype.np) + 1
    else:
        top = int(np.iinfo(dtype.np).max) + 1
    words = generator._random64(n) if dtype.name in ("int64", "float64") else generator._random(n)
    return _as_dtype((words % np.uint64(top)).astype(np.int64), dtype)


def random_full_range(generator, n, dtype):
    """``random_(-2**63, None)``: every int64, a random64() as a signed number."""
    return _as_dtype(generator._random64(n).view(np.int64), dtype)


def _as_dtype(values, dtype):
    return values.astype(dtype.np)


def randperm(generator, n):
    """A random order of range(n) (randperm_cpu in aten/src/ATen/native/TensorFactories.cpp):
    Fisher-Yates, from the front: place i swaps with place i + (a word modulo n - i). Beyond
    2**32 / 20 elements PyTorch builds it from the back with random64() words instead."""
    if n >= (2 ** 32 - 1) // 20:
        order = list(range(n))
        for i, word in enumerate(generator._random64(n).tolist()):
            z = word % (i + 1)
            order[i], order[z] = order[z], i
        return np.array(order, np.int64)
    order = list(range(n))
    steps = np.arange(max(n - 1, 0), dtype=np.uint64)
    targets = (generator._random(max(n - 1, 0)) % (np.uint64(n) - steps) + steps).tolist()
    for i, z in enumerate(targets):  # one swap after another: each sees the swaps before it
        order[i], order[z] = order[z], order[i]
    return np.array(order, np.int64)


# ---------------------------------------------------------------------------------------------
# Other distributions (TransformationHelper.h), one uniform float64 per element
# ---------------------------------------------------------------------------------------------

def bernoulli_draws(generator, probabilities):
    """0/1 (bool array) with each element's probability: a uniform below it is a 1. A float64
    probability is compared with a uniform float64, a float32 one with a uniform float32
    (bernoulli_distribution<double> and <float>). For a number p (``bernoulli_(p)``, dropout)
    PyTorch compares with a float64 uniform too, except on Intel CPUs (see the top)."""
    p = np.asarray(probabilities)
    np_dtype = np.float64 if p.dtype != np.float32 else np.float32
    return _unit(generator, p.size, np_dtype) < p.reshape(-1).astype(np_dtype)


def bernoulli_number(generator, n, p):
    """n draws of ``bernoulli_(p)`` with a number p (dropout's masks): a uniform float64 per
    element, below p is a 1 (PyTorch's way on every CPU but Intel's: see the top)."""
    return _unit(generator, n, np.float64) < p


def dropout_noise(data, p, feature=False):
    """Dropout's mask as PyTorch makes it (``_dropout_impl``, aten/src/ATen/native/Dropout.cpp):
    a new array like ``data`` (``feature``: of shape (N, C, 1, ...), to drop whole channels)
    filled by ``bernoulli_(1 - p)`` from the default generator (in data's memory order), then
    divided by ``1 - p``, in data's dtype. With p = 1: zeros (0-d), and nothing drawn."""
    if p == 1:
        return np.zeros((), data.dtype)
    if feature:
        shape = data.shape[:2] + (1,) * (data.ndim - 2)
        keep = bernoulli_number(default_generator, math.prod(shape), 1 - p).reshape(shape)
    else:
        keep = laid_out(bernoulli_number(default_generator, data.size, 1 - p), data)
    return keep.astype(data.dtype) / data.dtype.type(1 - p)


def exponential(generator, n, lambd):
    """``-1 / lambd * log1p(-u)``: waiting times of rate lambd."""
    return -1.0 / lambd * _libm(math.log1p, -_unit(generator, n, np.float64))


def geometric(generator, n, p):
    """``ceil(log(u) / log(1 - p))``: the number of tries up to the first success."""
    with np.errstate(divide="ignore"):
        return np.ceil(_libm(_log, _unit(generator, n, np.float64)) / math.log(1.0 - p))


def cauchy(generator, n, median, sigma):
    """``median + sigma * tan(pi * (u - 1/2))``."""
    return _fma(sigma, _libm(math.tan, math.pi * (_unit(generator, n, np.float64) - 0.5)), median, np.float64)


def log_normal(generator, n, mean, std):
    """``exp`` of normal numbers (one at a time, with the normal cache: normal_distribution)."""
    return _libm(_exp, normal_numbers(generator, n, mean, std))


def poisson_counts(generator, rates):
    """One count per rate (``sample_poisson`` in aten/src/ATen/native/Distributions.cpp): for a
    rate under 10, multiply uniforms until the product falls below exp(-rate); from 10 on,
    Hoermann's transformed rejection. Element by element: each takes as many uniforms as it needs."""
    out = np.empty(rates.size, np.float64)
    for i, lam in enumerate(rates.reshape(-1).astype(np.float64).tolist()):
        out[i] = _poisson_one(generator, lam)
    return out.reshape(rates.shape)


def _poisson_one(generator, lam):
    def uniform_one():
        return float(_unit(generator, 1, np.float64)[0])
    if lam >= 10:
        slam, loglam = math.sqrt(lam), math.log(lam)
        b = 0.931 + 2.53 * slam
        a = -0.059 + 0.02483 * b
        invalpha = 1.1239 + 1.1328 / (b - 3.4)
        vr = 0.9277 - 3.6224 / (b - 2)
        while True:
            u = uniform_one() - 0.5
            v = uniform_one()
            us = 0.5 - abs(u)
            k = math.floor((2 * a / us + b) * u + lam + 0.43)
            if us >= 0.07 and v <= vr:
                return k
            if k < 0 or (us < 0.013 and v > us):
                continue
            if math.log(v) + math.log(invalpha) - math.log(a / (us * us) + b) <= \
                    -lam + k * loglam - math.lgamma(k + 1):
                return k
    if lam == 0:
        return 0
    count, product, limit = 0, 1.0, math.exp(-lam)
    while True:
        product *= uniform_one()
        if product > limit:
            count += 1
        else:
            return count


def _memory_axes(like):
    """``like``'s dims from the outermost in memory to the innermost (a transposed matrix: (1, 0)):
    PyTorch's kernels visit the elements in memory order (TensorIterator sorts dims by stride)."""
    return sorted(range(like.ndim), key=lambda d: -abs(like.strides[d]))


def laid_out(values, like):
    """The flat ``values``, drawn one per element of ``like`` in its memory order, as a
    C-ordered array of its shape."""
    if like.flags.c_contiguous or like.ndim < 2:
        return values.reshape(like.shape)
    out = np.empty(like.shape, values.dtype)
    view = out.transpose(_memory_axes(like))
    view[...] = values.reshape(view.shape)
    return out


def in_memory_order(values, like):
    """``values`` (shaped like ``like``) flat, in ``like``'s memory order: laid_out's inverse."""
    if like.flags.c_contiguous or like.ndim < 2:
        return np.ascontiguousarray(values).reshape(-1)
    return np.ascontiguousarray(values.transpose(_memory_axes(like))).reshape(-1)


# ---------------------------------------------------------------------------------------------
# torch.bernoulli, torch.poisson
# ---------------------------------------------------------------------------------------------

def _tensor(input, who):
    if not isinstance(input, TensorBase):
        raise TypeError(f"{who}(): argument 'input' (position 1) must be Tensor, not {typename(input)}")
    return input


def bernoulli(input, p=None, *, generator=None):
    """0s and 1s, 1 with the probability in each element of ``input`` (or with ``p`` for all)."""
    return _tensor(input, "bernoulli").bernoulli(p, generator=generator)


def poisson(input, generator=None):
    """A count per element, drawn from the Poisson distribution whose rate (and mean) the
    element is: how many events happen in a unit of time at that rate. Its gradient is zeros."""
    rates = _tensor(input, "poisson")._data
    if rates.dtype.kind != "f":
        raise NotImplementedError(f"\"poisson_cpu\" not implemented for '{input.dtype.legacy_name}'")
    if not (rates >= 0).all():  # (NaN too)
        raise RuntimeError("invalid Poisson rate, expected rate to be non-negative")
    counts = poisson_counts(generator_of(generator), rates)  # (row by row: the new tensor's order)
    return ops.Poisson.apply(input, counts.astype(rates.dtype))


# ---------------------------------------------------------------------------------------------
# multinomial: drawing categories (makemore's sampler), on NumPy arrays
# ---------------------------------------------------------------------------------------------


def multinomial(probs, num_samples, replacement=False, generator=None, first=1):
    """Indices drawn with the probabilities in ``probs`` (weights: the sum need not be 1), for
    each row of a 2-D array: ``Tensor.multinomial``'s and ``torch.multinomial``'s work
    (aten/src/ATen/native/Distributions.cpp's multinomial_out; ``first``: see check_multinomial)."""
    check_multinomial(probs, num_samples, replacement, generator, first)
    out_shape = probs.shape[:-1] + (num_samples,)
    if not np.prod(out_shape):  # no rows: nothing to draw, nothing to check
        return np.zeros(out_shape, np.int64)
    rows = probs.reshape(int(np.prod(out_shape[:-1])), -1)  # 1-D: one row
    g = generator_of(generator)
    if not replacement or num_samples == 1:
        _check_probabilities(rows)
        # Each category gets the key p / E, with E ~ Exp(1) (exponential_ on a tensor like
        # probs, of its dtype): the largest key is category i with probability p_i, the next
        # largest the next draw from the rest, and so on (a race of exponential clocks).
        clocks = exponential(g, rows.size, 1.0).astype(rows.dtype).reshape(rows.shape)
        with np.errstate(divide="ignore", invalid="ignore"):
            keys = rows / clocks
        samples = np.argsort(-keys, axis=1, kind="stable")[:, :num_samples]
    else:  # multinomial_with_replacement (cpu/MultinomialKernel.cpp): invert each row's CDF
        _check_probabilities(rows, replacement=True)
        cdf = np.cumsum(rows, axis=1)  # (summed one by one, in the probabilities' dtype)
        cdf /= cdf[:, -1:]
        cdf[:, -1] = 1
        u = _unit(g, rows.shape[0] * num_samples, np.float64).reshape(len(rows), num_samples)
        samples = np.stack([np.searchsorted(c.astype(np.float64), x, side="left") for c, x in zip(cdf, u)])
    return samples.reshape(out_shape).astype(np.int64)


def check_multinomial(probs, num_samples, replacement, generator, first=1):
    """PyTorch's checks of multinomial's arguments, in its order (``first``: num_samples's
    position: 1 for the method, 2 for ``torch.multinomial``)."""
    if type(num_samples) is bool or not isinstance(num_samples, numbers.Integral):
        raise TypeError(f"multinomial(): argument 'num_samples' (position {first}) must be int, not "
                        f"{type(num_samples).__name__}")
    if type(replacement) is not bool:
        raise TypeError(f"multinomial(): argument 'replacement' (position {first + 1}) must be bool, "
                        f"not {type(replacement).__name__}")
    if generator is not None and not isinstance(generator, Generator):
        raise TypeError("multinomial(): argument 'generator' must be torch.Generator, not "
                        f"{type(generator).__name__}")
    if probs.ndim not in (1, 2):
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if probs.dtype.kind != "f":
        raise RuntimeError(f"multinomial only supports floating-point dtypes for input, got: "
                           f"{_dtype.from_numpy_dtype(probs.dtype).legacy_name}")
    if num_samples <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    if not replacement and num_samples > probs.shape[-1]:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without replacement")


def _check_probabilities(rows, replacement=False):
    """PyTorch's words for probabilities that make no distribution (its two code paths say it
    differently): negative, infinite or NaN entries, a row of zeros."""
    bad = ~(rows >= 0) | ~np.isfinite(rows)  # (NaN >= 0 is False)
    empty = ~(rows.sum(axis=1) > 0)
    if not replacement:  # checked on the whole tensor first, then row by row
        if bad.any():
            raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
    else:  # the first row with a problem, entry by entry
        for i in np.flatnonzero(bad.any(axis=1) | empty)[:1]:
            if bad[i].any():
                first = rows[i, np.argmax(bad[i])]
                raise RuntimeError("invalid multinomial distribution (encountering probability entry "
                                   + ("< 0)" if not first >= 0 else "= infinity or NaN)"))
    if empty.any():
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
