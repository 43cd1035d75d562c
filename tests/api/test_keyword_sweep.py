"""A sweep of the keyword names of every ``torch.*`` function minigrad also has, against
PyTorch's signatures: ``torch.zeros(size=(3, 4))``, ``torch.add(x, y, out=z)``,
``torch.zeros_like(input=x)``, ``torch.sum(x, dim=1, keepdim=True)``... must be accepted.

PyTorch's keyword names are read from ``torch.overrides.get_testing_overrides()`` (a lambda
with each function's signature) and from the signature lines of its docstring (``add(input,
other, *, alpha=1, out=None) -> Tensor``; ``zeros(*size, ...)`` gives ``size``), under PyTorch
(the oracle records them: tests/oracle.py). minigrad's are its functions' ``inspect.signature``
(a ``**kwargs`` takes any). The random functions are another test's (test_random...).
"""
import inspect
import re

import minigrad

RANDOM = {"rand", "randn", "randint", "randperm", "normal", "bernoulli", "poisson", "multinomial", "rand_like",
          "randn_like", "randint_like", "manual_seed", "seed", "initial_seed", "get_rng_state", "set_rng_state",
          "dropout", "dropout_", "alpha_dropout", "alpha_dropout_", "feature_alpha_dropout",
          "feature_alpha_dropout_", "feature_dropout", "feature_dropout_", "rrelu", "rrelu_"}

# Keywords of PyTorch's that minigrad leaves out, and why: {function: {keyword: reason}}.
OVERRIDE_ONLY = "PyTorch's testing override names it, but PyTorch refuses it by that name"
KNOWN_GAPS = {
    **{name: {"inplace": OVERRIDE_ONLY} for name in ("relu", "celu", "selu", "threshold")},
    **{name: {"split_size_or_sections": OVERRIDE_ONLY, "tensor": OVERRIDE_ONLY}
       for name in ("split_with_sizes", "unsafe_split_with_sizes")},
    "adaptive_max_pool1d": {"inputs": OVERRIDE_ONLY},
    "max_pool1d_with_indices": {"return_indices": OVERRIDE_ONLY},
    "result_type": {"tensor1": OVERRIDE_ONLY, "tensor2": OVERRIDE_ONLY},
    "from_numpy": {"ndarray": OVERRIDE_ONLY + " (it takes no keyword)"},
    "broadcast_to": {"shape": OVERRIDE_ONLY + " (its name is size)"},
    "true_divide": {"dividend": OVERRIDE_ONLY, "divisor": OVERRIDE_ONLY},
    **{name: {"out": "PyTorch's docstring names it, but PyTorch refuses it (no signature takes out=)"}
       for name in ("std_mean", "var_mean")},
    "compile": dict.fromkeys(("isolate_recompiles", "name", "recompile_limit", "shapes_spec"),
                             "options of PyTorch's compiler; minigrad's compile returns the model unchanged"),
}


def _params(text):
    """The parameter names of one signature's text ``(input, *, dim=None)``: top-level commas."""
    depth, part, parts = 0, "", []
    for c in text:
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        if c == "," and depth == 0:
            parts.append(part)
            part = ""
        else:
            part += c
    parts.append(part)
    names = []
    for p in parts:
        p = p.strip().replace("\\", "").lstrip("*").split("=")[0].split(":")[0].strip()
        if p and p not in ("/", "self") and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", p):
            names.append(p)
    return names


def pytorch_keywords(torch):
    """{name: sorted keyword names} of PyTorch's public functions: a Python function's from its
    signature; a C one's from the signature lines of its docstring (``*size``: ``size``, which
    PyTorch's parser takes by name too), else from its testing override."""
    overrides = torch.overrides.get_testing_overrides()
    answer = {}
    for name in sorted(dir(torch)):
        f = getattr(torch, name)
        if name.startswith("_") or isinstance(f, type) or not callable(f):
            continue
        names = set()
        if inspect.isfunction(f):
            names = {p.name for p in inspect.signature(f).parameters.values()
                     if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
        else:
            for line in (f.__doc__ or "").splitlines()[:40]:
                m = re.match(rf"\s*{re.escape(name)}\((.*?)\)\s*(->.*)?$", line)
                if m:
                    names |= set(_params(m.group(1)))
            if not names and f in overrides:
                names = {p.name for p in inspect.signature(overrides[f]).parameters.values()
                         if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
        answer[name] = sorted(names)
    return answer


def accepts(f, keyword):
    try:
        parameters = inspect.signature(f).parameters.values()
    except (TypeError, ValueError):
        return True  # (no signature to read: not checked)
    return any(p.kind is p.VAR_KEYWORD or p.name == keyword and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
               for p in parameters)


def test_minigrad_takes_pytorchs_keywords(oracle):
    theirs = oracle(pytorch_keywords)
    missing = {}
    for name, keywords in theirs.items():
        f = getattr(minigrad, name, None)
        if name in RANDOM or f is None or isinstance(f, type) or not callable(f):
            continue
        lacking = [k for k in keywords if not accepts(f, k) and k not in KNOWN_GAPS.get(name, {})]
        if lacking:
            missing[name] = lacking
    assert not missing, missing
