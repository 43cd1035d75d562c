"""Typical wrong answers for the exercises of notebook 01 (see tests/wrong_answers/__init__.py)."""

WRONG = {
    "nb01_line_grads": [
        ("dw_dx_swapped", "    return w, x, 1.0", "swapped", []),
        ("dw_is_w", "    return w, w, 1.0", "cannot depend on w", []),
        ("dx_is_zero", "    return x, 0.0, 1.0", "does not require grad", ["= w", "equals w"]),
        ("dx_is_none", "    return x, None, 1.0", "still exists", ["= w", "equals w"]),
        ("db_is_b", "    return x, w, b", "If b grows by 1", []),
        ("only_two", "    return x, 1.0", "3 numbers", []),
    ],
    "nb01_squared_error_grads": [
        ("grads_of_y", "    return x, 1.0", "not of L", []),
        ("half", "    error = w * x + b - t\n    return error * x, error", "exactly half", ["2 *"]),
        ("wrong_sign", "    error = t - (w * x + b)\n    return 2 * error * x, 2 * error",
         "wrong sign", []),
        ("no_inner_factor", "    error = w * x + b - t\n    return 2 * error, 2 * error",
         "one more factor", ["* x"]),
        ("ignores_target", "    y = w * x + b\n    return 2 * y * x, 2 * y", "target t", []),
        ("calls_backward",
         ("    wt = torch.tensor(w, dtype=torch.float64, requires_grad=True)\n"
          "    bt = torch.tensor(b, dtype=torch.float64, requires_grad=True)\n"
          "    ((wt * x + bt - t) ** 2).backward()\n"
          "    return wt.grad.item(), bt.grad.item()"),
         "ran a backward pass", []),
        ("calls_autograd_grad",
         ("    wt = torch.tensor(w, dtype=torch.float64, requires_grad=True)\n"
          "    bt = torch.tensor(b, dtype=torch.float64, requires_grad=True)\n"
          "    gw, gb = torch.autograd.grad((wt * x + bt - t) ** 2, (wt, bt))\n"
          "    return gw.item(), gb.item()"),
         "ran a backward pass", []),
    ],
    "nb01_numerical_grad": [
        ("no_division", "    return f(x + h) - f(x)", "h times the slope", ["/ h"]),
        ("parentheses", "    return f(x + h) - f(x) / h", "parentheses", []),
        ("central_over_h", "    return (f(x + h) - f(x - h)) / h", "twice the slope", ["2 * h"]),
        ("wrong_sign", "    return (f(x) - f(x + h)) / h", "wrong sign", []),
        ("own_step", "    return (f(x + 0.1) - f(x)) / 0.1", "use the step h", []),
    ],
}
