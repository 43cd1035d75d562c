"""The distances and the rarer losses (issue 31e), against PyTorch (recorded: tests/oracle.py):
cosine_similarity, pairwise_distance, pdist (F.*, torch.*, nn.CosineSimilarity,
nn.PairwiseDistance); margin_ranking, hinge_embedding, cosine_embedding, soft_margin,
multilabel_soft_margin, multi_margin, multilabel_margin, triplet_margin(_with_distance),
poisson_nll and gaussian_nll losses (F.* and modules); gumbel_softmax.

Each program returns what a learner sees: the loss for each reduction, its dtype, grad_fn
name and graph, the gradients of the inputs, the modules' reprs and state, the deprecated
``size_average=``/``reduce=`` warning, and the errors of the usual mistakes in PyTorch's
words. Finite differences: tests/ops/test_gradcheck.py (NN_OPS, "losses and distances").
"""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad
from oracle import assert_same, caught, error_of
from test_gradcheck import PROFILE


def _x(lib, *shape, seed=0, scale=1.0, dtype=None):
    """A leaf of fixed float values (float32 unless ``dtype``): the same in both libraries."""
    values = (np.random.RandomState(seed).randn(*shape) * scale).astype(np.float32)
    return lib.tensor(values, dtype=dtype or lib.float32, requires_grad=True)


def _grads(lib, out, *leaves):
    """The result, then each leaf's gradient of a weighted sum of it."""
    weights = lib.arange(1.0, out.numel() + 1, dtype=out.dtype).reshape(out.shape)
    return out, lib.autograd.grad((out * weights).sum(), leaves, allow_unused=True)


def _each_reduction(name, make):
    """``make(lib, reduction)`` -> (loss, leaves), once per reduction."""
    return {f"{name} ({r})": (lambda lib, r=r: _grads(lib, *make(lib, r))) for r in ("none", "mean", "sum")}


def _F(lib):
    return lib.nn.functional


def _pm(lib, values):  # targets of +1 / -1
    return lib.tensor(values)


