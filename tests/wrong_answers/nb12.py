"""Typical wrong answers for the exercises of notebook 12 (see tests/wrong_answers/__init__.py)."""

_EVAL_LOOP = """\
    total_loss, correct, count = 0.0, 0, 0
    for xb, yb in loader:
        out = model(xb)
        total_loss += loss_fn(out, yb).item() * len(yb)
        correct += (out.argmax(dim=1) == yb).sum().item()
        count += len(yb)
"""


def _eval(before, loop, after, ret="    return total_loss / count, correct / count"):
    return before + loop + after + ret


def _indent(code, spaces=4):
    return "\n".join(" " * spaces + line if line else line for line in code.split("\n"))


_NO_GRAD_LOOP = "    with torch.no_grad():\n" + _indent(_EVAL_LOOP.rstrip("\n")) + "\n"

WRONG = {
    "nb12_standardize": [
        ("own_statistics",
         "    return (x - x.mean(axis=0)) / np.where(x.std(axis=0) > 0, x.std(axis=0), 1.0)",
         "standard deviation of x itself", ["x_train.mean", "x_train.std"]),
        ("not_scaled", "    return x - x_train.mean(axis=0)", "centred but not scaled", []),
        ("zero_std_not_handled", "    return (x - x_train.mean(axis=0)) / x_train.std(axis=0)",
         "standard deviation is 0", ["np.where"]),
        ("tiny_epsilon", "    return (x - x_train.mean(axis=0)) / (x_train.std(axis=0) + 1e-8)",
         "tiny number added", ["np.where"]),
        ("all_data_statistics",
         ("    both = np.concatenate([x_train, x])\n"
          "    std = both.std(axis=0)\n"
          "    return (x - both.mean(axis=0)) / np.where(std > 0, std, 1.0)"),
         "x_train and x together", []),
    ],
    "nb12_evaluate": [
        ("no_eval", _eval("", _NO_GRAD_LOOP, ""), "still in training mode", ["model.eval()"]),
        ("no_no_grad", _eval("    model.eval()\n", _EVAL_LOOP, "    model.train()\n"),
         "still recording", ["no_grad"]),
        ("not_restored", _eval("    model.eval()\n", _NO_GRAD_LOOP, ""),
         "left in evaluation mode", ["model.train()"]),
        ("always_train", _eval("    model.eval()\n", _NO_GRAD_LOOP, "    model.train()\n"),
         "was in evaluation mode before", ["training = model.training", "train(was"]),
        ("mean_of_batch_means",
         ("    model.eval()\n"
          "    losses, accs = [], []\n"
          "    with torch.no_grad():\n"
          "        for xb, yb in loader:\n"
          "            out = model(xb)\n"
          "            losses.append(loss_fn(out, yb).item())\n"
          "            accs.append((out.argmax(dim=1) == yb).float().mean().item())\n"
          "    model.train()\n"
          "    return sum(losses) / len(losses), sum(accs) / len(accs)"),
         "last batch is smaller", []),
        ("percentage",
         _eval("    model.eval()\n", _NO_GRAD_LOOP, "    model.train()\n",
               "    return total_loss / count, 100 * correct / count"),
         "a percentage", []),
    ],
    "nb12_snapshot": [
        ("state_dict_itself", "    return model.state_dict()", "shares its memory", ["clone"]),
        ("shallow_dict_copy", "    return dict(model.state_dict())", "shares its memory", ["clone"]),
        ("detached_views",
         "    return {name: tensor.detach() for name, tensor in model.state_dict().items()}",
         "shares its memory", ["clone"]),
        ("parameters_only",
         "    return {name: p.detach().clone() for name, p in model.named_parameters()}",
         "buffers", []),
        ("the_model", "    return model", "the model itself", []),
    ],
}
