# source: https://github.com/AdrienCorenflos/parallel-ps/commit/6f520ad3bd615558d6b2a6a58129d2cb2f295df1
# expect: bad-static-spec at line 47
# runtime: ERROR ValueError
# why: dc_map jits _dc_map(elems, operator) with static_argnums=(1, 2), but _dc_map takes only two positional arguments, which jax now rejects when the wrapper is built, so every dc_map call raises; the commit ('static argnums overflowing ... JAX stricter handling') drops the 2.

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


# --- end harness ---
import math
from collections import namedtuple
from functools import partial
from typing import Callable

import jax
import jax.numpy as jnp
import numpy as np

PyTree = object  # scaffolding: parallel_ps.base.PyTree
jax.tree_map = jax.tree_util.tree_map  # scaffolding: jax.tree_map / jax.tree_flatten were removed from jax
jax.tree_flatten = jax.tree_util.tree_flatten  # scaffolding

_EPS = 0.1  # this is a small float to make sure that log2(2**k) = k exactly


def dc_map(elems: PyTree, operator: Callable[[PyTree, PyTree], PyTree]) -> PyTree:
    # (docstring trimmed)
    return jax.jit(_dc_map, static_argnums=(1, 2))(elems, operator)


def _dc_map(elems, operator):
    # (docstring trimmed)
    flat_tree, _ = jax.tree_flatten(elems)
    shapes = jax.tree_map(jnp.shape, elems)

    T = flat_tree[0].shape[0]
    pow_2 = _next_power_of_2(T)
    K = int(math.log2(pow_2 + _EPS))

    indices = np.arange(pow_2)
    padded_elems = jax.tree_map(lambda elem: _pad(elem, pow_2, T), elems)  # pad with operator zeros (algebraic sense)

    def combine(tree_a, indices_a, tree_b, indices_b):
        # Compute the location where we can use the operator.
        # Instead of a boolean mask we could also compute the slice of indices explicitly.
        # Not sure which one would be best.
        mask = np.logical_and(indices_a[..., -1] < T, indices_b[..., 0] < T)

        tree_a_use = jax.tree_map(lambda z: z[mask], tree_a)
        tree_b_use = jax.tree_map(lambda z: z[mask], tree_b)

        tree_a_no_use = jax.tree_map(lambda z: z[~mask], tree_a)
        tree_b_no_use = jax.tree_map(lambda z: z[~mask], tree_b)

        combined = operator(tree_a_use, tree_b_use)
        unchanged = _passthrough(tree_a_no_use, tree_b_no_use)

        return jax.tree_map(lambda u, v: jnp.concatenate([u, v], 0), combined, unchanged)

    for k in range(K):
        two_k = 2 ** k
        reshaped_tree = jax.tree_map(lambda elem, shape: _reshape(elem, two_k, shape), padded_elems, shapes)
        indices = np.reshape(indices, (-1, two_k))

        even_elems = jax.tree_map(lambda z: z[::2], reshaped_tree)
        odd_elems = jax.tree_map(lambda z: z[1::2], reshaped_tree)

        even_indices, odd_indices = indices[::2], indices[1::2]

        padded_elems = combine(even_elems, even_indices, odd_elems, odd_indices)

    return jax.tree_map(lambda z, shape: z[0, :T, ...].reshape(shape), padded_elems, shapes)


def _next_power_of_2(n):
    q, mod = n, 0
    k = 0
    while q > 1:
        q, mod_ = divmod(q, 2)
        mod += mod_
        k += 1
    if mod:
        k += 1
    return 2 ** k


@jax.vmap
@partial(jax.jit, donate_argnums=(0, 1))
def _passthrough(tree_a, tree_b):
    return jax.tree_map(lambda x, y: jnp.concatenate([x, y], 0),
                        tree_a, tree_b)


@partial(jax.jit, static_argnums=(1, 2), donate_argnums=(0,))
def _pad(elem, pow_2, T):
    dtype = elem.dtype
    if jnp.issubdtype(dtype, jnp.integer):
        constant_val = 0
    else:
        constant_val = jnp.nan
    pad_width = [(0, pow_2 - T)] + [(0, 0)] * (elem.ndim - 1)
    return jnp.pad(elem, pad_width=pad_width, constant_values=constant_val)


@partial(jax.jit, static_argnums=(1, 2), donate_argnums=(0,))
def _reshape(elem, intermediary_shape, original_shape):
    shape = -1, intermediary_shape, *original_shape[1:]
    return jnp.reshape(elem, shape)


# --- tests/test_dc_map.py (pytest fixture dropped) ---
some_structure = namedtuple("some_structure", ["x", "y"])
np.random.seed(42)


@jax.vmap
def add(a, b):
    a_x, a_y = a
    b_x, b_y = b
    b_x = b_x + a_x[-1]
    a_y = a_y + b_y[0]

    x = jnp.concatenate([a_x, b_x], 0)
    y = jnp.concatenate([a_y, b_y], 0)
    return some_structure(x, y)


calls = 0  # scaffolding
try:  # scaffolding
    for T in [19, 19, 19]:  # scaffolding: the test loops over T in np.arange(16, 35, 3); one length, three draws here
        x_init = np.random.randn(T, 3)
        y_init = np.random.randn(T, 4)
        elems = some_structure(x_init, y_init)
        result = dc_map(elems, add)
        calls += 1  # scaffolding

        np.testing.assert_allclose(result.x, np.cumsum(x_init, axis=0), atol=1e-5)
        np.testing.assert_allclose(result.y[::-1], np.cumsum(y_init[::-1], axis=0), atol=1e-5)
    _report({"jit(_dc_map)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