PROGRAMS = {
    # distances
    "cosine_similarity": lambda lib: (lambda a, b: _grads(lib, _F(lib).cosine_similarity(a, b), a, b))(
        _x(lib, 3, 4), _x(lib, 3, 4, seed=1)),
    "cosine_similarity dim 0, eps": lambda lib: (lambda a, b: _grads(lib, lib.cosine_similarity(a, b, 0, 0.5), a, b))(
        _x(lib, 3, 4), _x(lib, 3, 4, seed=1)),
    # below eps the norm is eps (the value), yet the gradient goes through the true norm
    "cosine_similarity near-zero vectors": lambda lib: (lambda a, b: _grads(lib, _F(lib).cosine_similarity(a, b), a, b))(
        lib.tensor([[1e-9, 2e-9, 0.0], [0.0, 0.0, 0.0], [1.0, 2.0, 3.0]], dtype=lib.float64, requires_grad=True),
        lib.tensor([[3e-9, 1e-9, 1e-9], [1.0, 0.0, 0.0], [1.0, 0.0, 1.0]], dtype=lib.float64, requires_grad=True)),
    "cosine_similarity broadcast": lambda lib: (lambda a, b: _grads(lib, _F(lib).cosine_similarity(a, b, dim=-1), a, b))(
        _x(lib, 3, 4), _x(lib, 4, seed=1)),
    "cosine_similarity int and float": lambda lib: lib.cosine_similarity(lib.tensor([1, 2]), lib.tensor([2.0, 1]), 0),
    "cosine_similarity 1-d": lambda lib: _F(lib).cosine_similarity(lib.tensor([1.0, 2, 3]), lib.tensor([2.0, 1, 0]),
                                                                   dim=0),
    "pairwise_distance": lambda lib: (lambda a, b: _grads(lib, _F(lib).pairwise_distance(a, b), a, b))(
        _x(lib, 3, 4), _x(lib, 3, 4, seed=1)),
    "pairwise_distance p 1, keepdim": lambda lib: (lambda a, b: _grads(
        lib, lib.pairwise_distance(a, b, p=1, keepdim=True), a, b))(_x(lib, 3, 4), _x(lib, 3, 4, seed=1)),
    "pairwise_distance p inf, broadcast": lambda lib: (lambda a, b: _grads(
        lib, _F(lib).pairwise_distance(a, b, float("inf")), a, b))(_x(lib, 3, 4), _x(lib, 4, seed=1)),
    "pairwise_distance p 3, eps, 1-d": lambda lib: (lambda a, b: _grads(
        lib, _F(lib).pairwise_distance(a, b, 3, eps=0.1), a, b))(_x(lib, 4), _x(lib, 4, seed=1)),
    "pairwise_distance equal rows": lambda lib: (lambda a: _grads(lib, _F(lib).pairwise_distance(a, a.detach()), a))(
        _x(lib, 2, 3)),
    "pairwise_distance int": lambda lib: _F(lib).pairwise_distance(lib.tensor([[1, 2]]), lib.tensor([[0, 0]])),
    "pairwise_distance 0-d": lambda lib: (lambda a, b: _grads(lib, _F(lib).pairwise_distance(a, b), a, b))(
        lib.tensor(2.0, requires_grad=True), lib.tensor(3.0, requires_grad=True)),
    "integer inputs": lambda lib: (lambda i1, i2, t: [
        _F(lib).margin_ranking_loss(i1, i2, t), _F(lib).margin_ranking_loss(i1, i2, t, reduction="none"),
        _F(lib).hinge_embedding_loss(i1, t, reduction="none"), _F(lib).soft_margin_loss(lib.ones(2), t),
        _F(lib).cosine_embedding_loss(i1[None], i2[None], t[:1]), _F(lib).triplet_margin_loss(i1[None], i2[None], t[None]),
        _F(lib).poisson_nll_loss(lib.ones(2), i1), _F(lib).gaussian_nll_loss(lib.ones(2), i1, lib.ones(2)),
        _F(lib).multilabel_soft_margin_loss(lib.ones(1, 2), t[None].clamp(min=0))])(
        lib.tensor([1, 2]), lib.tensor([2, 1]), lib.tensor([1, -1])),
    "pdist": lambda lib: (lambda a: _grads(lib, _F(lib).pdist(a), a))(_x(lib, 4, 3)),
    "pdist p 1": lambda lib: (lambda a: _grads(lib, lib.pdist(a, 1), a))(_x(lib, 4, 3)),
    "pdist p 3": lambda lib: (lambda a: _grads(lib, lib.pdist(a, p=3), a))(_x(lib, 4, 3, dtype=lib.float64)),
    "pdist p 0.5": lambda lib: (lambda a: _grads(lib, lib.pdist(a, 0.5), a))(_x(lib, 4, 3, dtype=lib.float64)),
    "pdist p inf": lambda lib: (lambda a: _grads(lib, lib.pdist(a, float("inf")), a))(_x(lib, 4, 3)),
    "pdist p 0": lambda lib: (lambda a: _grads(lib, lib.pdist(a, 0), a))(_x(lib, 4, 3)),
    "pdist equal rows": lambda lib: (lambda a: _grads(lib, lib.pdist(a), a))(
        lib.tensor([[1.0, 2], [1, 2], [0, 1]], requires_grad=True)),
    "pdist one row, no rows": lambda lib: [lib.pdist(lib.ones(1, 3)), lib.pdist(lib.ones(0, 3))],
    "distance modules": lambda lib: (lambda a, b: [
        repr(lib.nn.CosineSimilarity()), repr(lib.nn.PairwiseDistance(p=1.0, eps=1e-3, keepdim=True)),
        lib.nn.PairwiseDistance().norm, lib.nn.CosineSimilarity(dim=0).dim,
        _grads(lib, lib.nn.CosineSimilarity(dim=0, eps=1e-3)(a, b), a, b),
        _grads(lib, lib.nn.PairwiseDistance(p=1.0, keepdim=True)(a, b), a, b)])(_x(lib, 3, 4), _x(lib, 3, 4, seed=1)),
    # losses for which PyTorch has no reduction-dependent node: module forms, settings
    "multilabel_soft_margin_loss weight": lambda lib: (lambda a: _grads(lib, _F(lib).multilabel_soft_margin_loss(
        a, lib.tensor([[1.0, 0, 1], [0, 0, 1]]), weight=lib.tensor([1.0, 2, 3])), a))(_x(lib, 2, 3)),
    "soft_margin_loss large margins": lambda lib: (lambda a: _grads(lib, _F(lib).soft_margin_loss(
        a, lib.tensor([1.0, -1, 1, -1]), reduction="none"), a))(
        lib.tensor([50.0, 50, -100, 1e-3], dtype=lib.float64, requires_grad=True)),
    "soft_margin_loss integer target, broadcast": lambda lib: (lambda a: _grads(lib, _F(lib).soft_margin_loss(
        a, lib.tensor([1, -1, 1])), a))(_x(lib, 2, 3)),
    "multi_margin_loss one sample": lambda lib: (lambda a: [
        _grads(lib, _F(lib).multi_margin_loss(a, lib.tensor(1), reduction="none"), a),
        _grads(lib, _F(lib).multi_margin_loss(a, lib.tensor([2]), reduction="none"), a)])(_x(lib, 4)),
    "multilabel_margin_loss one sample, repeated label": lambda lib: (lambda a: [
        _grads(lib, _F(lib).multilabel_margin_loss(a, lib.tensor([3, 0, 3, -1]), reduction="none"), a),
        _grads(lib, _F(lib).multilabel_margin_loss(a, lib.tensor([-1, 0, 1, 2])), a)])(_x(lib, 4)),
    "triplet_margin_loss p 1, eps": lambda lib: (lambda a, p, n: _grads(lib, _F(lib).triplet_margin_loss(
        a, p, n, margin=0.5, p=1, eps=1e-3), a, p, n))(_x(lib, 3, 4), _x(lib, 3, 4, seed=1), _x(lib, 3, 4, seed=2)),
    "triplet_margin_with_distance_loss cosine": lambda lib: (lambda a, p, n: _grads(
        lib, _F(lib).triplet_margin_with_distance_loss(
            a, p, n, distance_function=lambda x, y: 1 - _F(lib).cosine_similarity(x, y), margin=0.5), a, p, n))(
        _x(lib, 3, 4), _x(lib, 3, 4, seed=1), _x(lib, 3, 4, seed=2)),
    "poisson_nll_loss eps": lambda lib: (lambda a: _grads(lib, _F(lib).poisson_nll_loss(
        a, lib.tensor([[0.0, 1, 2], [3, 4, 5]]), log_input=False, eps=0.5), a))(
        lib.tensor([[0.0, 1, 2], [0.5, 3, 6]], requires_grad=True)),
    "gaussian_nll_loss var shapes": lambda lib: (lambda a, t, v: [
        _grads(lib, _F(lib).gaussian_nll_loss(a, t, v.exp(), reduction="none"), a, t, v),      # one per row
        _grads(lib, _F(lib).gaussian_nll_loss(a, t, v.exp().unsqueeze(-1)), a, t, v),        # size-1 dim
        _grads(lib, _F(lib).gaussian_nll_loss(a, t, 0.5, reduction="sum"), a, t),            # a number
        _grads(lib, _F(lib).gaussian_nll_loss(a, t, v.exp().unsqueeze(-1) * 1e-9, eps=1e-3), a, t, v)])(
        _x(lib, 2, 3), _x(lib, 2, 3, seed=1), _x(lib, 2, seed=2)),
    "loss modules": lambda lib: (lambda a, b, c: [
        repr(lib.nn.MarginRankingLoss(margin=0.5)), repr(lib.nn.TripletMarginWithDistanceLoss()),
        repr(lib.nn.GaussianNLLLoss(full=True)), lib.nn.MultiMarginLoss(weight=lib.ones(4)).state_dict(),
        lib.nn.MultiLabelSoftMarginLoss(weight=lib.ones(4)).state_dict(), lib.nn.PoissonNLLLoss().eps,
        lib.nn.TripletMarginLoss(swap=True).swap,
        lib.nn.MarginRankingLoss(0.2)(a[0], b[0], lib.tensor([1.0, -1, 1, -1])),
        lib.nn.HingeEmbeddingLoss(margin=2.0, reduction="sum")(a, lib.ones(3, 4)),
        lib.nn.CosineEmbeddingLoss(0.1)(a, b, lib.tensor([1.0, -1, 1])),
        lib.nn.SoftMarginLoss(reduction="none")(a, lib.ones(3, 4)),
        lib.nn.MultiLabelSoftMarginLoss()(a, lib.ones(3, 4)),
        lib.nn.MultiMarginLoss(p=2, margin=0.5)(a, lib.tensor([0, 3, 1])),
        lib.nn.MultiLabelMarginLoss()(a, lib.tensor([[0, -1, 0, 0], [1, 2, -1, 0], [3, 0, 1, 2]])),
        lib.nn.TripletMarginLoss(p=1.0, swap=True)(a, b, c),
        lib.nn.TripletMarginWithDistanceLoss(margin=2.0)(a, b, c),
        lib.nn.PoissonNLLLoss(full=True)(a, lib.full((3, 4), 3.0)),
        lib.nn.GaussianNLLLoss(full=True)(a, b, c.exp())])(_x(lib, 3, 4), _x(lib, 3, 4, seed=1), _x(lib, 3, 4, seed=2)),
    "loss modules: size_average and reduce": lambda lib: [
        caught(lambda: lib.nn.SoftMarginLoss(size_average=False).reduction),
        caught(lambda: lib.nn.MultiMarginLoss(reduce=False).reduction),
        caught(lambda: _F(lib).margin_ranking_loss(lib.ones(2), lib.zeros(2), lib.ones(2), size_average=False)),
        caught(lambda: _F(lib).poisson_nll_loss(lib.ones(2), lib.zeros(2), reduce=False)),
        caught(lambda: _F(lib).multilabel_soft_margin_loss(lib.ones(1, 2), lib.zeros(1, 2), size_average=False))],
    "gumbel_softmax": lambda lib: (lambda a: (lambda y, h: [
        y.shape, y.grad_fn.name(), bool(lib.allclose(y.sum(-1), lib.ones(2))), h.grad_fn.name(),
        sorted(h.sum(0).tolist()), bool((h == h.round()).all()),
        caught(lambda: _F(lib).gumbel_softmax(a, eps=1e-3).shape)])(
        _F(lib).gumbel_softmax(a, tau=0.5), _F(lib).gumbel_softmax(a, hard=True, dim=0)))(_x(lib, 2, 3)),
}

