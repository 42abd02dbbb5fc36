# source: https://github.com/ecmwf/earthkit-hydro/commit/bf536df81a0ff9906b20b27cce2d403012e1df4d
# expect: stale-closure at line 395
# runtime: COMPILES 1 CALLS 2
# why: before the fix, the jitted jax_func closes over the river_network of the first call and is cached in the decorator, so a call on a second network silently reuses the first network's graph (result [1,2,3,4] instead of [1,1,1,2]).
# --- measurement harness: counts XLA backend compiles per jitted function name ---
import os

os.environ.setdefault("JAX_PLATFORMS", "cpu")
from jax import monitoring as _monitoring

_COMPILED = []  # one entry per XLA compile, e.g. "jit(step)"


def _on_duration(event, duration_secs, **kwargs):
    if event == "/jax/core/compile/backend_compile_duration":
        _COMPILED.append(kwargs.get("fun_name"))


_monitoring.register_event_duration_secs_listener(_on_duration)


def _report(targets, calls):
    n = sum(1 for name in _COMPILED if name in targets)
    print(f"COMPILES {n} CALLS {calls}")



import types  # scaffolding: stands in for the package's module namespaces
from functools import wraps

import numpy as np
import jax
import jax.numpy as jnp


# --- scaffolding: minimal stand-ins for earthkit.hydro._backends (array_backend.py, jax_backend.py, find.py) ---
class ArrayBackend:
    def __init__(self, module):
        self._mod = module

    def __getattr__(self, name):
        return getattr(self._mod, name)  # Delegate to underlying module


class JAXBackend(ArrayBackend):
    def __init__(self):
        super().__init__(jnp)

    @property
    def name(self):
        return "jax"

    def copy(self, x):
        return x

    def gather(self, arr, indices, axis=-1):
        assert axis == -1
        return arr[..., indices]

    def scatter_assign(self, target, indices, updates):
        return target.at[..., indices].set(updates)

    def scatter_add(self, target, indices, updates):
        return target.at[(*[slice(None)] * (target.ndim - 1), indices)].add(updates)


def get_array_backend(x):
    if type(x) is str:
        mod = x
    else:
        mod = type(x).__module__
    if "jax" in mod:
        return JAXBackend()
    else:
        raise TypeError(f"Unsupported array type: {type(x)}")  # scaffolding: other backends cut


# --- src/earthkit/hydro/_core/metrics.py (SumBased only; scatter_max/min backends cut: scaffolding) ---
def metrics_func_finder(metric, xp):

    class SumBased:
        func = xp.scatter_add
        base_val = 0

    metrics_dict = {
        "sum": SumBased,
        "mean": SumBased,
        "std": SumBased,
        "var": SumBased,
    }
    return metrics_dict[metric]


# --- src/earthkit/hydro/_core/flow.py ---
def propagate(
    river_network,
    groups,
    field,
    invert_graph,
    operation,
    *args,
    **kwargs,
):
    if invert_graph:
        for uid, did, eid in groups[::-1]:
            field = operation(field, did, uid, eid, *args, **kwargs)
    else:
        for did, uid, eid in groups:
            field = operation(field, did, uid, eid, *args, **kwargs)

    return field


# --- src/earthkit/hydro/_core/_accumulate.py (docstring cut) ---
def _ufunc_to_downstream(
    field,
    did,
    uid,
    eid,
    node_additive_weight,
    node_multiplicative_weight,
    node_modifier_use_upstream,
    edge_additive_weight,
    edge_multiplicative_weight,
    func,
    xp,
):
    modifier_group = uid if node_modifier_use_upstream else did

    modifier_field = xp.gather(field, uid, axis=-1)
    # ADD HAPPENS BEFORE MULT
    # TODO: add an option to switch order
    if node_additive_weight is not None:
        modifier_field += node_additive_weight[..., modifier_group]
    if edge_additive_weight is not None:
        modifier_field += edge_additive_weight[..., eid]
    if node_multiplicative_weight is not None:
        modifier_field *= node_multiplicative_weight[..., modifier_group]
    if edge_multiplicative_weight is not None:
        modifier_field *= edge_multiplicative_weight[..., eid]
    return func(
        field,
        did,
        modifier_field,
    )


# --- src/earthkit/hydro/_core/accumulate.py (flow, flow_python) ---
def flow(
    xp,
    river_network,
    field,
    func,
    invert_graph=False,
    node_additive_weight=None,
    node_multiplicative_weight=None,
    node_modifier_use_upstream=True,
    edge_additive_weight=None,
    edge_multiplicative_weight=None,
):

    return flow_python(
        xp,
        river_network,
        field,
        func,
        invert_graph,
        node_additive_weight,
        node_multiplicative_weight,
        node_modifier_use_upstream,
        edge_additive_weight,
        edge_multiplicative_weight,
    )


