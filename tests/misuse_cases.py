"""The misuse catalogue: what learners do wrong, one small program each (tests/api/test_misuse.py).

Each case is ``program(T)`` written against a module ``T`` (PyTorch or minigrad). The test
runs it in both and compares what a learner sees: the exception (type and message) or the
result, and the warnings. Cases are grouped by what goes wrong; ``CASES`` maps a case's name
to its program.
"""
import warnings

import numpy as np

CASES = {}


def case(fn):
    """Register ``fn`` under its name (a leading ``_`` dropped)."""
    name = fn.__name__.lstrip("_")
    assert name not in CASES, name
    CASES[name] = fn
    return fn


def cases(**programs):
    """Register several one-line programs at once."""
    for name, fn in programs.items():
        assert name not in CASES, name
        CASES[name] = fn


def _x(T, *shape, **kw):
    """A small float tensor with distinct values: 0, 1, 2, ... reshaped."""
    n = int(np.prod(shape)) if shape else 1
    values = np.arange(n, dtype=np.float32).reshape(shape)
    return T.tensor(values, requires_grad=kw.get("requires_grad", False))


def _w(T, *shape):
    return _x(T, *shape, requires_grad=True)


# ---------------------------------------------------------------------------------------------
# Shapes: matmul, broadcasting, views, cat/stack, reshape
# ---------------------------------------------------------------------------------------------

cases(
    matmul_inner_mismatch=lambda T: _x(T, 2, 3) @ _x(T, 2, 3),
    matmul_vec_vec_mismatch=lambda T: _x(T, 3) @ _x(T, 4),
    matmul_mat_vec_mismatch=lambda T: _x(T, 2, 3) @ _x(T, 4),
    matmul_vec_mat_mismatch=lambda T: _x(T, 4) @ _x(T, 3, 2),
    matmul_0d=lambda T: T.tensor(2.0) @ _x(T, 3),
    matmul_batch_mismatch=lambda T: _x(T, 2, 3, 4) @ _x(T, 3, 4, 5),
    matmul_batch_inner_mismatch=lambda T: _x(T, 2, 3, 4) @ _x(T, 2, 3, 4),
    matmul_3d_vec_mismatch=lambda T: _x(T, 2, 3, 4) @ _x(T, 3),
    mm_1d=lambda T: T.mm(_x(T, 3), _x(T, 3, 2)),
    mm_3d=lambda T: T.mm(_x(T, 2, 2, 2), _x(T, 2, 2)),
    mm_mismatch=lambda T: T.mm(_x(T, 2, 3), _x(T, 2, 3)),
    mv_mismatch=lambda T: T.mv(_x(T, 2, 3), _x(T, 2)),
    dot_mismatch=lambda T: T.dot(_x(T, 3), _x(T, 2)),
    dot_2d=lambda T: T.dot(_x(T, 2, 2), _x(T, 2, 2)),
    bmm_2d=lambda T: T.bmm(_x(T, 2, 3), _x(T, 3, 2)),
    bmm_batch_mismatch=lambda T: T.bmm(_x(T, 2, 2, 3), _x(T, 3, 3, 2)),
    add_no_broadcast=lambda T: _x(T, 2, 3) + _x(T, 3, 2),
    mul_no_broadcast=lambda T: _x(T, 4) * _x(T, 3),
    sub_no_broadcast_3d=lambda T: _x(T, 2, 3, 4) - _x(T, 2, 4),
    broadcast_ok_column=lambda T: _x(T, 3, 1) + _x(T, 4),
    inplace_broadcast_grows=lambda T: _x(T, 3).add_(_x(T, 2, 3)),
    inplace_iadd_grows=lambda T: _iadd(_x(T, 3), _x(T, 2, 3)),
    view_after_t=lambda T: _x(T, 2, 3).t().view(6),
    view_after_transpose=lambda T: _x(T, 2, 3, 4).transpose(0, 2).view(-1),
    view_wrong_size=lambda T: _x(T, 2, 3).view(4, 2),
    view_two_minus_one=lambda T: _x(T, 2, 3).view(-1, -1),
    reshape_two_minus_one=lambda T: _x(T, 2, 3).reshape(-1, -1),
    reshape_not_divisible=lambda T: _x(T, 2, 3).reshape(4, -1),
    reshape_wrong_size=lambda T: _x(T, 6).reshape(4, 2),
    reshape_after_t_ok=lambda T: _x(T, 2, 3).t().reshape(6),
    view_negative=lambda T: _x(T, 6).view(-2, 3),
    cat_empty_list=lambda T: T.cat([]),
    cat_0d=lambda T: T.cat([T.tensor(1.0), T.tensor(2.0)]),
    cat_size_mismatch=lambda T: T.cat([_x(T, 2, 3), _x(T, 2, 4)]),
    cat_size_mismatch_dim1=lambda T: T.cat([_x(T, 2, 3), _x(T, 3, 3)], dim=1),
    cat_ndim_mismatch=lambda T: T.cat([_x(T, 2, 3), _x(T, 3)]),
    cat_dim_out_of_range=lambda T: T.cat([_x(T, 2), _x(T, 2)], dim=1),
    cat_tensor_not_list=lambda T: T.cat(_x(T, 2, 3)),
    stack_shape_mismatch=lambda T: T.stack([_x(T, 2), _x(T, 3)]),
    stack_empty_list=lambda T: T.stack([]),
    stack_dim_out_of_range=lambda T: T.stack([_x(T, 2), _x(T, 2)], dim=3),
    squeeze_dim_out_of_range=lambda T: _x(T, 2, 1).squeeze(3),
    unsqueeze_out_of_range=lambda T: _x(T, 2, 3).unsqueeze(4),
    sum_dim_out_of_range=lambda T: _x(T, 2, 3).sum(2),
    mean_dim_out_of_range=lambda T: _x(T, 2, 3).mean(-3),
    softmax_dim_out_of_range=lambda T: _x(T, 2, 3).softmax(2),
    transpose_out_of_range=lambda T: _x(T, 2, 3).transpose(0, 2),
    permute_too_few=lambda T: _x(T, 2, 3, 4).permute(1, 0),
    permute_repeated=lambda T: _x(T, 2, 3).permute(0, 0),
    expand_wrong_size=lambda T: _x(T, 2, 3).expand(2, 4),
    expand_fewer_dims=lambda T: _x(T, 2, 3).expand(3),
    expand_ok=lambda T: _x(T, 3, 1).expand(3, 2),
    t_of_3d=lambda T: _x(T, 2, 3, 4).t(),
    flatten_start_after_end=lambda T: _x(T, 2, 3, 4).flatten(2, 1),
    narrow_too_long=lambda T: _x(T, 5).narrow(0, 3, 4),
    chunk_zero=lambda T: _x(T, 4).chunk(0),
    split_size_zero_ok=lambda T: len(_x(T, 4).split(3)),
    repeat_fewer_dims=lambda T: _x(T, 2, 3).repeat(2),
    unbind_dim_out_of_range=lambda T: _x(T, 2, 3).unbind(2),
    # pieces of a 0-d tensor (a loss, say): PyTorch's refusals, and topk's and roll's 0-d answers
    unbind_0d=lambda T: _x(T).unbind(),
    unbind_0d_last=lambda T: _x(T).unbind(-1),
    split_0d=lambda T: _x(T).split(1),
    split_sizes_0d=lambda T: _x(T).split([1]),
    chunk_0d=lambda T: _x(T).chunk(2),
    unsafe_chunk_0d=lambda T: _x(T).unsafe_chunk(2),
    narrow_0d=lambda T: _x(T).narrow(0, 0, 1),
    roll_0d_dim=lambda T: _x(T).roll(1, 0),
    roll_0d_ok=lambda T: _w(T).roll(1),
    topk_0d_ok=lambda T: _w(T).topk(1),
    topk_0d_k0_ok=lambda T: _w(T).topk(0),
    where_no_broadcast=lambda T: T.where(_x(T, 3) > 1, _x(T, 2, 2), _x(T, 3)),
    copy_wrong_shape=lambda T: _x(T, 2, 3).copy_(_x(T, 4)),
    copy_broadcast_ok=lambda T: _x(T, 2, 3).copy_(_x(T, 3)),
    copy_source_larger=lambda T: _x(T, 3).copy_(_x(T, 2, 3)),
    gather_wrong_ndim=lambda T: _x(T, 2, 3).gather(1, T.tensor([0, 1])),
    gather_index_out_of_range=lambda T: _x(T, 2, 3).gather(1, T.tensor([[0], [5]])),
    max_of_empty=lambda T: T.zeros(0, 3).max(),
    min_of_empty=lambda T: T.zeros(0).min(),
    argmax_of_empty=lambda T: T.zeros(0).argmax(),
    max_dim_of_empty=lambda T: T.zeros(0, 3).max(0),
    sum_of_empty_ok=lambda T: T.zeros(0, 3).sum(),
    mean_of_empty=lambda T: T.zeros(0).mean(),
    amax_of_empty=lambda T: T.zeros(0).amax(),
    amin_of_empty=lambda T: T.zeros(2, 0).amin(),
    amax_dim_of_empty=lambda T: T.zeros(2, 0).amax(dim=1),
    amin_dims_of_empty=lambda T: T.zeros(2, 0, 3).amin(dim=(0, 1)),
    amax_nonempty_dim_of_empty_ok=lambda T: T.zeros(2, 0, 3).amax(dim=(0, 2)),
    argmax_dim_of_empty=lambda T: T.zeros(2, 0).argmax(dim=1),
    argmin_dim_of_empty=lambda T: T.zeros(2, 0).argmin(dim=-1, keepdim=True),
    lerp_no_broadcast=lambda T: _x(T, 2, 3).lerp(_x(T, 4), 0.5),
    lerp_weight_no_broadcast=lambda T: T.lerp(_x(T, 2, 3), _x(T, 2, 3), _x(T, 4)),
    lerp_in_place_no_broadcast=lambda T: _x(T, 2, 3).lerp_(_x(T, 4), 0.5),
    lerp_in_place_end_larger=lambda T: _x(T, 3).lerp_(_x(T, 2, 3), 0.5),
    cross_batch_no_broadcast=lambda T: T.cross(_x(T, 2, 3), _x(T, 4, 3), dim=1),
    cross_batch_broadcast_ok=lambda T: T.cross(_w(T, 1, 3), _x(T, 4, 3), dim=1),
    cross_dim_out_of_range=lambda T: T.linalg.cross(_x(T, 3), _x(T, 3), dim=5),
    narrow_start_before_begin=lambda T: _x(T, 2, 3).narrow(1, -4, 1),
    narrow_start_past_end=lambda T: _x(T, 2, 3).narrow(1, 4, 0),
    narrow_start_at_end_ok=lambda T: _w(T, 2, 3).narrow(1, 3, 0),
    narrow_negative_length=lambda T: _x(T, 2, 3).narrow(5, 0, -1),
    roll_more_shifts_than_dims=lambda T: _x(T, 2, 3).roll((1, 1), (0,)),
    roll_more_dims_than_shifts=lambda T: _x(T, 2, 3).roll((1,), (0, 1)),
    movedim_lengths_differ=lambda T: _x(T, 2, 3).movedim((0, 5), (1,)),
    movedim_repeated_source=lambda T: _x(T, 2, 3).movedim((0, -2), (1, 0)),
    movedim_repeated_destination=lambda T: _x(T, 2, 3).movedim((0, 1), (1, 1)),
    sum_repeated_dim=lambda T: _x(T, 2, 3).sum((0, -2)),
    std_repeated_dim=lambda T: _x(T, 2, 3).std((1, 1)),
    amax_repeated_dim=lambda T: _x(T, 2, 3).amax((1, -1)),
    flip_repeated_dim=lambda T: _x(T, 2, 3).flip(1, -1),
    expand_minus_one_in_new_dim=lambda T: _x(T, 2, 3).expand(-1, 2, 3),
    expand_minus_one_in_existing_dims_ok=lambda T: _w(T, 2, 3).expand(2, -1, -1),
    einsum_output_letter_unknown=lambda T: T.einsum("ij->k", _x(T, 2, 3)),
    einsum_output_letter_twice=lambda T: T.einsum("ij->jj", _x(T, 2, 3)),
    einsum_fewer_operands=lambda T: T.einsum("ij,jk", _x(T, 2, 3)),
    kron_other_a_number=lambda T: T.kron(_x(T, 2), 3),
    inner_other_a_number=lambda T: T.inner(_x(T, 2), 3),
    vdot_other_a_number=lambda T: T.vdot(_x(T, 2), 3),
    dot_other_a_number=lambda T: T.dot(_x(T, 2), 3),
    outer_other_a_number=lambda T: T.outer(_x(T, 2), 3),
    linear_bias_wrong_size=lambda T: T.nn.functional.linear(_x(T, 2, 3), _w(T, 4, 3), _w(T, 3)),
    linear_bias_2d_wrong_rows=lambda T: T.nn.functional.linear(_x(T, 2, 3), _w(T, 4, 3), _w(T, 3, 4)),
    linear_bias_wrong_size_3d_input=lambda T: T.nn.functional.linear(_x(T, 2, 5, 3), _w(T, 4, 3), _w(T, 3)),
    linear_bias_2d_ok=lambda T: T.nn.functional.linear(_x(T, 2, 3), _w(T, 4, 3), _w(T, 2, 4)),
    full_fill_value_a_string=lambda T: T.full((2,), "a"),
    full_fill_value_none=lambda T: T.full((2,), None),
    uniform_bounds_reversed=lambda T: T.empty(2).uniform_(1.5, 0.25),
    normal_negative_std=lambda T: T.empty(2).normal_(0, -0.5),
    torch_normal_negative_std=lambda T: T.normal(0.0, -1.0, (2,)),
    torch_normal_negative_std_tensor=lambda T: T.normal(T.zeros(2), T.tensor([-1.0, 1.0])),
    init_normal_negative_std=lambda T: T.nn.init.normal_(T.empty(2), 0.0, -1.0),
    init_uniform_bounds_reversed=lambda T: T.nn.init.uniform_(T.empty(2), 1.0, 0.0),
    cross_no_dim_of_length_3=lambda T: _cross_without_dim(T, _x(T, 2, 2), _x(T, 2, 2)),
    cross_default_dim_from_input=lambda T: _cross_without_dim(T, _x(T, 2, 3), _x(T, 2, 4)),
)