# every reduction: the loss's node (the reduction's, or the loss's own), values, gradients
PROGRAMS.update(_each_reduction("margin_ranking_loss", lambda lib, r: (lambda a, b: (
    _F(lib).margin_ranking_loss(a, b, lib.tensor([1.0, -1, 1, -1]), margin=0.3, reduction=r), a, b))(
    _x(lib, 4), _x(lib, 4, seed=1))))
PROGRAMS.update(_each_reduction("hinge_embedding_loss", lambda lib, r: (lambda a: (
    _F(lib).hinge_embedding_loss(a, lib.tensor([[1.0, -1, 1], [-1, -1, 1]]), margin=0.5, reduction=r), a))(
    _x(lib, 2, 3))))
PROGRAMS.update(_each_reduction("cosine_embedding_loss", lambda lib, r: (lambda a, b: (
    _F(lib).cosine_embedding_loss(a, b, lib.tensor([1.0, -1, -1]), margin=-0.2, reduction=r), a, b))(
    _x(lib, 3, 4), _x(lib, 3, 4, seed=1))))
PROGRAMS.update(_each_reduction("cosine_embedding_loss 0-d target", lambda lib, r: (lambda a, b: (
    _F(lib).cosine_embedding_loss(a, b, lib.tensor(-1.0), reduction=r), a, b))(_x(lib, 4), _x(lib, 4, seed=1))))