def flow_python(
    xp,
    river_network,
    field,
    func,
    invert_graph=False,
    node_additive_weight=None,
    node_multiplicative_weight=None,
    node_modifier_use_upstream=True,
    edge_additive_weight=None,
    edge_multiplicative_weight=None,
):
    op = _ufunc_to_downstream

    def operation(
        field,
        did,
        uid,
        eid,
        node_additive_weight,
        node_multiplicative_weight,
        node_modifier_use_upstream,
        edge_additive_weight,
        edge_multiplicative_weight,
    ):
        return op(
            field,
            did,
            uid,
            eid,
            node_additive_weight,
            node_multiplicative_weight,
            node_modifier_use_upstream,
            edge_additive_weight,
            edge_multiplicative_weight,
            func=func,
            xp=xp,
        )

    field = propagate(
        river_network,
        river_network.groups,
        field,
        invert_graph,
        operation,
        node_additive_weight,
        node_multiplicative_weight,
        node_modifier_use_upstream,
        edge_additive_weight,
        edge_multiplicative_weight,
    )

    return field


# --- src/earthkit/hydro/_core/online.py ---
def calculate_online_metric(
    xp,
    river_network,
    field,
    metric,
    node_weights,
    edge_weights,
    flow_direction,
):
    if flow_direction == "up":
        invert_graph = True
    elif flow_direction == "down":
        invert_graph = False
    else:
        raise ValueError(
            f"flow_direction must be 'up' or 'down', got {flow_direction}."
        )

    field = xp.copy(field)

    if node_weights is None:
        if metric == "mean" or metric == "std" or metric == "var":
            node_weights = xp.ones(river_network.n_nodes, dtype=xp.float64)
    else:
        node_weights = xp.copy(node_weights)

    if edge_weights is not None:
        edge_weights = xp.copy(edge_weights)

    func = metrics_func_finder(metric, xp).func

    weighted_field = flow(
        xp,
        river_network,
        field if node_weights is None else field * node_weights,
        func,
        invert_graph,
        edge_multiplicative_weight=edge_weights,
    )

    if metric == "mean" or metric == "std" or metric == "var":
        counts = flow(
            xp,
            river_network,
            xp.copy(node_weights),
            func,
            invert_graph,
            edge_multiplicative_weight=edge_weights,
        )

        if metric == "mean":
            weighted_field /= counts
            return weighted_field
        elif metric == "var" or metric == "std":
            weighted_sum_of_squares = flow(
                xp,
                river_network,
                field**2 if node_weights is None else field**2 * node_weights,
                func,
                invert_graph,
                edge_multiplicative_weight=edge_weights,
            )
            mean = weighted_field / counts
            weighted_sum_of_squares = weighted_sum_of_squares / counts - mean**2
            if metric == "var":
                return weighted_sum_of_squares
            elif metric == "std":
                return xp.sqrt(weighted_sum_of_squares)
    else:
        return weighted_field


# --- src/earthkit/hydro/_utils/decorators/masking.py ---
def mask(unmask=True):

    def decorator(func):

        @wraps(func)
        def wrapper(xp, river_network, field, *args, **kwargs):

            if field.shape[-2:] == river_network.shape:
                args, kwargs = process_args_kwargs(xp, river_network, args, kwargs)
                field_1d = mask_last2_dims(xp, field, river_network.mask, field.shape)

                out_1d = func(xp, river_network, field_1d, *args, **kwargs)

                if unmask:
                    out_shape = field.shape
                    return scatter_and_reshape(
                        xp,
                        river_network.mask,
                        out_1d,
                        out_shape,
                        device=river_network.device,
                    )
                else:
                    return out_1d
            else:
                out_1d = func(xp, river_network, field, *args, **kwargs)
                if unmask:
                    out_shape = field.shape[:-2] + river_network.shape
                    return scatter_and_reshape(
                        xp,
                        river_network.mask,
                        out_1d,
                        out_shape,
                        device=river_network.device,
                    )
                else:
                    return out_1d

        return wrapper

    return decorator


def mask_last2_dims(xp, tensor, mask, target_shape):
    B = target_shape[:-2]
    M, N = target_shape[-2], target_shape[-1]
    flat_shape = B + (M * N,)
    tensor_flat = xp.reshape(tensor, flat_shape)
    return xp.gather(tensor_flat, mask, axis=-1)