def _cross_without_dim(T, a, b):
    """torch.cross(a, b): its deprecation warning is shown once a process (whichever case runs
    first), so it is left out of the answer."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "Using torch.cross without specifying the dim arg")
        return T.cross(a, b)


def _iadd(a, b):
    a += b
    return a


# ---------------------------------------------------------------------------------------------
# Indexing
# ---------------------------------------------------------------------------------------------

cases(
    index_out_of_range=lambda T: _x(T, 3)[5],
    index_negative_out_of_range=lambda T: _x(T, 3)[-4],
    index_dim1_out_of_range=lambda T: _x(T, 2, 3)[:, 5],
    index_too_many=lambda T: _x(T, 2, 3)[0, 0, 0],
    index_0d=lambda T: T.tensor(1.0)[0],
    index_0d_slice=lambda T: T.tensor(1.0)[:],
    index_negative_step=lambda T: _x(T, 4)[::-1],
    index_negative_step_2d=lambda T: _x(T, 2, 3)[:, ::-2],
    index_zero_step=lambda T: _x(T, 4)[::0],
    index_float=lambda T: _x(T, 3)[1.0],
    index_float_in_tuple=lambda T: _x(T, 2, 3)[0, 1.0],
    index_str=lambda T: _x(T, 3)["a"],
    index_float_tensor=lambda T: _x(T, 3)[T.tensor([1.0])],
    index_tensor_out_of_range=lambda T: _x(T, 3)[T.tensor([0, 5])],
    index_list_out_of_range=lambda T: _x(T, 3)[[0, 3]],
    index_mask_wrong_shape=lambda T: _x(T, 3)[T.tensor([True, False])],
    index_mask_2d_wrong_shape=lambda T: _x(T, 2, 3)[T.ones(3, 2, dtype=T.bool)],
    index_two_ellipsis=lambda T: _x(T, 2, 3)[..., 0, ...],
    slice_past_end_ok=lambda T: _x(T, 3)[1:10],
    index_none_ok=lambda T: _x(T, 3)[None, :, None].shape,
    setitem_out_of_range=lambda T: _setitem(_x(T, 3), 5, 1.0),
    setitem_wrong_shape=lambda T: _setitem(_x(T, 2, 3), 0, _x(T, 4)),
    setitem_broadcast_ok=lambda T: _setitem(_x(T, 2, 3), 0, _x(T, 1)),
    setitem_float_into_int=lambda T: _setitem(T.tensor([1, 2, 3]), 0, 2.7),
    setitem_negative_step=lambda T: _setitem(_x(T, 4), slice(None, None, -1), 0.0),
    item_multi=lambda T: _x(T, 3).item(),
    item_empty=lambda T: T.zeros(0).item(),
    float_multi=lambda T: float(_x(T, 2)),
    int_multi=lambda T: int(_x(T, 2)),
    bool_multi=lambda T: bool(_x(T, 2) > 0),
    bool_empty=lambda T: bool(T.zeros(0)),
    len_0d=lambda T: len(T.tensor(1.0)),
    iter_0d=lambda T: list(T.tensor(1.0)),
    index_select_2d_index=lambda T: _x(T, 3).index_select(0, T.tensor([[0]])),
    index_select_float_index=lambda T: _x(T, 3).index_select(0, T.tensor([0.0])),
    masked_fill_float_mask=lambda T: _x(T, 3).masked_fill(T.ones(3), 0.0),
    masked_fill_no_broadcast=lambda T: _x(T, 3).masked_fill(T.ones(2, dtype=T.bool), 0.0),
    masked_fill_float_mask_no_broadcast=lambda T: _x(T, 2, 3).masked_fill(T.ones(4), 0.0),
    masked_fill_in_place_no_broadcast=lambda T: _x(T, 2, 3).masked_fill_(T.ones(4, dtype=T.bool), 0.0),
    masked_fill_in_place_value_not_0d=lambda T: _x(T, 2, 3).masked_fill_(T.ones(4, dtype=T.bool), _x(T, 2)),
    masked_fill_in_place_mask_larger=lambda T: _x(T, 3).masked_fill_(T.ones(2, 3, dtype=T.bool), 0.0),
    masked_select_no_broadcast=lambda T: _x(T, 2, 3).masked_select(T.ones(4, dtype=T.bool)),
    masked_select_float_mask=lambda T: _x(T, 2, 3).masked_select(T.ones(4)),
    masked_select_mask_larger_ok=lambda T: _w(T, 3).masked_select(T.tensor([[True, False, True]] * 2)),
)


def _setitem(x, key, value):
    x[key] = value
    return x


# ---------------------------------------------------------------------------------------------
# Dtypes
# ---------------------------------------------------------------------------------------------

cases(
    matmul_double_float=lambda T: _x(T, 2, 3).double() @ _x(T, 3, 2),
    matmul_float_double=lambda T: _x(T, 2, 3) @ _x(T, 3, 2).double(),
    matmul_int_float=lambda T: T.ones(2, 3, dtype=T.long) @ _x(T, 3, 2),
    matmul_batched_mixed=lambda T: _x(T, 2, 2, 3).double() @ _x(T, 2, 3, 2),
    matvec_mixed=lambda T: _x(T, 2, 3).double() @ _x(T, 3),
    dot_mixed=lambda T: T.dot(_x(T, 3).double(), _x(T, 3)),
    mm_mixed=lambda T: T.mm(_x(T, 2, 3), _x(T, 3, 2).double()),
    linear_float64_input=lambda T: _seeded(T, lambda: T.nn.Linear(3, 2)(T.from_numpy(np.ones((1, 3))))),
    linear_int_input=lambda T: _seeded(T, lambda: T.nn.Linear(3, 2)(T.ones(1, 3, dtype=T.long))),
    linear_float64_ok_after_double=lambda T: _seeded(
        T, lambda: T.nn.Linear(3, 2).double()(T.from_numpy(np.ones((1, 3)))).dtype),
    int_requires_grad=lambda T: T.tensor([1, 2], requires_grad=True),
    int_requires_grad_=lambda T: T.tensor([1, 2]).requires_grad_(),
    int_requires_grad_attr=lambda T: setattr(T.tensor([1, 2]), "requires_grad", True),
    bool_requires_grad=lambda T: T.tensor([True]).requires_grad_(),
    ones_long_requires_grad=lambda T: T.ones(2, dtype=T.long, requires_grad=True),
    arange_requires_grad=lambda T: T.arange(3, requires_grad=True),
    parameter_int=lambda T: T.nn.Parameter(T.tensor([1, 2])),
    neg_bool=lambda T: -T.tensor([True, False]),
    sub_bool=lambda T: T.tensor([True]) - T.tensor([False]),
    rsub_bool_ok=lambda T: 1 - T.tensor([True, False]),
    int_pow_negative=lambda T: T.tensor([1, 2]) ** -1,
    int_pow_negative_tensor=lambda T: T.tensor([1, 2]) ** T.tensor([-1, 2]),
    int_pow_float_ok=lambda T: T.tensor([1, 2]) ** 0.5,
    int_iadd_float=lambda T: _iadd(T.tensor([1, 2]), 1.5),
    int_div_=lambda T: T.tensor([1, 2]).div_(2),
    int_mul_float_tensor_=lambda T: T.tensor([1, 2]).mul_(T.tensor([0.5, 0.5])),
    bool_add_=lambda T: T.tensor([True]).add_(1),
    int_true_div_ok=lambda T: T.tensor([1, 2]) / 2,
    int_floordiv_ok=lambda T: T.tensor([5, -5]) // 2,
    int_mean=lambda T: T.tensor([1, 2]).mean(),
    int_var=lambda T: T.tensor([1, 2]).var(),
    int_sqrt_ok=lambda T: T.tensor([1, 4]).sqrt(),
    int_softmax=lambda T: T.tensor([1, 2]).softmax(0),
    int_log_softmax=lambda T: T.tensor([1, 2]).log_softmax(0),
    int_softmax_dtype_ok=lambda T: T.tensor([1, 2]).softmax(0, dtype=T.float32),
    float_bitwise_and=lambda T: _x(T, 2) & _x(T, 2),
    float_invert=lambda T: ~_x(T, 2),
    float_xor_int=lambda T: _x(T, 2) ^ 1,
    where_float_condition=lambda T: T.where(_x(T, 3), _x(T, 3), -_x(T, 3)),
    where_int_condition=lambda T: T.where(T.tensor([1, 0]), _x(T, 2), -_x(T, 2)),
    maximum_number=lambda T: T.maximum(_x(T, 3), 2),
    minimum_number=lambda T: T.minimum(_x(T, 3), 2.0),
    maximum_mixed_ok=lambda T: T.maximum(_x(T, 3), T.tensor([1, 1, 1])),
    tensor_ragged=lambda T: T.tensor([[1, 2], [3]]),
    tensor_str=lambda T: T.tensor("abc"),
    tensor_of_tensors_list=lambda T: T.tensor([_x(T, 2), _x(T, 2)]),
    tensor_of_tensor_warns=lambda T: T.tensor(_x(T, 2)),
    from_numpy_list=lambda T: T.from_numpy([1.0, 2.0]),
    from_numpy_object=lambda T: T.from_numpy(np.array(["a"], dtype=object)),
    to_bad_dtype=lambda T: _x(T, 2).to("float32"),
    type_bad_name=lambda T: _x(T, 2).type("torch.FooTensor"),
    float16_free_ok=lambda T: (_x(T, 2).double() + _x(T, 2)).dtype,
)


def _seeded(T, fn):
    T.manual_seed(0)
    return fn()


# NumPy scalars and 0-d arrays as operands: PyTorch treats them as Python numbers (and 0-d
# arrays as 0-d tensors), so they never turn a tensor into an array or drop its graph.
cases(
    np_float64_times_loss=lambda T: _np_times_loss(T),
    np_float64_lr_times_grad=lambda T: _np_lr_times_grad(T),
    np_int64_plus_int_tensor=lambda T: T.tensor([1, 2]) + np.int64(1),
    int_tensor_plus_np_int64=lambda T: np.int64(1) + T.tensor([1, 2]),
    np_float32_plus_float_tensor=lambda T: _x(T, 2) + np.float32(2),
    np_float64_plus_float_tensor=lambda T: _x(T, 2) + np.float64(2),
    np_float64_times_int_tensor=lambda T: T.tensor([1, 2]) * np.float64(0.5),
    np_float64_div_tensor=lambda T: np.float64(1.0) / _w(T, 2),
    np_float64_minus_tensor=lambda T: np.float64(1.0) - _w(T, 2),
    np_float64_pow_tensor=lambda T: np.float64(2.0) ** _w(T, 2),
    tensor_pow_np_float64=lambda T: _w(T, 2) ** np.float64(2.0),
    np_bool_plus_tensor=lambda T: T.tensor([1, 2]) + np.bool_(True),
    np_0d_array_times_tensor=lambda T: _w(T, 2) * np.array(2.0),
)


def _np_times_loss(T):
    w = _w(T, 3)
    loss = np.float64(0.5) * (w ** 2).sum()
    loss.backward()
    return loss, w.grad


def _np_lr_times_grad(T):
    w = _w(T, 3)
    (w * w).sum().backward()
    lr = np.logspace(-3, -1, 3)[0]
    return lr * w.grad


# ---------------------------------------------------------------------------------------------
# Devices: a CPU machine
# ---------------------------------------------------------------------------------------------

cases(
    cuda_method=lambda T: _x(T, 2).cuda(),
    to_cuda=lambda T: _x(T, 2).to("cuda"),
    to_cuda_device=lambda T: _x(T, 2).to(T.device("cuda")),
    ones_on_cuda=lambda T: T.ones(2, device="cuda"),
    tensor_on_cuda=lambda T: T.tensor([1.0], device="cuda"),
    module_cuda=lambda T: T.nn.Linear(2, 2).cuda(),
    module_to_cuda=lambda T: T.nn.Linear(2, 2).to("cuda"),
    to_gpu_string=lambda T: _x(T, 2).to("gpu"),
    device_bad_string=lambda T: T.device("gpu"),
    cuda_available=lambda T: T.cuda.is_available(),
    to_cpu_ok=lambda T: _x(T, 2).to("cpu"),
    device_of_tensor=lambda T: str(_x(T, 2).device),
    cuda_device_object_ok=lambda T: str(T.device("cuda", 0)),
)


# ---------------------------------------------------------------------------------------------
# backward and grad
# ---------------------------------------------------------------------------------------------


@case
def backward_twice(T):
    x = _w(T, 2)
    y = (x * x).sum()
    y.backward()
    y.backward()


@case
def backward_twice_through_exp(T):
    x = _w(T, 2)
    y = x.exp().sum()
    y.backward()
    y.backward()


@case
def backward_twice_retain_ok(T):
    x = _w(T, 2)
    y = (x * x).sum()
    y.backward(retain_graph=True)
    y.backward()
    return x.grad


@case
def backward_shared_subgraph_twice(T):
    x = _w(T, 2)
    h = x.exp()
    h.sum().backward()
    (h * 2).sum().backward()


def _node_metadata(T):
    """A node's metadata dict: the user's, kept with the node (02's reviewer tracks a node by it)."""
    y = _w(T, 2) * 2
    y.grad_fn.metadata["seen"] = 1
    return type(y.grad_fn.metadata).__name__, dict(y.grad_fn.metadata), y.grad_fn.next_functions[0][0].metadata


def _grad_of_gradient(T, dtype, gradient):
    """backward(gradient) of another dtype than the output's: PyTorch casts it (06's Jacobian
    rows, with a float32 one-hot row for a float64 output)."""
    x = T.tensor([1.0, 2.0, 3.0], dtype=dtype, requires_grad=True)
    (T.tensor([[1.0, -2.0, 0.5]], dtype=dtype) @ x).backward(gradient)
    return x.grad


cases(
    backward_non_scalar=lambda T: (_w(T, 2) * 2).backward(),
    backward_no_grad_fn=lambda T: _x(T, 2).sum().backward(),
    backward_detached=lambda T: (_w(T, 2) * 2).sum().detach().backward(),
    backward_under_no_grad=lambda T: _no_grad(T, lambda: (_w(T, 2) * 2).sum()).backward(),
    backward_gradient_float=lambda T: (_w(T, 2) * 2).sum().backward(gradient=2.0),
    backward_gradient_wrong_shape=lambda T: (_w(T, 2) * 2).backward(T.ones(3)),
    backward_gradient_wrong_dtype=lambda T: (_w(T, 2) * 2).backward(T.ones(2, dtype=T.float64)),
    backward_gradient_list=lambda T: (_w(T, 2) * 2).backward([1.0, 1.0]),
    node_metadata_is_kept=lambda T: _node_metadata(T),
    backward_gradient_float32_into_float64=lambda T: _grad_of_gradient(T, T.float64, T.ones(1)),
    backward_gradient_int_into_float32=lambda T: _grad_of_gradient(T, T.float32, T.ones(1, dtype=T.int64)),
    backward_inputs_empty=lambda T: (_w(T, 2) * 2).sum().backward(inputs=[]),
    backward_int_output=lambda T: (_w(T, 2) * 2).sum().long().backward(),
    grad_not_requiring=lambda T: T.autograd.grad((_w(T, 2) * 2).sum(), _x(T, 2)),
    grad_unused_input=lambda T: T.autograd.grad((_w(T, 2) * 2).sum(), [_w(T, 2)]),
    grad_unused_allowed=lambda T: T.autograd.grad((_w(T, 2) * 2).sum(), [_w(T, 2)], allow_unused=True),
    grad_non_scalar=lambda T: _grad_non_scalar(T),
    grad_output_no_grad=lambda T: T.autograd.grad(_x(T, 2).sum(), _w(T, 2)),
    grad_twice=lambda T: _grad_twice(T),
    second_order_without_create_graph=lambda T: _second_order_no_create(T),
    nonleaf_grad_access=lambda T: _nonleaf_grad(T),
    leaf_grad_before_backward=lambda T: _w(T, 2).grad,
    zero_grad_on_none=lambda T: _w(T, 2).grad.zero_(),
    grad_assign_ndarray=lambda T: setattr(_w(T, 2), "grad", np.ones(2, dtype=np.float32)),
    grad_assign_wrong_shape=lambda T: setattr(_w(T, 2), "grad", T.ones(3)),
    grad_assign_wrong_dtype=lambda T: setattr(_w(T, 2), "grad", T.ones(2, dtype=T.float64)),
    grad_assign_list=lambda T: setattr(_w(T, 2), "grad", [1.0, 1.0]),
    grad_assign_ok=lambda T: _grad_assign_ok(T),
    requires_grad_nonleaf_true_ok=lambda T: _requires_grad_nonleaf(T, True),
    requires_grad_nonleaf_false=lambda T: _requires_grad_nonleaf(T, False),
    requires_grad_attr_nonleaf_false=lambda T: setattr(_w(T, 2) * 2, "requires_grad", False),
    requires_grad_attr_nonleaf_true_ok=lambda T: _set_rg_attr(_w(T, 2) * 2),
    numpy_requires_grad=lambda T: _w(T, 2).numpy(),
    numpy_nonleaf=lambda T: (_w(T, 2) * 2).numpy(),
    np_asarray_requires_grad=lambda T: np.asarray(_w(T, 2)),
    tolist_requires_grad_ok=lambda T: _w(T, 2).tolist(),
    item_requires_grad_ok=lambda T: _w(T, 1).sum().item(),
    detach_ok=lambda T: _w(T, 2).detach().numpy(),
    retain_grad_no_requires=lambda T: _x(T, 2).retain_grad(),
    register_hook_no_requires=lambda T: _x(T, 2).register_hook(lambda g: g),
    hook_returns_wrong_type=lambda T: _hook_returns(T, lambda T, g: 1.0),
    hook_returns_wrong_dtype=lambda T: _hook_returns(T, lambda T, g: g.double()),
    hook_returns_none_ok=lambda T: _hook_returns(T, lambda T, g: None),
    hook_doubles_ok=lambda T: _hook_returns(T, lambda T, g: g * 2),
    inplace_leaf=lambda T: _w(T, 2).add_(1),
    inplace_leaf_iadd=lambda T: _iadd(_w(T, 2), 1),
    inplace_leaf_zero_=lambda T: _w(T, 2).zero_(),
    inplace_leaf_setitem=lambda T: _setitem(_w(T, 3), 0, 0.0),
    inplace_leaf_view=lambda T: _w(T, 2, 2)[0].mul_(2),
    inplace_leaf_no_grad_ok=lambda T: _no_grad(T, lambda: _w(T, 2).add_(1)),
    modified_saved_tensor=lambda T: _modified_saved(T),
    modified_saved_leaf=lambda T: _modified_saved_leaf(T),
    relu_inplace_leaf=lambda T: T.nn.ReLU(inplace=True)(_w(T, 2)),
    sigmoid_then_inplace=lambda T: _sigmoid_then_inplace(T),
    detach_inplace_then_backward=lambda T: _detach_inplace(T),
    backward_on_leaf=lambda T: _leaf_backward(T),
)


def _no_grad(T, fn):
    with T.no_grad():
        return fn()


def _grad_non_scalar(T):
    x = _w(T, 2)
    return T.autograd.grad(x * 2, x)


def _grad_twice(T):
    x = _w(T, 2)
    y = (x * x).sum()
    T.autograd.grad(y, x)
    return T.autograd.grad(y, x)


def _second_order_no_create(T):
    x = _w(T, 2)
    (g,) = T.autograd.grad((x ** 3).sum(), x)
    return T.autograd.grad(g.sum(), x)


def _nonleaf_grad(T):
    x = _w(T, 2)
    y = x * 2
    y.sum().backward()
    return y.grad


def _grad_assign_ok(T):
    x = _w(T, 2)
    x.grad = T.ones(2)
    return x.grad


def _requires_grad_nonleaf(T, flag):
    y = _w(T, 2) * 2
    return y.requires_grad_(flag)


def _set_rg_attr(y):
    y.requires_grad = True
    return y


def _hook_returns(T, make):
    x = _w(T, 2)
    y = x * 3
    y.register_hook(lambda g: make(T, g))
    y.sum().backward()
    return x.grad


def _modified_saved(T):
    x = _w(T, 2, 2)
    h = x.exp()
    y = h.exp()
    h.add_(1)
    y.sum().backward()


def _modified_saved_leaf(T):
    w = _w(T, 2)
    y = (w * w).sum()
    with T.no_grad():
        w.add_(1)
    y.backward()


def _sigmoid_then_inplace(T):
    x = _w(T, 3)
    y = x.sigmoid()
    y.mul_(2)
    y.sum().backward()
    return x.grad


def _detach_inplace(T):
    x = _w(T, 3)
    y = x.exp()
    y.detach().zero_()
    y.sum().backward()


def _kept(T, pick, index):
    """``pick(x, index)``'s node keeps ``index`` (or a mask, a target): changing it in place
    before backward is an error, not a gradient sent where the new index points."""
    x = _w(T, 3, 4)
    y = pick(x, index)
    index[0] = index[-1]
    y.sum().backward()
    return x.grad


def _rows(T):
    return T.tensor([[0], [1], [2]])


def _mask(T):
    return T.tensor([True, False, True, False])


cases(
    gather_index_changed_before_backward=lambda T: _kept(T, lambda x, i: x.gather(1, i), _rows(T)),
    index_select_index_changed=lambda T: _kept(T, lambda x, i: x.index_select(1, i), T.tensor([0, 2])),
    fancy_index_changed=lambda T: _kept(T, lambda x, i: x[i], T.tensor([0, 2])),
    fancy_index_in_a_longer_key_changed=lambda T: _kept(T, lambda x, i: x[1:, i], T.tensor([0, 2])),
    mask_index_changed=lambda T: _kept(T, lambda x, m: x[m], T.tensor([True, False, True])),
    masked_fill_mask_changed=lambda T: _kept(T, lambda x, m: x.masked_fill(m, 0.0), _mask(T)),
    masked_select_mask_changed=lambda T: _kept(T, lambda x, m: x.masked_select(m), _mask(T)),
    where_condition_changed=lambda T: _kept(T, lambda x, m: T.where(m, x, 0.0), _mask(T)),
    embedding_indices_changed=lambda T: _kept(T, lambda x, i: T.nn.functional.embedding(i, x), T.tensor([0, 2])),
    scatter_index_changed=lambda T: _kept(T, lambda x, i: T.zeros(3, 5).scatter(1, i, x), _rows(T)),
    scatter_add_index_changed=lambda T: _kept(T, lambda x, i: T.zeros(3, 5).scatter_add(1, i, x), _rows(T)),
    # take_along_dim(x, i, dim) gathers with a copy of the broadcast index: no error, the old picks
    take_along_dim_index_changed_is_fine=lambda T: _kept(T, lambda x, i: T.take_along_dim(x, i, 1), _rows(T)),
    take_along_dim_flat_index_changed=lambda T: _kept(T, lambda x, i: T.take_along_dim(x, i), T.tensor([0, 5])),
    index_put_index_changed=lambda T: _kept(T, lambda x, i: _setitem(x * 1, i, 0.0), T.tensor([0, 2])),
)


@case
def _labels_changed_after_the_loss(T):
    """The node of nll_loss keeps the target: relabelling it in place before backward is an error."""
    x = _w(T, 3, 4)
    labels = T.tensor([0, 1, 2])
    loss = T.nn.functional.cross_entropy(x, labels)
    labels[0] = 3
    loss.backward()


@case
def _segmentation_labels_changed_after_the_loss(T):
    """The same for the 2-D loss (N, C, H, W) and for extra dims beyond it (reshaped first);
    the graphs have no edge for the target."""
    x, y = _w(T, 2, 3, 2, 2), _w(T, 2, 3, 1, 2, 2)
    labels, volume = T.zeros(2, 2, 2, dtype=T.long), T.zeros(2, 1, 2, 2, dtype=T.long)
    loss = T.nn.functional.cross_entropy(x, labels) + T.nn.functional.cross_entropy(y, volume)
    volume.add_(1)
    try:
        loss.backward()
    except RuntimeError as e:
        labels.fill_(2)
        return str(e), T.nn.functional.nll_loss(x, labels, reduction="sum")
    return "no error"


@case
def _labels_changed_after_backward_are_fine(T):
    x = _w(T, 3, 4)
    labels = T.tensor([0, 1, 2])
    loss = T.nn.functional.nll_loss(x, labels)
    loss.backward()
    labels[0] = 3
    return x.grad, labels, loss


def _leaf_backward(T):
    x = _w(T, 1).sum()
    x.backward()
    return x.grad


# ---------------------------------------------------------------------------------------------
# In-place ops on views of tensors that require grad (PyTorch records them: CopySlices)
# ---------------------------------------------------------------------------------------------


def _copy_slices(fn):
    """A case whose program writes into a view of ``y = x * 1``; it answers y (values,
    grad_fn, graph), y's version and x's gradient through it."""
    def program(T):
        x = T.arange(6, dtype=T.float64).reshape(2, 3).requires_grad_()
        y = x * 1
        fn(T, y)
        (y * T.arange(6, dtype=T.float64).reshape(2, 3)).sum().backward()
        return y, y._version, x.grad
    program.__name__ = fn.__name__
    return case(program)


@_copy_slices
def setitem_nonleaf_row(T, y):
    y[0] = 0


@_copy_slices
def setitem_nonleaf_mask(T, y):
    y[y > 2] = 0


@_copy_slices
def setitem_nonleaf_tensor_value(T, y):
    y[:, 1] = T.tensor([7.0, 8.0], dtype=T.float64)


@_copy_slices
def view_mul_(T, y):
    y[:, 1].mul_(2)


@_copy_slices
def view_add_(T, y):
    y[1].add_(1)


@_copy_slices
def view_zero_(T, y):
    y[:, :2].zero_()


@case
def view_after_its_inplace_op(T):
    x = T.arange(6, dtype=T.float64).reshape(2, 3).requires_grad_()
    y = x * 1
    v = y[:, 1]
    v.mul_(2)
    (v * v).sum().backward()
    return v, v._version, x.grad


@case
def view_exp_then_other_row_changed(T):
    """exp_ saved its output (a row of y); writing another row bumps the version y's views share."""
    x = T.ones(2, 3, dtype=T.float64, requires_grad=True)
    y = x * 2
    y[1].exp_()
    y[0].mul_(3)
    (y * y).sum().backward()


@case
def setitem_value_requires_grad(T):
    x = T.ones(3, requires_grad=True)
    y = T.zeros(2, 3)
    y[0] = x * 2
    y.sum().backward()
    return y, x.grad


# ---------------------------------------------------------------------------------------------
# NaN, inf and degenerate statistics
# ---------------------------------------------------------------------------------------------


def _grad_of(T, values, f):
    x = T.tensor(values, requires_grad=True)
    y = f(x)
    y.sum().backward()
    return y, x.grad


def _warned_grad(T, values, f):
    return _grad_of(T, values, f)


cases(
    var_one_element=lambda T: _grad_of(T, [1.5], lambda x: x.var()),
    std_one_element=lambda T: _grad_of(T, [1.5], lambda x: x.std()),
    var_dim_one_element=lambda T: _grad_of(T, [[1.5], [2.0]], lambda x: x.var(1)),
    var_correction_too_big=lambda T: _grad_of(T, [1.0, 2.0], lambda x: x.var(correction=2)),
    var_empty=lambda T: T.zeros(0).var(),
    sqrt_negative=lambda T: _grad_of(T, [-1.0, 4.0], lambda x: x.sqrt()),
    log_zero=lambda T: _grad_of(T, [0.0, 1.0], lambda x: x.log()),
    log_negative=lambda T: _grad_of(T, [-1.0], lambda x: x.log()),
    div_by_zero=lambda T: _grad_of(T, [1.0, 0.0], lambda x: 1 / x),
    zero_div_zero=lambda T: T.zeros(1) / T.zeros(1),
    exp_overflow=lambda T: _grad_of(T, [1000.0], lambda x: x.exp()),
    nan_sum=lambda T: _grad_of(T, [float("nan"), 1.0], lambda x: x.sum()),
    nan_max=lambda T: T.tensor([1.0, float("nan")]).max(),
    nan_argmax=lambda T: T.tensor([1.0, float("nan")]).argmax(),
    nan_sort=lambda T: T.tensor([float("nan"), 1.0, 0.0]).sort(),
    nan_eq=lambda T: T.tensor([float("nan")]) == T.tensor([float("nan")]),
    inf_minus_inf=lambda T: T.tensor([float("inf")]) - T.tensor([float("inf")]),
    inf_times_zero=lambda T: T.tensor([float("inf")]) * 0,
    int_div_zero=lambda T: T.tensor([1]) // T.tensor([0]),
    int_remainder_zero=lambda T: T.tensor([1]) % T.tensor([0]),
    log_softmax_inf=lambda T: T.tensor([float("inf"), 1.0]).log_softmax(0),
    softmax_large=lambda T: T.tensor([1000.0, 0.0]).softmax(0),
    pow_zero_negative=lambda T: _grad_of(T, [0.0], lambda x: x ** -1),
    pow_negative_half=lambda T: _grad_of(T, [-1.0], lambda x: x ** 0.5),
    abs_at_zero=lambda T: _grad_of(T, [0.0], lambda x: x.abs()),
    norm_at_zero=lambda T: _grad_of(T, [0.0, 0.0], lambda x: x.norm()),
    isnan_ok=lambda T: T.tensor([float("nan"), 1.0]).isnan(),
    nan_to_num_ok=lambda T: T.tensor([float("nan"), float("inf")]).nan_to_num(),
    mean_of_nan=lambda T: T.tensor([float("nan")]).mean(),
    clamp_nan=lambda T: T.tensor([float("nan"), 2.0]).clamp(0, 1),
    float_nan_to_int=lambda T: T.tensor([float("nan")]).long().dtype,
)


# ---------------------------------------------------------------------------------------------
# Creating tensors
# ---------------------------------------------------------------------------------------------

cases(
    empty_too_big=lambda T: T.empty(2 ** 50),  # the CPU allocator's RuntimeError, not NumPy's MemoryError
    zeros_too_big_float64=lambda T: T.zeros(2 ** 25, 2 ** 25, dtype=T.float64),
    randn_too_big=lambda T: T.randn(2 ** 45),
    randint_too_big=lambda T: T.randint(0, 5, (2 ** 50,)),
    ones_size_overflows=lambda T: T.ones(2 ** 62),
    zeros_negative=lambda T: T.zeros(-1),
    ones_negative_2d=lambda T: T.ones(2, -3),
    randn_negative=lambda T: T.randn(-2),
    arange_zero_step=lambda T: T.arange(0, 10, 0),
    arange_wrong_sign=lambda T: T.arange(10, 0),
    linspace_negative_steps=lambda T: T.linspace(0, 1, -1),
    eye_negative=lambda T: T.eye(-1),
    full_int_fill_ok=lambda T: T.full((2,), 3).dtype,
    zeros_like_list=lambda T: T.zeros_like([1.0, 2.0]),
    randint_low_high=lambda T: T.randint(5, 2, (3,)),
    tensor_empty_ok=lambda T: T.tensor([]),
    tensor_none=lambda T: T.tensor(None),
    tensor_dict=lambda T: T.tensor({"a": 1}),
    tensor_mixed_bool_float=lambda T: T.tensor([True, 1.5]),
    tensor_int_big_ok=lambda T: T.tensor([2 ** 40]),
    tensor_int_overflow=lambda T: T.tensor([2 ** 70]),
)


# ---------------------------------------------------------------------------------------------
# Optimizers
# ---------------------------------------------------------------------------------------------

cases(
    sgd_empty_params=lambda T: T.optim.SGD([], lr=0.1),
    adam_empty_params=lambda T: T.optim.Adam([], lr=0.1),
    sgd_exhausted_generator=lambda T: _exhausted(T),
    sgd_non_leaf=lambda T: T.optim.SGD([_w(T, 2) * 2], lr=0.1),
    sgd_negative_lr=lambda T: T.optim.SGD([_w(T, 2)], lr=-1),
    adam_negative_lr=lambda T: T.optim.Adam([_w(T, 2)], lr=-0.1),
    sgd_negative_momentum=lambda T: T.optim.SGD([_w(T, 2)], lr=0.1, momentum=-0.5),
    sgd_negative_weight_decay=lambda T: T.optim.SGD([_w(T, 2)], lr=0.1, weight_decay=-1),
    sgd_nesterov_no_momentum=lambda T: T.optim.SGD([_w(T, 2)], lr=0.1, nesterov=True),
    adam_bad_beta=lambda T: T.optim.Adam([_w(T, 2)], betas=(1.5, 0.9)),
    adam_bad_beta2=lambda T: T.optim.Adam([_w(T, 2)], betas=(0.9, -0.1)),
    adam_negative_eps=lambda T: T.optim.Adam([_w(T, 2)], eps=-1),
    sgd_single_tensor=lambda T: T.optim.SGD(_w(T, 2), lr=0.1),
    sgd_parameters_method=lambda T: T.optim.SGD(T.nn.Linear(2, 2).parameters, lr=0.1),
    sgd_duplicate_params=lambda T: _duplicate(T),
    sgd_int_param=lambda T: T.optim.SGD([T.tensor([1, 2])], lr=0.1),
    sgd_step_without_backward=lambda T: _step_without_backward(T),
    sgd_forgot_zero_grad=lambda T: _forgot_zero_grad(T),
    sgd_default_lr=lambda T: T.optim.SGD([_w(T, 2)]).param_groups[0]["lr"],
    sgd_lr_tensor_ok=lambda T: T.optim.SGD([_w(T, 2)], lr=0.1).defaults["lr"],
    zero_grad_sets_none=lambda T: _zero_grad_none(T),
    add_param_group_duplicate=lambda T: _add_group_dup(T),
)


def _exhausted(T):
    model = T.nn.Linear(2, 2)
    params = model.parameters()
    list(params)
    return T.optim.SGD(params, lr=0.1)


def _duplicate(T):
    w = _w(T, 2)
    return len(T.optim.SGD([w, w], lr=0.1).param_groups[0]["params"])


def _step_without_backward(T):
    w = _w(T, 2)
    T.optim.SGD([w], lr=0.1).step()
    return w


def _forgot_zero_grad(T):
    w = _w(T, 2)
    opt = T.optim.SGD([w], lr=0.1)
    for _ in range(2):
        (w * w).sum().backward()
        opt.step()
    return w.grad


def _zero_grad_none(T):
    w = _w(T, 2)
    opt = T.optim.SGD([w], lr=0.1)
    (w * w).sum().backward()
    opt.zero_grad()
    return w.grad


def _add_group_dup(T):
    w = _w(T, 2)
    opt = T.optim.SGD([w], lr=0.1)
    opt.add_param_group({"params": [w]})


# ---------------------------------------------------------------------------------------------
# Modules and losses
# ---------------------------------------------------------------------------------------------


def _no_super(T):
    class Net(T.nn.Module):
        def __init__(self):
            self.fc = T.nn.Linear(2, 2)
    return Net()


def _param_before_init(T):
    class Net(T.nn.Module):
        def __init__(self):
            self.w = T.nn.Parameter(T.ones(2))
            super().__init__()
    return Net()


def _tensor_before_init_ok(T):
    class Net(T.nn.Module):
        def __init__(self):
            self.scale = 2.0
            super().__init__()
    return Net().scale


def _no_forward(T):
    class Net(T.nn.Module):
        pass
    return Net()(T.ones(2))


def _forward_misnamed(T):
    class Net(T.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = T.nn.Linear(2, 2)

        def foward(self, x):
            return self.fc(x)
    return Net()(T.ones(2))


def _state_dict_load(T, edit, strict=True):
    T.manual_seed(0)
    model = T.nn.Linear(2, 3)
    sd = dict(model.state_dict())
    edit(T, sd)
    return model.load_state_dict(sd, strict=strict)


def _drop_bias(T, sd):
    del sd["bias"]


def _extra_key(T, sd):
    sd["scale"] = T.ones(1)


def _wrong_size(T, sd):
    sd["weight"] = T.ones(3, 3)


def _renamed(T, sd):
    sd["fc.weight"] = sd.pop("weight")
    sd["fc.bias"] = sd.pop("bias")


cases(
    module_no_super_init=_no_super,
    module_param_before_init=_param_before_init,
    module_attr_before_init_ok=_tensor_before_init_ok,
    module_no_forward=_no_forward,
    module_forward_misnamed=_forward_misnamed,
    module_missing_attr=lambda T: T.nn.Linear(2, 2).weights,
    module_call_no_input=lambda T: T.nn.Linear(2, 2)(),
    linear_wrong_in_features=lambda T: _seeded(T, lambda: T.nn.Linear(3, 2)(T.ones(2, 4))),
    linear_wrong_in_features_1d=lambda T: _seeded(T, lambda: T.nn.Linear(3, 2)(T.ones(4))),
    linear_0d_input=lambda T: _seeded(T, lambda: T.nn.Linear(3, 2)(T.tensor(1.0))),
    linear_transposed_batch=lambda T: _seeded(T, lambda: T.nn.Linear(3, 2)(T.ones(3, 5))),
    linear_numpy_input=lambda T: _seeded(T, lambda: T.nn.Linear(3, 2)(np.ones((1, 3), dtype=np.float32))),
    linear_list_input=lambda T: _seeded(T, lambda: T.nn.Linear(3, 2)([1.0, 2.0, 3.0])),
    sequential_index_out_of_range=lambda T: T.nn.Sequential(T.nn.ReLU())[3],
    sequential_shape_chain=lambda T: _seeded(
        T, lambda: T.nn.Sequential(T.nn.Linear(2, 3), T.nn.Linear(4, 1))(T.ones(1, 2))),
    sequential_list_arg=lambda T: T.nn.Sequential([T.nn.ReLU()]),
    load_state_dict_missing=lambda T: _state_dict_load(T, _drop_bias),
    load_state_dict_unexpected=lambda T: _state_dict_load(T, _extra_key),
    load_state_dict_size=lambda T: _state_dict_load(T, _wrong_size),
    load_state_dict_prefixed=lambda T: _state_dict_load(T, _renamed),
    load_state_dict_not_strict=lambda T: _state_dict_load(T, _renamed, strict=False),
    load_state_dict_not_dict=lambda T: T.nn.Linear(2, 2).load_state_dict([1, 2]),
    batchnorm_wrong_features=lambda T: T.nn.BatchNorm1d(3)(T.ones(4, 2)),
    batchnorm_batch_of_one=lambda T: T.nn.BatchNorm1d(3)(T.ones(1, 3)),
    batchnorm_eval_batch_of_one_ok=lambda T: T.nn.BatchNorm1d(3).eval()(T.ones(1, 3)),
    batchnorm_1d_input=lambda T: T.nn.BatchNorm1d(3)(T.ones(3)),
    relu_inplace_nonleaf_ok=lambda T: T.nn.ReLU(inplace=True)(_w(T, 2) - 1),
    softmax_no_dim=lambda T: T.nn.functional.softmax(_x(T, 2, 2)),
    softmax_module_no_dim=lambda T: T.nn.Softmax()(_x(T, 2, 2)),
    log_softmax_no_dim=lambda T: T.nn.functional.log_softmax(_x(T, 3)),
    dropout_bad_p=lambda T: T.nn.Dropout(1.5),
    dropout_functional_bad_p=lambda T: T.nn.functional.dropout(_x(T, 2), p=-0.1),
    parameter_of_list=lambda T: T.nn.Parameter([1.0, 2.0]),
    loss_bad_reduction=lambda T: T.nn.MSELoss(reduction="avg")(_x(T, 2), _x(T, 2)),
)


def _logits(T, n=2, c=3):
    return _w(T, n, c) / 10


cases(
    cross_entropy_target_column=lambda T: T.nn.CrossEntropyLoss()(_logits(T), T.tensor([[0], [1]])),
    cross_entropy_target_out_of_range=lambda T: T.nn.CrossEntropyLoss()(_logits(T), T.tensor([0, 5])),
    cross_entropy_target_negative=lambda T: T.nn.CrossEntropyLoss()(_logits(T), T.tensor([0, -2])),
    cross_entropy_float_class_target=lambda T: T.nn.CrossEntropyLoss()(_logits(T), T.tensor([0.0, 1.0])),
    cross_entropy_batch_mismatch=lambda T: T.nn.CrossEntropyLoss()(_logits(T), T.tensor([0, 1, 2])),
    cross_entropy_int_input=lambda T: T.nn.CrossEntropyLoss()(T.tensor([[1, 2]]), T.tensor([0])),
    cross_entropy_probabilities_ok=lambda T: T.nn.CrossEntropyLoss()(_logits(T), T.softmax(_x(T, 2, 3), 1)),
    cross_entropy_swapped_args=lambda T: T.nn.CrossEntropyLoss()(T.tensor([0, 1]), _logits(T)),
    cross_entropy_1d_ok=lambda T: T.nn.CrossEntropyLoss()(_w(T, 3), T.tensor(1)),
    nll_loss_float_target=lambda T: T.nn.functional.nll_loss(_logits(T), T.tensor([0.0, 1.0])),
    nll_loss_int32_target=lambda T: T.nn.functional.nll_loss(
        _logits(T), T.from_numpy(np.array([0, 1], dtype=np.int32))),
    nll_loss_target_3d=lambda T: T.nn.functional.nll_loss(_logits(T), T.tensor([[[0]]])),
    nll_loss_0d_input=lambda T: T.nn.functional.nll_loss(T.tensor(1.0), T.tensor(0)),
    nll_loss_weight_wrong_size=lambda T: T.nn.functional.nll_loss(_logits(T), T.tensor([0, 1]),
                                                                  weight=T.ones(2)),
    cross_entropy_numpy_class_weights=lambda T: T.nn.CrossEntropyLoss(  # float64 weights, float32 logits
        weight=T.tensor(np.array([0.2, 0.3, 0.5])))(_logits(T), T.tensor([0, 2])),
    nll_loss_float_weight_double_input=lambda T: T.nn.functional.nll_loss(
        _logits(T).double(), T.tensor([0, 2]), weight=T.ones(3)),
    nll_loss_int_input=lambda T: T.nn.functional.nll_loss(T.tensor([[1, 2, 3]]), T.tensor([0])),
    mse_shape_mismatch_warns=lambda T: T.nn.MSELoss()(_w(T, 3, 1), _x(T, 3)),
    mse_no_broadcast=lambda T: T.nn.MSELoss()(_w(T, 3), _x(T, 2)),
    mse_swapped_grad_ok=lambda T: T.nn.MSELoss()(_x(T, 3), _w(T, 3)),
    mse_list_target=lambda T: T.nn.MSELoss()(_w(T, 2), [1.0, 2.0]),
    smooth_l1_no_broadcast=lambda T: T.nn.SmoothL1Loss()(_w(T, 2, 3), _x(T, 4)),
    smooth_l1_no_broadcast_negative_beta=lambda T: T.nn.functional.smooth_l1_loss(_w(T, 2, 3), _x(T, 4), beta=-1.0),
    huber_no_broadcast=lambda T: T.nn.HuberLoss()(_w(T, 2, 3), _x(T, 4)),
    huber_broadcast_warns=lambda T: T.nn.HuberLoss()(_w(T, 2, 3), _x(T, 3)),
    loss_class_called_with_tensors=lambda T: T.nn.MSELoss(_x(T, 2), _x(T, 2)),
)


# ---------------------------------------------------------------------------------------------
# Loading data
# ---------------------------------------------------------------------------------------------


def _dataset(T, n=4):
    return T.utils.data.TensorDataset(_x(T, n, 2), T.arange(n))


cases(
    dataloader_batch_size_zero=lambda T: T.utils.data.DataLoader(_dataset(T), batch_size=0),
    dataloader_batch_size_negative=lambda T: T.utils.data.DataLoader(_dataset(T), batch_size=-1),
    dataloader_batch_size_float=lambda T: T.utils.data.DataLoader(_dataset(T), batch_size=2.0),
    dataloader_next_without_iter=lambda T: next(T.utils.data.DataLoader(_dataset(T))),
    dataloader_index=lambda T: T.utils.data.DataLoader(_dataset(T))[0],
    dataloader_shuffle_and_sampler=lambda T: T.utils.data.DataLoader(
        _dataset(T), shuffle=True, sampler=T.utils.data.SequentialSampler(range(4))),
    dataloader_len_drop_last_ok=lambda T: len(T.utils.data.DataLoader(_dataset(T, 5), batch_size=2,
                                                                      drop_last=True)),
    dataloader_len_ok=lambda T: len(T.utils.data.DataLoader(_dataset(T, 5), batch_size=2)),
    dataloader_ragged_batch=lambda T: list(T.utils.data.DataLoader([_x(T, 2), _x(T, 3)], batch_size=2)),
    tensor_dataset_size_mismatch=lambda T: T.utils.data.TensorDataset(_x(T, 4), _x(T, 3)),
    dataset_index_out_of_range=lambda T: _dataset(T)[10],
    dataset_negative_index_ok=lambda T: _dataset(T)[-1],
    random_split_wrong_lengths=lambda T: T.utils.data.random_split(range(10), [3, 3]),
    random_split_bad_fractions=lambda T: T.utils.data.random_split(range(10), [0.5, 0.6]),
    subset_index_out_of_range=lambda T: T.utils.data.Subset(range(5), [0, 9])[1],
    dataset_base_getitem=lambda T: T.utils.data.Dataset()[0],
    dataset_base_len=lambda T: len(T.utils.data.Dataset()),
)


# ---------------------------------------------------------------------------------------------
# What a learner sees of a case
# ---------------------------------------------------------------------------------------------


def outcome(program, lib):
    """``program(lib)``'s answer: its result (or the exception it raised, as ErrorRecord) and
    the warnings it raised, as (category, message) lists."""
    from oracle import ErrorRecord, warning_text  # tests/ is on the path of the test run
    with warnings.catch_warnings(record=True) as log:
        warnings.simplefilter("always")
        try:
            result = _plain(program(lib))
        except Exception as e:  # noqa: BLE001 - the exception is the answer
            result = ErrorRecord(type(e).__name__, str(e))
    return {"result": result, "warnings": [list(warning_text(w)) for w in log]}


def _plain(value):
    """A result the oracle can record: what it cannot (a dtype, a module, an optimizer) as
    its repr."""
    from oracle import record
    if isinstance(value, (tuple, list)) and type(value) in (tuple, list):
        return type(value)(_plain(v) for v in value)
    try:
        return record(value)
    except TypeError:
        return repr(value)


# -- an old tutorial's loss arguments: size_average= and reduce= (deprecated, still honoured) -----
def _legacy(T, make):
    pred, target = _w(T, 2, 3), T.tensor([[0.0, 1.0, 0.0], [1.0, 1.0, 0.0]])
    labels = T.tensor([2, 0])
    return make(T.nn, T.nn.functional, pred, target, labels)


cases(
    mse_loss_size_average_false=lambda T: _legacy(T, lambda nn, F, p, t, y: F.mse_loss(p, t, size_average=False)),
    l1_loss_reduce_false=lambda T: _legacy(T, lambda nn, F, p, t, y: F.l1_loss(p, t, reduce=False)),
    smooth_l1_loss_size_average_false=lambda T: _legacy(
        T, lambda nn, F, p, t, y: F.smooth_l1_loss(p, t, size_average=False)),
    nll_loss_size_average_false=lambda T: _legacy(
        T, lambda nn, F, p, t, y: F.nll_loss(p.log_softmax(1), y, size_average=False)),
    cross_entropy_reduce_false=lambda T: _legacy(T, lambda nn, F, p, t, y: F.cross_entropy(p, y, reduce=False)),
    bce_size_average_false=lambda T: _legacy(
        T, lambda nn, F, p, t, y: F.binary_cross_entropy(p.sigmoid(), t, size_average=False)),
    bce_with_logits_reduce_false=lambda T: _legacy(
        T, lambda nn, F, p, t, y: F.binary_cross_entropy_with_logits(p, t, reduce=False)),
    kl_div_size_average_false=lambda T: _legacy(
        T, lambda nn, F, p, t, y: F.kl_div(p.log_softmax(1), t.softmax(1), size_average=False)),
    CrossEntropyLoss_size_average_false=lambda T: _legacy(
        T, lambda nn, F, p, t, y: nn.CrossEntropyLoss(size_average=False)(p, y)),
    NLLLoss_reduce_false=lambda T: _legacy(T, lambda nn, F, p, t, y: nn.NLLLoss(reduce=False)(p.log_softmax(1), y)),
    MSELoss_size_average_false=lambda T: _legacy(T, lambda nn, F, p, t, y: nn.MSELoss(size_average=False)(p, t)),
)


# -- changing a piece of split / unbind in place: PyTorch refuses (one node makes every piece's
#    gradient); unsafe_split's pieces, and any piece under no_grad, may be changed ----------------
def _rows_plus_one(T):
    x = _w(T, 2, 3) * 1
    for row in x:
        row += 1
    return x


def _pieces_under_no_grad(T):
    x = _w(T, 4) * 1
    a, b = x.split(2)
    with T.no_grad():
        a.add_(1)
    return x  # (a itself is now unusable in PyTorch: its grad_fn raises)


def _unsafe_piece_in_place(T):
    x = _w(T, 4) * 1
    a, b = x.unsafe_chunk(2)
    a.mul_(2)
    return a, x, b


cases(
    split_piece_in_place=lambda T: (_w(T, 4) * 1).split(2)[0].add_(1),
    split_second_piece_in_place=lambda T: (_w(T, 4) * 1).split(2)[1].mul_(2),
    split_sizes_piece_in_place=lambda T: (_w(T, 4) * 1).split([1, 3])[1].zero_(),
    split_of_a_leaf_in_place=lambda T: _w(T, 4).split(2)[0].add_(1),
    chunk_one_piece_in_place=lambda T: (_w(T, 4) * 1).chunk(1)[0].add_(1),
    unbind_rows_in_place=_rows_plus_one,
    view_of_a_piece_in_place=lambda T: (_w(T, 2, 3) * 1).unbind()[1][1:].mul_(2),
    piece_item_assignment=lambda T: (_w(T, 4) * 1).split(2)[0].__setitem__(0, 5.0),
    split_piece_in_place_no_grad_ok=_pieces_under_no_grad,
    unsafe_piece_in_place_ok=_unsafe_piece_in_place,
)