PROGRAMS.update(_each_reduction("soft_margin_loss", lambda lib, r: (lambda a: (
    _F(lib).soft_margin_loss(a, lib.tensor([[1.0, -1, 1], [-1, -1, 1]]), reduction=r), a))(_x(lib, 2, 3))))
PROGRAMS.update(_each_reduction("multilabel_soft_margin_loss", lambda lib, r: (lambda a: (
    _F(lib).multilabel_soft_margin_loss(a, lib.tensor([[1.0, 0, 1], [0, 0, 1]]), reduction=r), a))(_x(lib, 2, 3))))
PROGRAMS.update(_each_reduction("multi_margin_loss", lambda lib, r: (lambda a: (
    _F(lib).multi_margin_loss(a, lib.tensor([0, 2, 1]), reduction=r), a))(_x(lib, 3, 4))))
PROGRAMS.update(_each_reduction("multi_margin_loss p 2, margin, weight", lambda lib, r: (lambda a: (
    _F(lib).multi_margin_loss(a, lib.tensor([0, 2, 1]), p=2, margin=0.7, weight=lib.tensor([1.0, 2, 3, 4]),
                              reduction=r), a))(_x(lib, 3, 4))))
PROGRAMS.update(_each_reduction("multilabel_margin_loss", lambda lib, r: (lambda a: (
    _F(lib).multilabel_margin_loss(a, lib.tensor([[3, 0, -1, 1], [1, 2, 3, -1], [2, 2, -1, 0]]), reduction=r), a))(
    _x(lib, 3, 4))))
