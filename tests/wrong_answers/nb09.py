"""Typical wrong answers for the exercises of notebook 09 (see tests/wrong_answers/__init__.py)."""


def _evaluate(eval_line="model.eval()", grad_block="with torch.no_grad():",
              train_line="model.train(was_training)", loss_term="loss_fn(out, yb).item() * len(yb)",
              result="total_loss / count, correct / count"):
    inner = ["out = model(xb)", f"total_loss += {loss_term}",
             "correct += (out.argmax(dim=1) == yb).sum().item()", "count += len(yb)"]
    lines = ["was_training = model.training", eval_line, "total_loss, correct, count = 0.0, 0, 0"]
    if grad_block:
        lines += [grad_block, "    for xb, yb in loader:"] + ["        " + s for s in inner]
    else:
        lines += ["for xb, yb in loader:"] + ["    " + s for s in inner]
    lines += [train_line, f"return {result}"]
    return "\n".join("    " + line for line in lines if line)


_MEAN_OF_BATCH_MEANS = """\
    was_training = model.training
    model.eval()
    batch_losses, correct = [], 0
    with torch.no_grad():
        for xb, yb in loader:
            out = model(xb)
            batch_losses.append(loss_fn(out, yb).item())
            correct += (out.argmax(dim=1) == yb).sum().item()
    model.train(was_training)
    return sum(batch_losses) / len(batch_losses), correct / len(loader.dataset)"""


_RIGHT = {"A": ("works", [1.0, 1.0, 1.0]), "B": ("error", "saved for backward"),
          "C": ("error", "changed in place"), "D": ("works", [6.0, 1.5, 3.0]), "E": ("works", 3.5)}


def _predict(**changes):
    answers = {**_RIGHT, **changes}
    return "    return " + repr(answers)


WRONG = {
    "nb09_fixed_evaluate": [
        ("usual_pattern", _evaluate(train_line="model.train()"), "mode it was in", ["was_training"]),
        ("mean_of_batch_means", _MEAN_OF_BATCH_MEANS, "last batch is smaller", []),
        ("eval_only", _evaluate(grad_block=""), "recorded a graph", ["no_grad"]),
        ("no_grad_only", _evaluate(eval_line=""), "training mode while", ["eval()"]),
        ("never_back", _evaluate(train_line=""), "still in evaluation mode", ["train("]),
        ("sum_of_means_per_sample", _evaluate(loss_term="loss_fn(out, yb).item()"),
         "already a mean", ["* len(yb)", "multiply"]),
        ("grad_mode_left_off", _evaluate(grad_block="torch.set_grad_enabled(False)\n    if True:"),
         "recording is still off", ["set_grad_enabled(True)", "no_grad"]),
        ("tensor_sum_no_grad_mode", _evaluate(grad_block="", eval_line="",
                                              loss_term="loss_fn(out, yb) * len(yb)"),
         "grad_fn", ["no_grad", "eval()"]),
    ],
    "nb09_inference_predictions": [
        ("every_use_fails", _predict(A=("error", "saved for backward"), C=("error", "saved for backward"),
                                     D=("error", "saved for backward"), E=("error", "saved for backward")),
         "Not all 5 answers are right", ["addition does not", "snippet", "4 of"]),
        ("only_saving_fails", _predict(C=("works", [12.0, 3.0, 6.0])),
         "What is the other?", ["in place", "mul_", "snippet", "1 of"]),
        ("clone_stays_inference", _predict(D=("error", "saved for backward")),
         "what kind of tensor", ["normal tensor", "ordinary", "snippet", "1 of"]),
        ("set_up_not_read", _predict(D=("works", [2.0, 0.5, 1.0]), E=("works", 7 / 6)),
         "Not all 5 answers are right", ["6.0", "3.5", "snippet", "2 of"]),
        ("letters_only", """\
    return {"A": "works", "B": "error", "C": "error", "D": "works", "E": "works"}""",
         "is not a pair", []),
    ],
}
