"""Typical wrong answers for the exercises of notebook 05 (see tests/wrong_answers/__init__.py)."""

_ZERO = """\
    for p in model.parameters():
        p.grad = 0.0
"""


def _step(zero=_ZERO, update="p.data -= lr * p.grad", order="backward_first", ret="loss.data",
          back="    engine(loss)\n"):
    """A train_step with one typical mistake."""
    forward = "    loss = mse(model, xs, ys)\n"
    move = f"    for p in model.parameters():\n        {update}\n"
    body = forward + back + move if order == "backward_first" else forward + move + back
    return zero + body + f"    return {ret}"


_FORBID_STEP = ["grad = 0", "-= lr", "lr * p.grad"]

WRONG = {
    "nb05_value_tanh": [
        ("input_not_output",
         "    t = math.tanh(v.data)\n    x = v.data\n    return Value(t, (v,), lambda g: (g * (1 - x ** 2),), 'tanh')",
         "output", ["1 - t"]),
        ("ignores_incoming_gradient",
         "    t = math.tanh(v.data)\n    return Value(t, (v,), lambda g: (1 - t ** 2,), 'tanh')",
         "incoming gradient", ["1 - t"]),
        ("no_tuple",
         "    t = math.tanh(v.data)\n    return Value(t, (v,), lambda g: g * (1 - t ** 2), 'tanh')",
         "one gradient per", []),
        ("no_parents",
         "    t = math.tanh(v.data)\n    return Value(t, (), lambda g: (g * (1 - t ** 2),), 'tanh')",
         "parents", []),
        ("wrong_sign",
         "    t = math.tanh(v.data)\n    return Value(t, (v,), lambda g: (g * (1 + t ** 2),), 'tanh')",
         "sign", ["1 - t"]),
    ],
    "nb05_backward_order": [
        ("recursive",
         ("    order, visited = [], set()\n"
         "    def visit(v):\n"
         "        if v not in visited:\n"
         "            visited.add(v)\n"
         "            for p in v.parents:\n"
         "                visit(p)\n"
         "            order.append(v)\n"
         "    visit(root)\n"
         "    return order[::-1]"),
         "recursion", []),
        ("breadth_first",
         ("    order, seen, queue = [], {root}, [root]\n"
         "    while queue:\n"
         "        v = queue.pop(0)\n"
         "        order.append(v)\n"
         "        for p in v.parents:\n"
         "            if p not in seen:\n"
         "                seen.add(p)\n"
         "                queue.append(p)\n"
         "    return order"),
         "computed from it", []),
        ("preorder_stack",
         ("    order, seen, stack = [], set(), [root]\n"
         "    while stack:\n"
         "        v = stack.pop()\n"
         "        if v in seen:\n"
         "            continue\n"
         "        seen.add(v)\n"
         "        order.append(v)\n"
         "        stack.extend(v.parents)\n"
         "    return order"),
         "computed from it", []),
        ("no_visited_set",
         ("    order, stack = [], [(root, False)]\n"
         "    while stack:\n"
         "        v, done = stack.pop()\n"
         "        if done:\n"
         "            order.append(v)\n"
         "        else:\n"
         "            stack.append((v, True))\n"
         "            stack.extend((p, False) for p in v.parents)\n"
         "    return order[::-1]"),
         "more than once", []),
        ("leaves_first",
         ("    order, seen, stack = [], set(), [(root, False)]\n"
         "    while stack:\n"
         "        v, done = stack.pop()\n"
         "        if done:\n"
         "            order.append(v)\n"
         "        elif v not in seen:\n"
         "            seen.add(v)\n"
         "            stack.append((v, True))\n"
         "            stack.extend((p, False) for p in v.parents if p not in seen)\n"
         "    return order"),
         "reversed", []),
        ("counts_distinct_users",
         ("    pending, seen, stack = {}, {root}, [root]\n"
         "    while stack:\n"
         "        for p in set(stack.pop().parents):\n"
         "            pending[p] = pending.get(p, 0) + 1\n"
         "            if p not in seen:\n"
         "                seen.add(p)\n"
         "                stack.append(p)\n"
         "    order, ready = [], [root]\n"
         "    while ready:\n"
         "        v = ready.pop()\n"
         "        order.append(v)\n"
         "        for p in v.parents:\n"
         "            pending[p] -= 1\n"
         "            if pending[p] == 0:\n"
         "                ready.append(p)\n"
         "    return order"),
         "computed from it", []),
    ],
    "nb05_backward": [
        ("assign_not_add",
         ("    root.grad = 1.0\n"
         "    for node in backward_order(root):\n"
         "        if node.backward_fn is None:\n"
         "            continue\n"
         "        for parent, g in zip(node.parents, node.backward_fn(node.grad)):\n"
         "            parent.grad = g"),
         "used more than once", ["+="]),
        ("no_seed",
         ("    for node in backward_order(root):\n"
         "        if node.backward_fn is None:\n"
         "            continue\n"
         "        for parent, g in zip(node.parents, node.backward_fn(node.grad)):\n"
         "            parent.grad += g"),
         "d(root)/d(root)", ["1.0", "= 1"]),
        ("naive_recursion",
         ("    root.grad = 1.0\n"
         "    def push(node):\n"
         "        if node.backward_fn is None:\n"
         "            return\n"
         "        for parent, g in zip(node.parents, node.backward_fn(node.grad)):\n"
         "            parent.grad += g\n"
         "            push(parent)\n"
         "    push(root)"),
         "before all its gradients", []),
        ("local_derivative_only",
         ("    root.grad = 1.0\n"
         "    for node in backward_order(root):\n"
         "        if node.backward_fn is None:\n"
         "            continue\n"
         "        for parent, g in zip(node.parents, node.backward_fn(1.0)):\n"
         "            parent.grad += g"),
         "incoming", []),
        ("returns_dict",
         ("    grads = {root: 1.0}\n"
         "    for node in backward_order(root):\n"
         "        if node.backward_fn is None:\n"
         "            continue\n"
         "        for parent, g in zip(node.parents, node.backward_fn(grads.get(node, 0.0))):\n"
         "            grads[parent] = grads.get(parent, 0.0) + g\n"
         "    return grads"),
         "returned a dict", ["Nothing was sent"]),
        ("assigns_to_intermediate_values",
         ("    root.grad = 1.0\n"
         "    for node in backward_order(root):\n"
         "        if node.backward_fn is None:\n"
         "            continue\n"
         "        for parent, g in zip(node.parents, node.backward_fn(node.grad)):\n"
         "            if parent.backward_fn is None:\n"
         "                parent.grad += g\n"
         "            else:\n"
         "                parent.grad = g"),
         "a is used more than once", ["+="]),
        ("leaves_first",
         ("    root.grad = 1.0\n"
         "    for node in reversed(backward_order(root)):\n"
         "        if node.backward_fn is None:\n"
         "            continue\n"
         "        for parent, g in zip(node.parents, node.backward_fn(node.grad)):\n"
         "            parent.grad += g"),
         "order", []),
    ],
    "nb05_train_step": [
        ("no_zero_grad", _step(zero=""), "earlier steps", _FORBID_STEP),
        ("plus", _step(update="p.data += lr * p.grad"), "loss grows", _FORBID_STEP),
        ("update_before_backward", _step(order="update_first"), "never changes", _FORBID_STEP),
        ("stale_gradients", _step(zero="", order="update_first"), "before backward", _FORBID_STEP),
        ("ignores_lr", _step(update="p.data -= p.grad"), "learning rate", _FORBID_STEP),
        ("loss_after_update", _step(ret="mse(model, xs, ys).data"), "after the update",
         _FORBID_STEP),
        ("backward_twice", _step(back="    engine(loss)\n    engine(loss)\n"),
         "differ from autograd's gradients", _FORBID_STEP),
    ],
}
