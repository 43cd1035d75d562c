"""``torch.einsum``: Einstein summation, built from ops minigrad already has.

``einsum("ij,jk->ik", a, b)`` names each dimension by a letter. A letter in two operands
but not in the output is summed over (a contraction); a letter in the output is kept.
As PyTorch does, the operands are combined two at a time: dimensions only one operand
needs are summed away first, then a pair is lined up as a batch of matrices,
``(batch, left, summed) @ (batch, summed, right)``, multiplied with ``bmm`` and viewed
back (PyTorch's node: ViewBackward0); a pair with nothing to sum is a broadcast multiply
(MulBackward0, as for ``outer``). A final ``permute`` orders the output's letters.

Supported: the forms learners write (matmul, batched matmul, transpose, trace, diagonal,
outer products, dot products, sums over any letters). Not supported: ``...`` (ellipsis),
and a letter repeated within an operand of more than two dimensions.
"""
import math


def einsum(equation, *operands):
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    equation = equation.replace(" ", "")
    if "." in equation:
        raise NotImplementedError("minigrad's einsum does not support '...' (ellipsis); "
                                  "name every dimension with a letter")
    lhs, arrow, output = equation.partition("->")
    inputs = lhs.split(",")
    if len(inputs) != len(operands):
        more = "more" if len(operands) > len(inputs) else "fewer"
        raise RuntimeError(f"einsum(): {more} operands were provided than specified in the equation")
    if not arrow:  # implicit output: the letters used once, in alphabetical order
        output = "".join(sorted(c for c in set(lhs) if c.isalpha() and lhs.count(c) == 1))
    for c in output:
        if output.count(c) > 1:
            raise RuntimeError(f"einsum(): output subscript {c} appears more than once in the output")
        if c not in lhs:
            raise RuntimeError(f"einsum(): output subscript {c} does not appear in the equation for any "
                               "input operand")

    terms = []
    for k, (letters, t) in enumerate(zip(inputs, operands)):
        if len(letters) != t.dim():
            raise RuntimeError(f"einsum(): the number of subscripts in the equation ({len(letters)}) does "
                               f"not match the number of dimensions ({t.dim()}) for operand {k} and no "
                               "ellipsis was given")
        letters, t = _diagonals(letters, t)
        others = set(output).union(*(inputs[:k] + inputs[k + 1:]))
        letters, t = _sum_out(letters, t, others)
        terms.append((letters, t))

    letters, t = terms[0]
    for k, (letters2, t2) in enumerate(terms[1:], 2):
        keep = set(output).union(*(lt for lt, _ in terms[k:]))
        if _pair_letters(letters2, letters, keep) == output:  # the other order needs no permute
            letters, t, letters2, t2 = letters2, t2, letters, t
        letters, t = _pair(letters, t, letters2, t2, keep)
    letters, t = _sum_out(letters, t, set(output))
    return t if letters == output else t.permute([letters.index(c) for c in output])


def _diagonals(letters, t):
    """``"ii"``: a letter twice in one operand means its diagonal."""
    if len(set(letters)) == len(letters):
        return letters, t
    if len(letters) != 2:
        raise NotImplementedError("minigrad's einsum takes a repeated letter only in a matrix ('ii')")
    return letters[0], t.diagonal()


def _sum_out(letters, t, needed):
    """Sum over the letters nothing else needs (each operand's own, before pairing)."""
    drop = [i for i, c in enumerate(letters) if c not in needed]
    if not drop:
        return letters, t
    return "".join(c for c in letters if c in needed), t.sum(drop)


def _pair_letters(la, lb, keep):
    """The letters of ``_pair(la, ..., lb, ..., keep)``'s result: batch + left + right."""
    return "".join([c for c in la if c in lb and c in keep] + [c for c in la if c not in lb]
                   + [c for c in lb if c not in la])


def _pair(la, a, lb, b, keep):
    """Combine two operands; the result's letters are batch + left + right."""
    size = {c: n for letters, x in ((la, a), (lb, b)) for c, n in zip(letters, x.shape)}
    for c in set(la) & set(lb):
        if a.shape[la.index(c)] != b.shape[lb.index(c)]:
            raise RuntimeError(f"einsum(): subscript {c} has size {b.shape[lb.index(c)]} for operand 1 "
                               f"which does not broadcast with previously seen size {a.shape[la.index(c)]}")
    batch = [c for c in la if c in lb and c in keep]
    summed = [c for c in la if c in lb and c not in keep]
    left = [c for c in la if c not in lb]
    right = [c for c in lb if c not in la]
    sizes = lambda letters: [size[c] for c in letters]  # noqa: E731
    if not summed:  # nothing to sum: line the letters up and multiply, broadcasting
        a = _arrange(la, a, batch + left).reshape(sizes(batch) + sizes(left) + [1] * len(right))
        b = _arrange(lb, b, batch + right).reshape(sizes(batch) + [1] * len(left) + sizes(right))
        return "".join(batch + left + right), a * b
    nb, nl, nk, nr = (math.prod(sizes(g)) for g in (batch, left, summed, right))
    a = _arrange(la, a, batch + left + summed).reshape(nb, nl, nk)
    b = _arrange(lb, b, batch + summed + right).reshape(nb, nk, nr)
    out = a.bmm(b).view(sizes(batch) + sizes(left) + sizes(right))
    return "".join(batch + left + right), out


def _arrange(letters, t, order):
    """``t`` with its dims in the order of the letters ``order`` (no node if already so)."""
    perm = [letters.index(c) for c in order]
    return t if perm == list(range(len(perm))) else t.permute(perm)

