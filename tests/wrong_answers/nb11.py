"""Typical wrong answers for the exercises of notebook 11 (see tests/wrong_answers/__init__.py)."""

WRONG = {
    "nb11_bytes_moved": [
        ("reads_only", "    return sum(reads) * n * itemsize, (n_inputs + 1) * n * itemsize",
         "also writes", ["r + 1"]),
        ("elements_not_bytes", "    return sum(r + 1 for r in reads) * n, (n_inputs + 1) * n",
         "bytes, not elements", []),
        ("fused_forgets_output", "    return sum(r + 1 for r in reads) * n * itemsize, n_inputs * n * itemsize",
         "still has to write its result", ["n_inputs + 1"]),
        ("two_arrays_per_op", "    return 2 * len(reads) * n * itemsize, (n_inputs + 1) * n * itemsize",
         "reads both", []),
        ("swapped", "    return (n_inputs + 1) * n * itemsize, sum(r + 1 for r in reads) * n * itemsize",
         "swapped", []),
    ],
    "nb11_div_rule": [
        ("sign_of_b", "    return g / b, g * a / (b * b)", "its sign is wrong", ["-g", "b * b", "b ** 2"]),
        ("no_square", "    return g / b, -g * a / b", "not -1 / b", ["b * b", "b ** 2"]),
        ("forgets_g", "    return 1 / b, -a / (b * b)", "do not depend on g", ["b * b", "b ** 2"]),
        ("swapped", "    return -g * a / (b * b), g / b", "swapped", []),
        ("product_rule", "    return g * b, g * a", "rule of a product", ["b * b", "b ** 2"]),
    ],
    "nb11_fused_by_hand": [
        ("plain_expression", "    return np.tanh(x - y) * x", "allocated about 2 arrays", ["np.subtract"]),
        ("overwrites_x", "    np.subtract(x, y, out=x)\n    np.tanh(x, out=x)\n    return np.multiply(x, x, out=x)",
         "changed its input", []),
        ("no_return", "    out = np.subtract(x, y)\n    np.tanh(out, out=out)\n    np.multiply(out, x, out=out)",
         "returned None", []),
        ("forgets_times_x", "    out = np.subtract(x, y)\n    np.tanh(out, out=out)\n    return out",
         "wrong values", []),
        ("temporary_then_out", "    t = x - y\n    out = np.tanh(t)\n    return np.multiply(out, x, out=out)",
         "allocated about 2 arrays", []),
    ],
}