def scatter_and_reshape(xp, mask, out_1d, target_shape, device):
    B = target_shape[:-2]
    M, N = target_shape[-2], target_shape[-1]
    flat_shape = B + (M * N,)
    out_flat = xp.full(flat_shape, xp.nan, device=device)
    out_flat = xp.scatter_assign(out_flat, mask, out_1d)
    return xp.reshape(out_flat, target_shape)


def process_args_kwargs(xp, river_network, args, kwargs):
    def process_arg(arg):
        if (
            hasattr(arg, "shape")  # TODO: decide if robust enough
            and len(arg.shape) >= 2
            and arg.shape[-2:] == river_network.shape
        ):
            return mask_last2_dims(xp, arg, river_network.mask, arg.shape)
        return arg

    new_args = tuple(process_arg(arg) for arg in args)
    new_kwargs = {k: process_arg(v) for k, v in kwargs.items()}
    return new_args, new_kwargs


# --- src/earthkit/hydro/_utils/decorators/array_backend.py (before bf536df) ---
def multi_backend(allow_jax_jit=True):
    def decorator(func):
        compiled_jax_fn = None

        @wraps(func)
        def wrapper(river_network, *args, **kwargs):
            xp = get_array_backend(river_network.groups[0])
            backend_name = xp.name
            if backend_name == "jax" and allow_jax_jit:
                nonlocal compiled_jax_fn
                if compiled_jax_fn is None:
                    from jax import jit

                    def jax_func(*args, **kwargs):
                        return func(xp, river_network, *args, **kwargs)

                    compiled_jax_fn = jit(jax_func)
                return compiled_jax_fn(*args, **kwargs)
            else:
                return func(xp, river_network, *args, **kwargs)

        return wrapper

    return decorator


# --- src/earthkit/hydro/upstream/array/_operations.py (sum; before bf536df) ---
def calculate_upstream_metric(
    xp,
    river_network,
    field,
    metric,
    node_weights,
    edge_weights,
):
    return calculate_online_metric(
        xp,
        river_network,
        field,
        metric,
        node_weights,
        edge_weights,
        flow_direction="down",
    )


@multi_backend()
def sum(xp, river_network, field, node_weights, edge_weights, return_type):
    return_type = river_network.return_type if return_type is None else return_type
    if return_type not in ["gridded", "masked"]:
        raise ValueError("return_type must be either 'gridded' or 'masked'.")
    decorated_calculate_upstream_metric = mask(return_type == "gridded")(
        calculate_upstream_metric
    )
    return decorated_calculate_upstream_metric(
        xp,
        river_network,
        field,
        "sum",
        node_weights,
        edge_weights,
    )


_operations = types.SimpleNamespace(sum=sum)  # scaffolding: the module object


# --- src/earthkit/hydro/upstream/array/_toplevel.py (sum; docstring cut) ---
def sum(river_network, field, node_weights=None, edge_weights=None, return_type=None):
    return _operations.sum(
        river_network, field, node_weights, edge_weights, return_type
    )


upstream = types.SimpleNamespace(sum=sum)  # scaffolding: the public earthkit.hydro.upstream.array module
del sum  # scaffolding: give the name back to the builtin used by the harness


# --- scaffolding: a tiny stand-in for earthkit.hydro.data_structures.RiverNetwork (2x2 grid, 4 nodes) ---
class RiverNetwork:  # scaffolding
    def __init__(self, groups, n_edges):  # scaffolding
        self.groups = [jnp.asarray(g, dtype=jnp.int32) for g in groups]  # scaffolding: (did, uid, eid) per group
        self.n_nodes = 4  # scaffolding
        self.n_edges = n_edges  # scaffolding
        self.shape = (2, 2)  # scaffolding
        self.mask = jnp.arange(4)  # scaffolding
        self.device = None  # scaffolding
        self.return_type = "gridded"  # scaffolding


chain = RiverNetwork([[[1], [0], [0]], [[2], [1], [1]], [[3], [2], [2]]], n_edges=3)  # scaffolding: 0->1->2->3
single_edge = RiverNetwork([[[3], [0], [0]]], n_edges=1)  # scaffolding: only 0->3
field = jnp.ones(4)  # scaffolding


out_chain = upstream.sum(chain, field)  # scaffolding: return_type=None, so no str reaches jit
out_single = upstream.sum(single_edge, field)  # scaffolding: a second river network
print("chain", np.asarray(out_chain).ravel().tolist())  # scaffolding: expected [1, 2, 3, 4]
print("single_edge", np.asarray(out_single).ravel().tolist())  # scaffolding: expected [1, 1, 1, 2]
print("stale:", np.allclose(out_single, out_chain))  # scaffolding
_report({"jit(jax_func)"}, 2)  # scaffolding
