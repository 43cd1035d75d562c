"""PyTorch-identical ``repr`` text for minigrad tensors.

A NumPy-only port of the parts of PyTorch's ``torch/_tensor_str.py`` that a
dense, strided CPU tensor uses, with its print options (``torch.set_printoptions``;
by default precision=4, threshold=1000, edgeitems=3, linewidth=80, sci_mode=None).

Users write ``import minigrad as torch`` and must see exactly what PyTorch
prints, so the output deliberately names dtypes ``torch.float64`` and so on.
Each helper below names the PyTorch function or rule it ports.
"""
import math

import numpy as np

__all__ = ["format_tensor", "set_printoptions"]


class _PrintOptions:
    """torch._tensor_str.PRINT_OPTS: digits after the point, how many elements are shown
    before the repr summarises (first and last ``edgeitems`` of each dimension, "..." between),
    characters per line, and scientific notation: True, False, or None (chosen by the values)."""

    __slots__ = ("precision", "threshold", "edgeitems", "linewidth", "sci_mode")

    def __init__(self):
        self.precision, self.threshold, self.edgeitems, self.linewidth, self.sci_mode = 4, 1000, 3, 80, None


PRINT_OPTS = _PrintOptions()
_PROFILES = {"default": (4, 1000, 3, 80), "short": (2, 1000, 2, 80), "full": (4, math.inf, 3, 80)}


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None, profile=None, sci_mode=None):
    """How tensors print, as NumPy's ``set_printoptions``: ``precision`` digits after the
    point (4), all elements unless there are more than ``threshold`` (1000: then the first and
    last ``edgeitems``, 3, of each dimension), ``linewidth`` characters a line (80),
    ``sci_mode`` True or False to force scientific notation or not (None: chosen by the
    values). ``profile`` "default", "short" (precision 2, edgeitems 2) or "full" (no
    summarising) sets the first four; the others then change it. ``sci_mode`` is always set:
    leaving it out sets it back to None."""
    if profile in _PROFILES:  # (an unknown profile is ignored, as PyTorch's)
        PRINT_OPTS.precision, PRINT_OPTS.threshold, PRINT_OPTS.edgeitems, PRINT_OPTS.linewidth = _PROFILES[profile]
    for name, value in (("precision", precision), ("threshold", threshold), ("edgeitems", edgeitems),
                        ("linewidth", linewidth)):
        if value is not None:
            setattr(PRINT_OPTS, name, value)
    PRINT_OPTS.sci_mode = sci_mode

# _str_intern: a plain tensor prints as "tensor(...)"; continuation lines are
# indented by len(prefix) == 7.
_PREFIX = "tensor("

# torch dtype names for the NumPy dtypes minigrad can hold.
_TORCH_DTYPE_NAMES = {
    np.dtype(np.bool_): "torch.bool",
    np.dtype(np.uint8): "torch.uint8",
    np.dtype(np.int8): "torch.int8",
    np.dtype(np.int16): "torch.int16",
    np.dtype(np.int32): "torch.int32",
    np.dtype(np.int64): "torch.int64",
    np.dtype(np.uint16): "torch.uint16",
    np.dtype(np.uint32): "torch.uint32",
    np.dtype(np.uint64): "torch.uint64",
    np.dtype(np.float16): "torch.float16",
    np.dtype(np.float32): "torch.float32",
    np.dtype(np.float64): "torch.float64",
}

# _str_intern's has_default_dtype: default float dtype (float32), int64, bool
# print no dtype= suffix when the tensor is non-empty.
_DEFAULT_FLOAT = np.dtype(np.float32)
_SILENT_DTYPES = (_DEFAULT_FLOAT, np.dtype(np.int64), np.dtype(np.bool_))


