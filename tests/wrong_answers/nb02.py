"""Typical wrong answers for the exercises of notebook 02 (see tests/wrong_answers/__init__.py)."""

WRONG = {
    "nb02_print_graph": [
        ("skips_none", """\
    if node is None:
        return
    print("  " * depth + type(node).__name__)
    for child, _ in node.next_functions:
        my_print_graph(child, depth + 1)""", "None lines are missing", ["is None:"]),
        ("same_depth", """\
    print("  " * depth + ("None" if node is None else type(node).__name__))
    if node is not None:
        for child, _ in node.next_functions:
            my_print_graph(child, depth)""", "same indentation", ["depth + 1"]),
        ("stops_after_the_first_input", """\
    print("  " * depth + ("None" if node is None else type(node).__name__))
    if node is not None:
        for child, _ in node.next_functions:
            return my_print_graph(child, depth + 1)""", "does your loop stop early", []),
        ("skips_seen_nodes", """\
    seen = my_print_graph.__dict__.setdefault("seen", set())
    if node is not None and node in seen:
        return
    seen.add(node)
    print("  " * depth + ("None" if node is None else type(node).__name__))
    if node is not None:
        for child, _ in node.next_functions:
            my_print_graph(child, depth + 1)""", "do not skip nodes", []),
        ("pairs_as_nodes", """\
    print("  " * depth + ("None" if node is None else type(node).__name__))
    if node is not None:
        for child in node.next_functions:
            my_print_graph(child, depth + 1)""", "pair (node, number)", ["child, _"]),
    ],
    "nb02_leaves_of": [
        ("duplicates", """\
    leaves = []
    to_visit = [tensor.grad_fn]
    while to_visit:
        node = to_visit.pop()
        if node is None:
            continue
        if type(node).__name__ == "AccumulateGrad":
            leaves.append(node.variable)
        to_visit.extend(child for child, _ in node.next_functions)
    return leaves""", "more than once", ["set()"]),
        ("returns_nodes", """\
    leaves, seen = [], set()
    to_visit = [tensor.grad_fn]
    while to_visit:
        node = to_visit.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        if type(node).__name__ == "AccumulateGrad":
            leaves.append(node)
        to_visit.extend(child for child, _ in node.next_functions)
    return leaves""", "AccumulateGrad nodes", [".variable"]),
        ("one_level_only", """\
    return [child.variable for child, _ in tensor.grad_fn.next_functions
            if type(child).__name__ == "AccumulateGrad"]""", "of the 2 leaves", []),
        ("collects_none", """\
    leaves, seen = [], set()
    to_visit = [tensor.grad_fn]
    while to_visit:
        node = to_visit.pop()
        if node in seen:
            continue
        seen.add(node)
        if node is None:
            leaves.append(None)
        elif type(node).__name__ == "AccumulateGrad":
            leaves.append(node.variable)
        else:
            to_visit.extend(child for child, _ in node.next_functions)
    return leaves""", "holds None", []),
        ("no_return", """\
    leaves = set()""", "returned None", []),
    ],
    "nb02_layer_output_grads": [
        ("no_retain", """\
    outputs, h = [], x
    for layer in model:
        h = layer(h)
        outputs.append(h)
    loss_fn(h, y).backward()
    return [o.grad for o in outputs]""", "is None", ["retain_grad"]),
        ("retain_after_backward", """\
    outputs, h = [], x
    for layer in model:
        h = layer(h)
        outputs.append(h)
    loss_fn(h, y).backward()
    for o in outputs:
        o.retain_grad()
    return [o.grad for o in outputs]""", "before backward runs", ["retain_grad"]),
        ("parameter_grads", """\
    loss_fn(model(x), y).backward()
    return [p.grad for p in model.parameters()]""", "not one per parameter", ["retain_grad"]),
        ("outputs_not_grads", """\
    outputs, h = [], x
    for layer in model:
        h = layer(h)
        h.retain_grad()
        outputs.append(h)
    loss_fn(h, y).backward()
    return outputs""", "output itself", ["retain_grad"]),
        ("second_forward", """\
    outputs, h = [], x
    for layer in model:
        h = layer(h)
        h.retain_grad()
        outputs.append(h)
    loss_fn(model(x), y).backward()
    return [o.grad for o in outputs]""", "is None", ["retain_grad"]),
    ],
    "nb02_predict_gradients": [
        ("one_path_for_a", """\
    return {"e": 1.0, "d": 16.0, "c": 16.0, "a": 48.0, "b": 32.0}""", "used twice", ["64"]),
        ("local_derivatives", """\
    return {"e": 1.0, "d": 16.0, "c": 1.0, "a": 4.0, "b": 2.0}""", "local derivative", ["16", "64"]),
        ("d_not_evaluated", """\
    return {"e": 1.0, "d": 2.0, "c": 2.0, "a": 8.0, "b": 4.0}""", "evaluate it", ["16"]),
        ("seed_zero", """\
    return {"e": 0.0, "d": 0.0, "c": 0.0, "a": 0.0, "b": 0.0}""", "with respect to itself", ["1.0"]),
        ("forward_values", """\
    return {"e": 64.0, "d": 8.0, "c": 6.0, "a": 2.0, "b": 3.0}""", "with respect to itself", ["16"]),
        ("swapped_a_b", """\
    return {"e": 1.0, "d": 16.0, "c": 16.0, "a": 32.0, "b": 64.0}""", "walk down the drawing", ["32"]),
    ],
}
