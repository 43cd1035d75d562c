"""``torch.functional``: the module where PyTorch writes some of its ``torch.*`` functions in
Python (``import torch.functional as F``; ``F.einsum``, ``F.split``, ``F.meshgrid``...). Here each
is the ``torch.*`` function itself; the four minigrad leaves out (the short-time Fourier
transforms ``stft`` and ``istft``, ``lu``, the randomized ``pca_lowrank`` and ``svd_lowrank``)
say so, and what to use instead."""
from ._einsum import einsum
from ._functions import broadcast_shapes, broadcast_tensors
from ._functions_linalg import chain_matmul, tensordot
from ._functions_reduce import cdist, unique
from ._functions_shape import unravel_index
from ._joining import atleast_1d, atleast_2d, atleast_3d, block_diag, cartesian_prod, meshgrid
from ._namespace import norm, split, unique_consecutive
from ._unsupported import refusal

__all__ = ["atleast_1d", "atleast_2d", "atleast_3d", "broadcast_shapes", "broadcast_tensors", "cartesian_prod",
           "block_diag", "cdist", "chain_matmul", "einsum", "istft", "lu", "norm", "meshgrid", "pca_lowrank",
           "split", "stft", "svd_lowrank", "tensordot", "unique", "unique_consecutive", "unravel_index"]


def stft(input, n_fft, *args, **kwargs):
    raise refusal("torch.stft (the short-time Fourier transform: complex numbers)",
                  "compute it with NumPy (np.fft.rfft of windowed frames of x.numpy())")


def istft(input, n_fft, *args, **kwargs):
    raise refusal("torch.istft (the inverse short-time Fourier transform: complex numbers)",
                  "compute it with NumPy (np.fft.irfft, then overlap-add)")


def lu(A, pivot=True, get_infos=False, out=None):
    raise refusal("torch.lu (an LU factorization)", "solve systems with torch.linalg.solve, or use "
                  "scipy.linalg.lu on A.numpy()")


def pca_lowrank(A, q=None, center=True, niter=2):
    raise refusal("torch.pca_lowrank (a randomized PCA)", "use torch.linalg.svd of the centered A")


def svd_lowrank(A, q=6, niter=2, M=None):
    raise refusal("torch.svd_lowrank (a randomized SVD)", "use torch.linalg.svd(A, full_matrices=False)")