PROGRAMS.update(_each_reduction("triplet_margin_loss", lambda lib, r: (lambda a, p, n: (
    _F(lib).triplet_margin_loss(a, p, n, margin=2.0, reduction=r), a, p, n))(
    _x(lib, 3, 4), _x(lib, 3, 4, seed=1), _x(lib, 3, 4, seed=2))))
PROGRAMS.update(_each_reduction("triplet_margin_loss swap", lambda lib, r: (lambda a, p, n: (
    _F(lib).triplet_margin_loss(a, p, n, margin=2.0, swap=True, reduction=r), a, p, n))(
    _x(lib, 3, 4), _x(lib, 3, 4, seed=1), _x(lib, 3, 4, seed=2))))
PROGRAMS.update(_each_reduction("triplet_margin_with_distance_loss swap", lambda lib, r: (lambda a, p, n: (
    _F(lib).triplet_margin_with_distance_loss(a, p, n, margin=2.0, swap=True, reduction=r), a, p, n))(
    _x(lib, 3, 4), _x(lib, 3, 4, seed=1), _x(lib, 3, 4, seed=2))))
PROGRAMS.update(_each_reduction("poisson_nll_loss", lambda lib, r: (lambda a: (
    _F(lib).poisson_nll_loss(a, lib.tensor([[0.0, 1, 2], [3, 4, 5]]), reduction=r), a))(_x(lib, 2, 3))))
PROGRAMS.update(_each_reduction("poisson_nll_loss rates, full", lambda lib, r: (lambda a: (
    _F(lib).poisson_nll_loss(a.exp(), lib.tensor([[0.0, 1, 2], [3, 4, 5]]), log_input=False, full=True,
                             reduction=r), a))(_x(lib, 2, 3))))
PROGRAMS.update(_each_reduction("gaussian_nll_loss full", lambda lib, r: (lambda a, t, v: (
    _F(lib).gaussian_nll_loss(a, t, v.exp(), full=True, reduction=r), a, t, v))(
    _x(lib, 2, 3), _x(lib, 2, 3, seed=1), _x(lib, 2, 3, seed=2))))


@pytest.mark.parametrize("name", PROGRAMS)
def test_loss_more(oracle, name):
    oracle.same(PROGRAMS[name])


def test_second_derivatives(oracle):
    """soft_margin_loss's gradient has PyTorch's derivative (SoftMarginLossBackwardBackward0);
    multi_margin_loss's, multilabel_margin_loss's and pdist's have none in PyTorch: the second
    backward refuses, in PyTorch's words."""
    def program(lib):
        x = _x(lib, 3, 4, dtype=lib.float64)
        t = lib.tensor([[1.0, -1, 1, 1], [-1, -1, 1, -1], [1, 1, -1, 1]], dtype=lib.float64)
        answers = []
        for reduction in ("none", "mean", "sum"):
            g, = lib.autograd.grad(_F(lib).soft_margin_loss(x, t, reduction=reduction).sum(), x, create_graph=True)
            answers.append((g, lib.autograd.grad((g * g.detach().exp()).sum(), x)))
        for loss in (lambda: _F(lib).multi_margin_loss(x, lib.tensor([0, 1, 2])),
                     lambda: _F(lib).multilabel_margin_loss(x, lib.tensor([[0, 1, -1, 0]] * 3)),
                     lambda: _F(lib).pdist(x)):
            g, = lib.autograd.grad(loss().sum(), x, create_graph=True)
            answers.append((g, error_of(lambda: lib.autograd.grad((g * g).sum(), x))))
        return answers
    oracle.same(program)


def _mistake(fn):
    return lambda lib: error_of(lambda: fn(lib, _F(lib), lib.ones(3, 4)))


