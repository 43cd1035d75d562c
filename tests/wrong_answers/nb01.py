"""Typical wrong answers for the exercises of notebook 01 (see tests/wrong_answers/__init__.py)."""

WRONG = {
    "grad_by_hand": [
        ("dw_is_w", "    return w, 1.0", "cannot depend on w", []),
        ("swapped", "    return 1.0, x", "swapped", []),
        ("db_is_b", "    return x, b", "If b grows by 1", []),
        ("db_is_zero", "    return x, 0.0", "dy/db is wrong", []),
        ("returns_none", "    pass", "returned None", []),
    ],
}
