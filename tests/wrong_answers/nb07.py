"""Typical wrong answers for the exercises of notebook 07 (see tests/wrong_answers/__init__.py)."""

WRONG = {
    "nb07_accumulation": [
        ("forgets_to_divide",
         ("    optimizer.zero_grad()\n"
          "    for i, (xb, yb) in enumerate(loader):\n"
          "        loss = loss_fn(model(xb), yb)\n"
          "        loss.backward()\n"
          "        if (i + 1) % accum_steps == 0:\n"
          "            optimizer.step()\n"
          "            optimizer.zero_grad()"),
         "times too large", ["divide", "/ accum_steps"]),
        ("zero_grad_every_micro_batch",
         ("    for i, (xb, yb) in enumerate(loader):\n"
          "        optimizer.zero_grad()\n"
          "        loss = loss_fn(model(xb), yb) / accum_steps\n"
          "        loss.backward()\n"
          "        if (i + 1) % accum_steps == 0:\n"
          "            optimizer.step()"),
         "Only the last micro-batch", []),
        ("steps_every_micro_batch",
         ("    optimizer.zero_grad()\n"
          "    for i, (xb, yb) in enumerate(loader):\n"
          "        loss = loss_fn(model(xb), yb) / accum_steps\n"
          "        loss.backward()\n"
          "        optimizer.step()\n"
          "        if (i + 1) % accum_steps == 0:\n"
          "            optimizer.zero_grad()"),
         "after every micro-batch", []),
        ("never_zeroes",
         ("    for i, (xb, yb) in enumerate(loader):\n"
          "        loss = loss_fn(model(xb), yb) / accum_steps\n"
          "        loss.backward()\n"
          "        if (i + 1) % accum_steps == 0:\n"
          "            optimizer.step()"),
         "accumulate from one group to the next", ["zero_grad"]),
        ("zero_grad_before_step",
         ("    for i, (xb, yb) in enumerate(loader):\n"
          "        loss = loss_fn(model(xb), yb) / accum_steps\n"
          "        loss.backward()\n"
          "        if (i + 1) % accum_steps == 0:\n"
          "            optimizer.zero_grad()\n"
          "            optimizer.step()"),
         "did not change", []),
        ("steps_after_first_micro_batch",
         ("    optimizer.zero_grad()\n"
          "    for i, (xb, yb) in enumerate(loader):\n"
          "        loss = loss_fn(model(xb), yb) / accum_steps\n"
          "        loss.backward()\n"
          "        if i % accum_steps == 0:\n"
          "            optimizer.step()\n"
          "            optimizer.zero_grad()"),
         "one micro-batch too early", ["(i + 1)"]),
    ],
    "nb07_fixed_loop": [
        ("still_buggy",
         ("    for epoch in range(epochs):\n"
          "        for xb, yb in loader:\n"
          "            loss = loss_fn(model(xb), yb)\n"
          "            loss.backward()\n"
          "            optimizer.step()\n"
          "            losses.append(loss.item())"),
         "still the buggy loop", ["zero_grad"]),
        ("zero_grad_between_backward_and_step",
         ("    for epoch in range(epochs):\n"
          "        for xb, yb in loader:\n"
          "            loss = loss_fn(model(xb), yb)\n"
          "            loss.backward()\n"
          "            optimizer.zero_grad()\n"
          "            optimizer.step()\n"
          "            losses.append(loss.item())"),
         "did not change", []),
        ("zero_grad_once_per_epoch",
         ("    for epoch in range(epochs):\n"
          "        optimizer.zero_grad()\n"
          "        for xb, yb in loader:\n"
          "            loss = loss_fn(model(xb), yb)\n"
          "            loss.backward()\n"
          "            optimizer.step()\n"
          "            losses.append(loss.item())"),
         "once per epoch", []),
        ("loss_list_not_filled",
         ("    for epoch in range(epochs):\n"
          "        for xb, yb in loader:\n"
          "            optimizer.zero_grad()\n"
          "            loss = loss_fn(model(xb), yb)\n"
          "            loss.backward()\n"
          "            optimizer.step()"),
         "one loss per batch", []),
    ],
}