MISTAKES = {
    "cosine_similarity: long": lambda lib, F, x: F.cosine_similarity(lib.tensor([1, 2]), lib.tensor([1, 2]), 0),
    "cosine_similarity: shapes": lambda lib, F, x: F.cosine_similarity(x, lib.ones(3, 5)),
    "cosine_similarity: dim out of range": lambda lib, F, x: F.cosine_similarity(lib.ones(3), lib.ones(3)),
    "pairwise_distance: shapes": lambda lib, F, x: F.pairwise_distance(x, lib.ones(2, 4)),
    "pdist: 3-d": lambda lib, F, x: F.pdist(lib.ones(2, 3, 3)),
    "pdist: negative p": lambda lib, F, x: lib.pdist(x, p=-1),
    "pdist: long": lambda lib, F, x: lib.pdist(x.long()),
    "margin_ranking_loss: dims": lambda lib, F, x: F.margin_ranking_loss(lib.ones(3), lib.ones(3), lib.ones(3, 1)),
    "margin_ranking_loss: shapes": lambda lib, F, x: F.margin_ranking_loss(lib.ones(3), lib.ones(3), lib.ones(2)),
    "margin_ranking_loss: reduction": lambda lib, F, x: F.margin_ranking_loss(x, x, x, reduction="avg"),
    "hinge_embedding_loss: reduction": lambda lib, F, x: F.hinge_embedding_loss(x, x, reduction="avg"),
    "cosine_embedding_loss: 2-d target": lambda lib, F, x: F.cosine_embedding_loss(x, x, lib.ones(3, 1)),
    "cosine_embedding_loss: 0-d target, 2-d inputs": lambda lib, F, x: F.cosine_embedding_loss(x, x, lib.tensor(1.0)),
    "cosine_embedding_loss: 1-d target, 1-d inputs": lambda lib, F, x: F.cosine_embedding_loss(
        lib.ones(4), lib.ones(4), lib.ones(4)),
    "soft_margin_loss: shapes": lambda lib, F, x: F.soft_margin_loss(x, lib.ones(2, 4)),
    "soft_margin_loss: long input": lambda lib, F, x: F.soft_margin_loss(x.long(), x),
    "soft_margin_loss: reduction": lambda lib, F, x: F.soft_margin_loss(x, x, reduction="avg"),
    "soft_margin_loss: target requires grad": lambda lib, F, x: F.soft_margin_loss(x, x.clone().requires_grad_()),
    "multilabel_soft_margin_loss: reduction": lambda lib, F, x: F.multilabel_soft_margin_loss(x, x, reduction="avg"),
    "multi_margin_loss: target out of range": lambda lib, F, x: F.multi_margin_loss(x, lib.tensor([0, 1, 4])),
    "multi_margin_loss: negative target": lambda lib, F, x: F.multi_margin_loss(x, lib.tensor([0, 1, -1])),
    "multi_margin_loss: target size": lambda lib, F, x: F.multi_margin_loss(x, lib.tensor([0, 1])),
    "multi_margin_loss: weight size": lambda lib, F, x: F.multi_margin_loss(x, lib.tensor([0, 1, 2]),
                                                                            weight=lib.ones(3)),
    "multi_margin_loss: 2-d weight": lambda lib, F, x: F.multi_margin_loss(x, lib.tensor([0, 1, 2]),
                                                                           weight=lib.ones(3, 4)),
    "multi_margin_loss: p 3": lambda lib, F, x: F.multi_margin_loss(x, lib.tensor([0, 1, 2]), p=3),
    "multi_margin_loss: float target": lambda lib, F, x: F.multi_margin_loss(x, lib.tensor([0.0, 1, 2])),
    "multi_margin_loss: long input": lambda lib, F, x: F.multi_margin_loss(x.long(), lib.tensor([0, 1, 2])),
    "multi_margin_loss: 3-d": lambda lib, F, x: F.multi_margin_loss(lib.ones(2, 3, 4), lib.tensor([0, 1])),
    "multi_margin_loss: reduction": lambda lib, F, x: F.multi_margin_loss(x, lib.tensor([0, 1, 2]), reduction="avg"),
    "MultiMarginLoss: p 3": lambda lib, F, x: lib.nn.MultiMarginLoss(p=3),
    "MultiMarginLoss: 2-d weight": lambda lib, F, x: lib.nn.MultiMarginLoss(weight=lib.ones(2, 2)),
    "multilabel_margin_loss: target out of range": lambda lib, F, x: F.multilabel_margin_loss(
        x, lib.tensor([[0, 1, -1, 0], [0, -1, 0, 0], [5, -1, 0, 0]])),
    "multilabel_margin_loss: target below -1": lambda lib, F, x: F.multilabel_margin_loss(
        x, lib.tensor([[0, 1, -1, 0], [0, -1, 0, 0], [-2, -1, 0, 0]])),
    "multilabel_margin_loss: target size": lambda lib, F, x: F.multilabel_margin_loss(x, lib.tensor([[0, 1, -1, 0]])),
    "multilabel_margin_loss: float target": lambda lib, F, x: F.multilabel_margin_loss(x, x),
    "triplet_margin_loss: dims": lambda lib, F, x: F.triplet_margin_loss(x, x, lib.ones(4)),
    "triplet_margin_loss: margin 0": lambda lib, F, x: F.triplet_margin_loss(x, x, x, margin=0),
    "TripletMarginLoss: margin 0": lambda lib, F, x: lib.nn.TripletMarginLoss(margin=0),
    "triplet_margin_with_distance_loss: dims": lambda lib, F, x: F.triplet_margin_with_distance_loss(
        x, x, lib.ones(4)),
    "triplet_margin_with_distance_loss: reduction": lambda lib, F, x: F.triplet_margin_with_distance_loss(
        x, x, x, reduction="avg"),
    "TripletMarginWithDistanceLoss: margin -1": lambda lib, F, x: lib.nn.TripletMarginWithDistanceLoss(margin=-1),
    "poisson_nll_loss: reduction": lambda lib, F, x: F.poisson_nll_loss(x, x, reduction="avg"),
    "gaussian_nll_loss: negative var": lambda lib, F, x: F.gaussian_nll_loss(x, x, -x),
    "gaussian_nll_loss: negative float var": lambda lib, F, x: F.gaussian_nll_loss(x, x, -1.0),
    "gaussian_nll_loss: var size": lambda lib, F, x: F.gaussian_nll_loss(x, x, lib.ones(2, 4)),
    "gaussian_nll_loss: reduction": lambda lib, F, x: F.gaussian_nll_loss(x, x, x, reduction="avg"),
    "gumbel_softmax: long": lambda lib, F, x: F.gumbel_softmax(x.long()),
}


