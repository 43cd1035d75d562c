"""Typical wrong answers for the exercises of notebook 10 (see tests/wrong_answers/__init__.py)."""

_RIGHT = {"A": ("not scalar", 3), "B": ("inplace", 4), "C": ("no grad_fn", 4),
          "D": ("second backward", 5), "E": ("leaf inplace", 4), "F": ("no error", [2.0, 2.0, 2.0])}


def _predict(**changes):
    answers = {**_RIGHT, **changes}
    return "    return " + repr(answers)


WRONG = {
    "nb10_error_predictions": [
        ("inplace_always_fails", _predict(F=("inplace", 4)), "Not all 6 answers are right",
         ["no error", "snippet", "1 of"]),
        ("raised_where_changed", _predict(B=("inplace", 3)), "the line: a saved tensor's version", ["snippet", "line 4", "1 of"]),
        ("no_grad_loss_ok", _predict(C=("no error", [2.0, -4.0, 1.0]), D=("no error", [2.0, -4.0, 1.0])),
         "Not all 6 answers are right", ["no grad_fn", "snippet", "2 of"]),
        ("add_changes_the_gradient", _predict(F=("no error", [3.0, 3.0, 3.0])), "how much the summed result moves",
         ["2.0", "snippet", "1 of"]),
        ("letters_only", """\
    return {"A": "not scalar", "B": "inplace", "C": "no grad_fn", "D": "second backward",
            "E": "leaf inplace", "F": "no error"}""", "is not a pair", []),
    ],
    "nb10_fixed_train": [
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
        ("eval_removed", """\
    (x, y), (x_val, y_val) = data, val_data
    losses, val_losses = [], []
    for step in range(steps):
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
        if step % 10 == 9:
            with torch.no_grad():
                val_losses.append(loss_fn(model(x_val), y_val).item())
    return losses, val_losses""", "validation passes ran in training mode", ["model.eval()"]),
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
