"""Typical wrong answers for the exercises of notebook 03 (see tests/wrong_answers/__init__.py)."""

SGD_STEP = [
    ("forgets_no_grad",
     ("    for p in params:\n"
      "        if p.grad is None:\n"
      "            continue\n"
      "        p -= lr * p.grad\n"
      "        p.grad = None"),
     "autograd refused the update", ["no_grad"]),
    ("rebinds_instead_of_in_place",
     ("    with torch.no_grad():\n"
      "        for p in params:\n"
      "            if p.grad is None:\n"
      "                continue\n"
      "            p = p - lr * p.grad"),
     "did not change", ["-=", "sub_"]),
    ("wrong_sign",
     ("    with torch.no_grad():\n"
      "        for p in params:\n"
      "            if p.grad is None:\n"
      "                continue\n"
      "            p += lr * p.grad\n"
      "            p.grad = None"),
     "uphill", ["-="]),
    ("forgets_to_clear",
     ("    with torch.no_grad():\n"
      "        for p in params:\n"
      "            if p.grad is None:\n"
      "                continue\n"
      "            p -= lr * p.grad"),
     "gradients are still there", []),
    ("data_trick",
     ("    for p in params:\n"
      "        if p.grad is None:\n"
      "            continue\n"
      "        p.data -= lr * p.grad\n"
      "        p.grad = None"),
     "version counter", ["no_grad"]),
    ("clears_before_the_update",
     ("    with torch.no_grad():\n"
      "        for p in params:\n"
      "            if p.grad is None:\n"
      "                continue\n"
      "            p.grad = None\n"
      "            p -= lr * p.grad"),
     "before the update read it", ["-="]),
]

_RIGHT = {"A": "same", "B": "no change", "C": "different", "D": "error", "E": "no change",
          "F": "same"}
_W_AFTER_C = -0.008


def _predict(w=_W_AFTER_C, **changes):
    return "    return " + repr({**_RIGHT, **changes}) + ", " + repr(w)


# The check neither counts the wrong outcomes nor names the loop: no hint may say "loop X".
_NO_LETTERS = [f"loop {k}" for k in "ABCDEF"]

LOOP_PREDICTIONS = [
    ("order_does_not_matter", _predict(B="same", C="same", D="same", E="same"),
     "not every loop outcome is right", _NO_LETTERS + ["4 of 6"]),
    ("zero_grad_after_forward_breaks", _predict(A="no change"),
     "not every loop outcome is right", _NO_LETTERS + ["1 of 6"]),
    ("loss_recomputed", _predict(D="different"), "count the forward passes", _NO_LETTERS),
    ("w_as_with_the_five_lines", _predict(w=0.512), "where the five lines put w",
     ["-0.008", "4.48", "3.6"]),
    ("only_the_dict", "    return " + repr(_RIGHT), "only the dict", []),
]

WRONG = {
    "nb03_sgd_step": SGD_STEP,
    "nb03_loop_predictions": LOOP_PREDICTIONS,
}
