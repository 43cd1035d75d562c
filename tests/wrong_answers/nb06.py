"""Typical wrong answers for the exercises of notebook 06 (see tests/wrong_answers/__init__.py)."""

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

TRAINING_LOOP = [
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
]

WRONG = {
    "nb06_sgd_step": SGD_STEP,
    "nb06_training_loop": TRAINING_LOOP,
}
