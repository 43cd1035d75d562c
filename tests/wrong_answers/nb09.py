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


_RIGHT = {"A": "not scalar", "B": "inplace", "C": "no grad_fn", "D": "second backward",
          "E": "leaf inplace", "F": "no error"}


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
        ("tensor_sum_no_grad_mode", _evaluate(grad_block="", eval_line="",
                                              loss_term="loss_fn(out, yb) * len(yb)"),
         "grad_fn", ["no_grad", "eval()"]),
    ],
    "nb09_error_predictions": [
        ("inplace_always_fails", _predict(F="inplace"), "snippet F", ["no error"]),
        ("manual_update_ok", _predict(E="no error"), "snippet E", ["leaf inplace"]),
        ("no_grad_loss_ok", _predict(C="no error", D="no error"), "2 of 6", ["no grad_fn"]),
        ("not_a_choice", _predict(A="error"), "not one of the choices", []),
        ("missing_key", "    return {'A': 'not scalar', 'B': 'inplace'}", "no answer for snippet", []),
    ],
    "nb09_inference_predictions": [
        ("every_use_fails", """\
    return {"A": "error", "B": "error", "C": "error", "D": "error", "E": "error"}""",
         "saved for backward", ["addition does not"]),
        ("only_backward_matters", """\
    return {"A": "error", "B": "error", "C": "no error", "D": "no error", "E": "no error"}""",
         "besides", ["in place", "mul_"]),
        ("clone_stays_inference", """\
    return {"A": "no error", "B": "error", "C": "error", "D": "error", "E": "no error"}""",
         "what kind of tensor", ["normal tensor"]),
        ("nothing_fails_outside", """\
    return {"A": "no error", "B": "no error", "C": "no error", "D": "no error", "E": "no error"}""",
         "2 of 5 predictions", []),
    ],
    "nb09_fixed_train": [
        ("as_given", """\
    (x, y), (x_val, y_val) = data, val_data
    losses, val_losses = [], []
    for step in range(steps):
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        losses.append(loss)
        if step % 10 == 9:
            model.eval()
            with torch.no_grad():
                val_losses.append(loss_fn(model(x_val), y_val).item())
    return losses, val_losses""", "evaluation mode", ["model.train()"]),
        ("mode_fixed_only", """\
    (x, y), (x_val, y_val) = data, val_data
    losses, val_losses = [], []
    for step in range(steps):
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        losses.append(loss)
        if step % 10 == 9:
            model.eval()
            with torch.no_grad():
                val_losses.append(loss_fn(model(x_val), y_val).item())
            model.train()
    return losses, val_losses""", "grad_fn", [".item()"]),
        ("losses_fixed_only", """\
    (x, y), (x_val, y_val) = data, val_data
    losses, val_losses = [], []
    for step in range(steps):
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
        if step % 10 == 9:
            model.eval()
            with torch.no_grad():
                val_losses.append(loss_fn(model(x_val), y_val).item())
    return losses, val_losses""", "evaluation mode", ["model.train()"]),
        ("validation_records", """\
    (x, y), (x_val, y_val) = data, val_data
    losses, val_losses = [], []
    for step in range(steps):
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
        if step % 10 == 9:
            model.eval()
            val_losses.append(loss_fn(model(x_val), y_val).item())
            model.train()
    return losses, val_losses""", "recorded a graph", ["no_grad"]),
    ],
}
