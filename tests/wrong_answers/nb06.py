"""Typical wrong answers for the exercises of notebook 06 (see tests/wrong_answers/__init__.py)."""

WRONG = {
    "training_loop": [
        ("forgets_zero_grad",
         ("    for _ in range(steps):\n"
         "        loss = loss_fn(model(x), y)\n"
         "        loss.backward()\n"
         "        optimizer.step()\n"
         "        losses.append(loss.item())"),
         "gradients accumulate", ["zero_grad"]),
        ("forgets_step",
         ("    for _ in range(steps):\n"
         "        optimizer.zero_grad()\n"
         "        loss = loss_fn(model(x), y)\n"
         "        loss.backward()\n"
         "        losses.append(loss.item())"),
         "did not change", ["step()"]),
        ("zero_grad_between_backward_and_step",
         ("    for _ in range(steps):\n"
         "        loss = loss_fn(model(x), y)\n"
         "        loss.backward()\n"
         "        optimizer.zero_grad()\n"
         "        optimizer.step()\n"
         "        losses.append(loss.item())"),
         "did not change", []),
        ("one_step_only",
         ("    optimizer.zero_grad()\n"
         "    loss = loss_fn(model(x), y)\n"
         "    loss.backward()\n"
         "    optimizer.step()\n"
         "    losses.append(loss.item())"),
         "differ from the expected", []),
        ("records_only_the_last_loss",
         ("    for _ in range(steps):\n"
         "        optimizer.zero_grad()\n"
         "        loss = loss_fn(model(x), y)\n"
         "        loss.backward()\n"
         "        optimizer.step()\n"
         "    losses.append(loss.item())"),
         "one loss per step", []),
    ],
}