def format_tensor(array, suffixes=()):
    """Return exactly what PyTorch prints for repr(torch.tensor(array)) with the current
    print options, with the given suffixes (e.g. "requires_grad=True",
    "grad_fn=<AddBackward0>") appended after any size=/dtype= suffix,
    comma-separated, as PyTorch does."""
    a = np.asarray(array)
    dtype_name = _torch_dtype_name(a.dtype)
    indent = len(_PREFIX)
    all_suffixes = []
    if a.size == 0:
        # _str_intern, empty branch: show the shape unless it is (0,), and
        # always show a non-default dtype (nothing to infer it from), so
        # int64 and bool empties get a dtype= suffix too.
        if a.ndim != 1:
            all_suffixes.append("size=" + str(tuple(int(n) for n in a.shape)))
        if a.dtype != _DEFAULT_FLOAT:
            all_suffixes.append("dtype=" + dtype_name)
        body = "[]"
    else:
        # _str_intern, dense branch: size= when edgeitems is 0 (the values cannot show it);
        # dtype= only when not a "default" dtype.
        if not PRINT_OPTS.edgeitems:
            all_suffixes.append("size=" + str(tuple(int(n) for n in a.shape)))
        if a.dtype not in _SILENT_DTYPES:
            all_suffixes.append("dtype=" + dtype_name)
        body = _tensor_str(a, indent)
    all_suffixes.extend(suffixes)
    return _add_suffixes(_PREFIX + body, all_suffixes, indent)


def _torch_dtype_name(dtype):
    try:
        return _TORCH_DTYPE_NAMES[np.dtype(dtype)]
    except KeyError:
        raise TypeError(f"format_tensor: unsupported dtype {dtype}") from None


def _tensor_str(a, indent):
    """Port of _tensor_str: summarize past PRINT_OPTS.threshold elements; one formatter
    (common width / mode) is built from the data that will actually be shown."""
    summarize = a.size > PRINT_OPTS.threshold
    formatter = _Formatter(_summarized_data(a) if summarize else a)
    return _tensor_str_with_formatter(a, indent, summarize, formatter)


def _edge_indices(n):
    """Indices kept along an axis of length n when summarizing (first and last
    edgeitems), or None when the axis is short enough to keep whole."""
    edge = PRINT_OPTS.edgeitems
    if n > 2 * edge:  # (edgeitems=0: PyTorch's x[-0:], the whole axis)
        return np.r_[0:edge, (n - edge if edge else 0):n]
    return None


def _summarized_data(a):
    """Port of get_summarized_data: keep only the edge items along every axis
    longer than 2*edgeitems. Done axis by axis with np.take, so a huge tensor
    is reduced before anything else touches it. (edgeitems=0: nothing, for 2-d and up.)"""
    if not PRINT_OPTS.edgeitems and a.ndim > 1:
        return a[(slice(0, 0),) * a.ndim]
    for axis in range(a.ndim):
        idx = _edge_indices(a.shape[axis])
        if idx is not None:
            a = np.take(a, idx, axis=axis)
    return a


class _Formatter:
    """Port of _Formatter: chooses int_mode / sci_mode and a common width from
    the non-zero finite values only (so nan, inf and 0 do not widen columns)."""

    def __init__(self, a):
        self.floating = a.dtype.kind == "f"
        self.int_mode = True
        self.sci_mode = False
        self.max_width = 1
        flat = a.reshape(-1)

        if not self.floating:
            # Integers / bools: width of the longest str(value). str length
            # grows with |value| (plus "-"), so the min and max suffice;
            # for bools min/max give False/True.
            if flat.size:
                ends = (flat.min().item(), flat.max().item())
                self.max_width = max(self.max_width, *(len(f"{v}") for v in ends))
            return

        vals = flat[np.isfinite(flat) & (flat != 0)]
        if vals.size == 0:
            # "no valid number, do nothing": int_mode, width 1.
            return

        # Ratios computed in double, like tensor_totype(...abs()).
        absvals = np.abs(vals).astype(np.float64)
        vmin, vmax = float(absvals.min()), float(absvals.max())

        # int_mode: every non-zero finite value equals its ceil.
        self.int_mode = bool(np.all(vals == np.ceil(vals)))

        # sci_mode rule: max/min > 1000, or max > 1e8, or min < 1e-4 (unless set_printoptions sets it).
        if PRINT_OPTS.sci_mode is None:
            with np.errstate(over="ignore"):
                ratio = vmax / vmin if vmin else float("inf")
            self.sci_mode = ratio > 1000.0 or vmax > 1.0e8 or vmin < 1.0e-4
        else:
            self.sci_mode = PRINT_OPTS.sci_mode

        # Width = longest formatted non-zero finite value. The length of each
        # format below depends only on the sign and on the (rounded) magnitude
        # or exponent, monotonically, so the extreme values of each sign give
        # the maximum; formatting them alone is exact and O(1).
        candidates = _extremes_by_sign(vals)
        precision = PRINT_OPTS.precision
        if self.sci_mode:
            widths = [len(f"{v:.{precision}e}") for v in candidates]
        elif self.int_mode:
            # integer-valued floats print as "1." : +1 for the trailing dot.
            widths = [len(f"{v:.0f}") + 1 for v in candidates]
        else:
            widths = [len(f"{v:.{precision}f}") for v in candidates]
        self.max_width = max(self.max_width, *widths)

    def format(self, value):
        """Port of _Formatter.format: format one Python scalar, right-aligned
        to the common width (never truncated if it is wider, e.g. nan/-0.)."""
        if self.floating:
            if self.sci_mode:
                ret = f"{value:{self.max_width}.{PRINT_OPTS.precision}e}"
            elif self.int_mode:
                # "1." marks a float; nan/inf get no dot.
                ret = f"{value:.0f}"
                if not (math.isinf(value) or math.isnan(value)):
                    ret += "."
            else:
                ret = f"{value:.{PRINT_OPTS.precision}f}"
        else:
            ret = f"{value}"
        return (self.max_width - len(ret)) * " " + ret