@pytest.mark.parametrize("name", MISTAKES)
def test_loss_more_mistakes(oracle, name):
    oracle.same(_mistake(MISTAKES[name]))


def test_torch_names():
    """The distances are torch.* functions too, the same as nn.functional's."""
    F = minigrad.nn.functional
    assert (minigrad.cosine_similarity, minigrad.pairwise_distance, minigrad.pdist) == (
        F.cosine_similarity, F.pairwise_distance, F.pdist)


def _random_margin_program(seed):
    """Random multi_margin_loss, multilabel_margin_loss (labels repeated, -1 anywhere),
    soft_margin_loss and pdist (p of 0, 1, 1.5, 2, 3, inf; rows repeated), with gradients."""
    rng = np.random.default_rng(seed)
    n, c = int(rng.integers(1, 4)), int(rng.integers(1, 5))
    x = rng.integers(-2, 3, (n, c)) / 2.0  # (ties: margins hit exactly too)
    target = rng.integers(0, c, n)
    labels = rng.integers(-1, c, (n, c))
    signs = rng.choice([-1.0, 1.0], (n, c))
    p, margin = int(rng.integers(1, 3)), float(rng.choice([0.5, 1.0, 2.0]))
    weight = rng.random(c) + 0.5 if rng.integers(0, 2) else None
    reduction = str(rng.choice(["none", "mean", "sum"]))
    pdist_p = float(rng.choice([0.0, 1.0, 1.5, 2.0, 3.0, np.inf]))

    def program(lib):
        F = lib.nn.functional
        a = lib.tensor(x, requires_grad=True)
        w = None if weight is None else lib.tensor(weight)
        return [_grads(lib, F.multi_margin_loss(a, lib.tensor(target), p=p, margin=margin, weight=w,
                                                reduction=reduction), a),
                _grads(lib, F.multilabel_margin_loss(a, lib.tensor(labels), reduction=reduction), a),
                _grads(lib, F.soft_margin_loss(a, lib.tensor(signs), reduction=reduction), a),
                _grads(lib, F.pdist(a, pdist_p), a)]
    return program


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_random_margins(oracle, seed):
    """Seeded cases of the Hypothesis test below, recorded."""
    oracle.same(_random_margin_program(seed))


@settings(PROFILE, max_examples=60)
@given(seed=st.integers(0, 2 ** 16))
def test_random_margins_hypothesis(torch, seed):
    """Random margin losses and pdist against live PyTorch: values, nodes, gradients."""
    program = _random_margin_program(seed)
    assert_same(program(minigrad), program(torch))
