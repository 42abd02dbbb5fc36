# source: https://github.com/ott-jax/ott/pull/408
# expect: trace-time-error at line 127
# runtime: ERROR NonConcreteBooleanIndexError
# why: _quantile builds the odd-index selection mask with jnp.concatenate/jnp.zeros/jnp.ones, so under jax.jit the mask is a tracer and out[odds] is a boolean index with a non-concrete mask, which raises.
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
# ott-jax/ott PR #408: soft quantile builds its boolean selection mask with jnp (before the PR)
import functools
from typing import Any, Optional, Union

import jax
import jax.numpy as jnp
import numpy as np


class _OT:  # scaffolding: stand-in for the Sinkhorn output of transport_for_sort
    def __init__(self, matrix):  # scaffolding
        self.matrix = matrix  # scaffolding

    def apply(self, x, axis=0):  # scaffolding
        return self.matrix.T @ x if axis == 0 else self.matrix @ x  # scaffolding


def transport_for_sort(inputs, weights, target_weights, **kwargs):  # scaffolding: no Sinkhorn solve
    return _OT(weights[:, None] * target_weights[None, :])  # scaffolding: independent coupling


def apply_on_axis(op, inputs, axis, *args, **kwargs: Any) -> jnp.ndarray:
  op_inner = functools.partial(op, **kwargs)
  axis = (axis,) if isinstance(axis, int) else axis
  num_points = np.prod(np.array(inputs.shape)[(axis,)])
  permutation = np.arange(len(inputs.shape))
  axis = tuple(permutation[a] for a in axis)
  permutation = tuple(sorted(set(permutation) - set(axis)) + sorted(axis))
  inputs = jnp.transpose(inputs, permutation)

  batch_fn = jax.vmap(op_inner, in_axes=(0,) + (None,) * len(args))
  result = batch_fn(jnp.reshape(inputs, (-1, num_points)), *args)
  shrink = len(axis)
  result = jnp.reshape(result, inputs.shape[:-shrink] + result.shape[-1:])

  permutation = tuple(range(len(result.shape)))
  rank = len(result.shape) - 1
  axis = min(axis)
  permutation = permutation[:axis] + (rank,) + permutation[axis:-1]
  return jnp.transpose(result, permutation)



def quantile(
    inputs: jnp.ndarray,
    q: jnp.ndarray,
    axis: int = -1,
    weight: Optional[Union[float, jnp.ndarray]] = None,
    **kwargs: Any,
) -> jnp.ndarray:

  def _quantile(
      inputs: jnp.ndarray, q: float, weight: float, **kwargs
  ) -> jnp.ndarray:
    num_points = inputs.shape[0]
    q = jnp.array([0.2, 0.5, 0.8]) if q is None else jnp.atleast_1d(q)
    num_quantiles = q.shape[0]
    a = jnp.ones((num_points,)) / num_points
    idx = jnp.argsort(q)
    q = q[idx]

    extended_q = jnp.concatenate([jnp.array([0.0]), q, jnp.array([1.0])])
    filler_weights = extended_q[1:] - extended_q[:-1]
    safe_weight = 0.5 * jnp.concatenate([
        jnp.array([1.0 / num_quantiles]), filler_weights
    ])
    if weight is None:
      # Populate with other options.
      safe_weight = jnp.concatenate([
          safe_weight,
          jnp.array(
              [.02]
          ),  # reasonable mass per quantile for a small number of points
          jnp.array(
              [1.5 / num_points]
          ),  # this means each quantile would be ~ assigned 1.5 points.
      ])
    else:
      safe_weight = jnp.concatenate([safe_weight, jnp.atleast_1d(weight)])
    weight = jnp.min(safe_weight)
    weights = jnp.ones(filler_weights.shape) * weight

    # Takes into account quantile_width in the definition of weights
    shift = -jnp.ones(filler_weights.shape)
    shift = shift + 0.5 * (
        jax.nn.one_hot(0, num_quantiles + 1) +
        jax.nn.one_hot(num_quantiles, num_quantiles + 1)
    )
    filler_weights = filler_weights + weights * shift

    # Adds one more value to have tensors of the same shape to interleave them.
    quantile_weights = jnp.ones(num_quantiles + 1) * weights

    # Interleaves the filler_weights with the quantile weights.
    weights = jnp.reshape(
        jnp.stack([filler_weights, quantile_weights], axis=1), (-1,)
    )[:-1]

    ot = transport_for_sort(inputs, a, weights, **kwargs)
    out = 1.0 / weights * ot.apply(jnp.squeeze(inputs), axis=0)

    # Recover odd indices corresponding to the desired quantiles.
    odds = jnp.concatenate([
        jnp.zeros((num_quantiles + 1, 1), dtype=bool),
        jnp.ones((num_quantiles + 1, 1), dtype=bool)
    ],
                           axis=1).ravel()[:-1]
    return out[odds][idx]

  return apply_on_axis(_quantile, inputs, axis, q, weight, **kwargs)


rng = jax.random.PRNGKey(0)  # scaffolding
inputs = jax.random.uniform(rng, (200, 2, 3))  # the PR's test
q = jnp.array([.1, .8, .4])
quantile_fn = quantile
quantile_fn = jax.jit(quantile_fn, static_argnames="axis")
try:  # scaffolding
    for k in range(3):  # scaffolding
        m1 = quantile_fn(inputs + k, q=q, weight=None, axis=0)
    _report({"jit(quantile)"}, 3)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
