"""Typical wrong answers for the exercises of notebook 00 (see tests/wrong_answers/__init__.py)."""

WRONG = {
    "nb00_make_weight": [
        ("no_requires_grad", "    return torch.tensor(float(value))", "does not require grad",
         ["requires_grad=True"]),
        ("int_stays_int", "    return torch.tensor(value, requires_grad=True)", "integer dtype",
         ["float(value)"]),
        ("a_list", "    return torch.tensor([float(value)], requires_grad=True)",
         "0-dimensional", []),
        ("float64", "    return torch.tensor(float(value), dtype=torch.float64, requires_grad=True)",
         "torch.float32", []),
        ("not_a_leaf", "    return torch.tensor(1.0, requires_grad=True) * value", "not a leaf", []),
    ],
    "nb00_length": [
        ("math_sqrt", "    import math\n    return math.sqrt(a ** 2 + b ** 2)", "plain Python",
         ["torch.sqrt"]),
        ("via_item", "    import math\n    return torch.tensor(math.sqrt(a.item() ** 2 + b.item() ** 2))",
         "not connected to the graph", ["torch.sqrt"]),
        ("b_detached", "    return torch.sqrt(a ** 2 + b.detach() ** 2)", "not connected to b", []),
        ("no_square_root", "    return a ** 2 + b ** 2", "not the length", []),
        ("float64", "    return torch.sqrt(a.double() ** 2 + b.double() ** 2)", "float32", []),
    ],
}
