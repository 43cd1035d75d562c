"""Typical wrong answers for the exercises of notebook 11 (see tests/wrong_answers/__init__.py)."""

_LOOP = "    h = x\n    for block in blocks:\n"

WRONG = {
    "nb11_saved_by_g": [
        ("each_tensor_once", "    return 3 * n * 4", "packed twice", ["5 *", "five"]),
        ("elements_not_bytes", "    return 5 * n", "bytes, not elements", []),
        ("inputs_left_out", "    return 2 * n * 4", "leaves included", ["5 *", "five"]),
        ("sigmoid_saves_nothing", "    return 4 * n * 4", "node by node", ["5 *", "five"]),
        ("constant", "    return 20_000", "does not grow with n", []),
    ],
    "nb11_checkpointed": [
        ("no_checkpoint", _LOOP + "        h = block(h)\n    return h", "as much as without checkpoint", []),
        ("no_use_reentrant", _LOOP + "        h = checkpoint(block, h)\n    return h", "use_reentrant", []),
        ("reentrant", _LOOP + "        h = checkpoint(block, h, use_reentrant=True)\n    return h",
         "reentrant variant", []),
        ("first_block_only",
         "    h = checkpoint(blocks[0], x, use_reentrant=False)\n    for block in blocks[1:]:\n"
         "        h = block(h)\n    return h", "not every block", []),
        ("under_no_grad", _LOOP + "        with torch.no_grad():\n            h = block(h)\n    return h",
         "no grad_fn", []),
    ],
    "nb11_div_rule": [
        ("sign_of_b", "    return g / b, g * a / (b * b)", "its sign is wrong", ["-g", "b * b", "b ** 2"]),
        ("no_square", "    return g / b, -g * a / b", "not -1 / b", ["b * b", "b ** 2"]),
        ("forgets_g", "    return 1 / b, -a / (b * b)", "do not depend on g", ["b * b", "b ** 2"]),
        ("swapped", "    return -g * a / (b * b), g / b", "swapped", []),
        ("product_rule", "    return g * b, g * a", "rule of a product", ["b * b", "b ** 2"]),
    ],
}
