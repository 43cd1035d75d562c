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
]

_RIGHT = {"A": "same", "B": "no change", "C": "different", "D": "error", "E": "no change",
          "F": "same"}


def _predict(**changes):
    return "    return " + repr({**_RIGHT, **changes})


LOOP_PREDICTIONS = [
    ("order_does_not_matter", _predict(B="same", C="same", D="same", E="same"),
     "4 of 6", ["no change", "error"]),
    ("zero_grad_after_forward_breaks", _predict(A="no change"), "loop A", ["same"]),
    ("step_uses_last_gradient", _predict(E="different"), "loop E", ["no change"]),
    ("loss_recomputed", _predict(D="different"), "loop D", ["error"]),
    ("not_a_choice", _predict(B="trains"), "not one of the choices", []),
]

WRONG = {
    "nb03_sgd_step": SGD_STEP,
    "nb03_loop_predictions": LOOP_PREDICTIONS,
}
