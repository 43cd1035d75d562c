"""Typical wrong answers for the exercises of notebook 08 (see tests/wrong_answers/__init__.py)."""


def _stream(first="", backward="loss.backward()", new_h="h = torch.tanh(W @ h + U @ x)",
            zero_grad="optimizer.zero_grad()"):
    lines = [
        "optimizer = optim.SGD([W, U], lr=lr)",
        "h = torch.zeros(W.shape[0])",
        "losses = []",
        "for x, target in zip(xs, targets):",
    ]
    body = [first, zero_grad, new_h, "loss = ((h - target) ** 2).sum()", backward,
            "optimizer.step()", "losses.append(loss.item())"]
    lines += ["    " + line for line in body if line]
    lines.append("return losses")
    return "\n".join("    " + line for line in lines)


def _frozen(freeze="net2.requires_grad_(False)", params="net1.parameters()",
            loss2="F.mse_loss(net2(h), y2)", zero_grad="optimizer.zero_grad()",
            mode="net2.eval()"):
    lines = [mode, freeze, f"optimizer = optim.SGD({params}, lr=lr)", "losses = []",
             "for _ in range(steps):"]
    body = [zero_grad, "h = net1(x)", f"loss = F.mse_loss(h, y1) + {loss2}", "loss.backward()",
            "optimizer.step()", "losses.append(loss.item())"]
    lines = [line for line in lines if line] + ["    " + line for line in body if line]
    lines.append("return losses")
    return "\n".join("    " + line for line in lines)


WRONG = {
    "nb08_stream_loop": [
        ("unchanged", _stream(), "graph a second time", ["detach"]),
        ("retain_graph", _stream(backward="loss.backward(retain_graph=True)"), "retain_graph=True",
         ["detach"]),
        ("reset_state", _stream(first="h = torch.zeros(W.shape[0])"), "starts every step from h = 0",
         ["detach"]),
        ("detach_too_late", _stream(new_h="h = torch.tanh(W @ h + U @ x).detach()"),
         "does not require grad", ["detach"]),
        ("no_zero_grad", _stream(first="h = h.detach()", zero_grad=""), "accumulate", []),
    ],
    "nb08_frozen_net2": [
        ("detach_h", _frozen(loss2="F.mse_loss(net2(h.detach()), y2)"), "loss1 only",
         ["requires_grad_"]),
        ("optimizer_only", _frozen(freeze=""), "have a .grad", ["requires_grad_(False)"]),
        ("grads_cleared_after_each_step", _frozen(freeze="").replace(
            "        losses.append(loss.item())",
            "        losses.append(loss.item())\n        net2.zero_grad()"),
         "cleared afterwards", ["requires_grad_(False)"]),
        ("all_params_trained",
         _frozen(freeze="", params="list(net1.parameters()) + list(net2.parameters())"),
         "weights changed", ["requires_grad_"]),
        ("no_grad_net2", "    from minigrad import no_grad\n" + _frozen(
            loss2="F.mse_loss(net2_out, y2)").replace(
            "        loss = ", "        with no_grad():\n            net2_out = net2(h)\n        loss = "),
         "loss1 only", ["requires_grad_"]),
        ("no_zero_grad", _frozen(zero_grad=""), "accumulate", []),
        ("no_eval", _frozen(mode=""), "still in training mode", ["eval()"]),
        ("eval_both", _frozen(mode="net2.eval()\n    net1.eval()"), "only net2", []),
        ("frozen_but_dropout_on", _frozen(mode="net2.train()"), "still in training mode",
         ["eval()"]),
    ],
}