def _extremes_by_sign(vals):
    """Smallest and largest value among positives and among negatives."""
    out = []
    for group in (vals[vals > 0], vals[vals < 0]):
        if group.size:
            out += [group.min().item(), group.max().item()]
    return out


def _tensor_str_with_formatter(a, indent, summarize, formatter):
    """Port of _tensor_str_with_formatter: recurse over the first axis; inner
    blocks are joined by "," plus (ndim-1) newlines plus indent+1 spaces, so
    3-d tensors get one blank line between blocks, 4-d two, and so on."""
    if a.ndim == 0:
        return formatter.format(a.item())  # _scalar_str
    if a.ndim == 1:
        return _vector_str(a, indent, summarize, formatter)

    n, edge = a.shape[0], PRINT_OPTS.edgeitems
    if summarize and n > 2 * edge:
        # Summarized leading axis: first edgeitems blocks, "...", last ones.
        rows = list(range(edge)) + [None] + list(range(n - edge, n))
    else:
        rows = range(n)
    slices = [
        "..." if i is None
        else _tensor_str_with_formatter(a[i], indent + 1, summarize, formatter)
        for i in rows
    ]
    sep = "," + "\n" * (a.ndim - 1) + " " * (indent + 1)
    return "[" + sep.join(slices) + "]"


def _vector_str(a, indent, summarize, formatter):
    """Port of _vector_str: elements take width+2 columns (", "); as many as
    fit in linewidth - indent go on one line, at least one; continuation
    lines are indented by indent+1. When summarized, " ..." is an element."""
    element_length = formatter.max_width + 2
    elements_per_line = max(1, math.floor((PRINT_OPTS.linewidth - indent) / element_length))

    n, edge = a.shape[0], PRINT_OPTS.edgeitems
    if summarize and not edge:
        data = ["..."]
    elif summarize and n > 2 * edge:
        data = (
            [formatter.format(v) for v in a[:edge].tolist()]
            + [" ..."]
            + [formatter.format(v) for v in a[-edge:].tolist()]
        )
    else:
        data = [formatter.format(v) for v in a.tolist()]

    lines = [
        ", ".join(data[i : i + elements_per_line])
        for i in range(0, len(data), elements_per_line)
    ]
    return "[" + ("," + "\n" + " " * (indent + 1)).join(lines) + "]"


def _add_suffixes(tensor_str, suffixes, indent):
    """Port of _add_suffixes (force_newline=False, as for dense tensors): a
    suffix goes on a new indented line when it would pass the linewidth.
    last_line_len reproduces PyTorch's arithmetic exactly (it counts two
    more characters than the last line actually has)."""
    parts = [tensor_str]
    last_line_len = len(tensor_str) - tensor_str.rfind("\n") + 1
    for suffix in suffixes:
        if last_line_len + len(suffix) + 2 > PRINT_OPTS.linewidth:
            parts.append(",\n" + " " * indent + suffix)
            last_line_len = indent + len(suffix)
        else:
            parts.append(", " + suffix)
            last_line_len += len(suffix) + 2
    parts.append(")")
    return "".join(parts)
