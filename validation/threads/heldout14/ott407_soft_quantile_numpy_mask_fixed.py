# source: https://github.com/ott-jax/ott/issues/407
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: PR #408 builds the mask with numpy, so it stays concrete under jit and the jitted, vmapped quantile compiles once for two calls.
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
import functools
import types
from typing import Any, Callable, Optional, Union

import jax
import jax.numpy as jnp
import numpy as np


# scaffolding: ott is not installed. transport_for_sort stands in for ott's Sinkhorn-based
# version (same squashing and targets, a fixed number of log-domain Sinkhorn iterations);
# apply_on_axis and quantile below are ott/tools/soft_sort.py before PR #408 (docstring removed).
class _SinkhornOutput:  # scaffolding
    def __init__(self, matrix):
        self.matrix = matrix

    def apply(self, inputs, axis=0):
        return self.matrix.T @ inputs if axis == 0 else self.matrix @ inputs


def transport_for_sort(inputs, weights=None, target_weights=None, squashing_fun=None,
                       epsilon=1e-2, **kwargs):  # scaffolding
    x = jnp.expand_dims(jnp.squeeze(inputs), axis=1)
    if squashing_fun is None:
        squashing_fun = lambda z: jax.nn.sigmoid((z - jnp.mean(z)) / (jnp.std(z) + 1e-10))
    x = squashing_fun(x)
    a = jnp.squeeze(weights)
    b = jnp.squeeze(target_weights)
    y = jnp.linspace(0.0, 1.0, b.shape[0])[:, jnp.newaxis]
    cost = (x - y.T) ** 2
    f = jnp.zeros(a.shape)
    g = jnp.zeros(b.shape)

    def body(_, fg):
        f, g = fg
        f = epsilon * jnp.log(a) - epsilon * jax.nn.logsumexp((g[None, :] - cost) / epsilon, axis=1)
        g = epsilon * jnp.log(b) - epsilon * jax.nn.logsumexp((f[:, None] - cost) / epsilon, axis=0)
        return f, g

    f, g = jax.lax.fori_loop(0, 200, body, (f, g))
    return _SinkhornOutput(jnp.exp((f[:, None] + g[None, :] - cost) / epsilon))


def apply_on_axis(op, inputs, axis, *args, **kwargs: Any) -> jnp.ndarray:
  """Apply a differentiable operator on a given axis of the input.

  Args:
    op: a differentiable operator (can be ranks, quantile, etc.)
    inputs: Array of any shape.
    axis: the axis (int) or tuple of ints on which to apply the operator. If
      several axes are passed to the operator, those are merged as a single
      dimension.
    args: other positional arguments to the operator.
    kwargs: other positional arguments to the operator.

  Returns:
    An Array holding the output of the differentiable operator on the given
    axis.
  """
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
    odds = np.concatenate([
        np.zeros((num_quantiles + 1, 1), dtype=bool),
        np.ones((num_quantiles + 1, 1), dtype=bool)
    ],
                          axis=1).ravel()[:-1]
    return out[odds][idx]

  return apply_on_axis(_quantile, inputs, axis, q, weight, **kwargs)

ott = types.SimpleNamespace(tools=types.SimpleNamespace(soft_sort=types.SimpleNamespace(quantile=quantile)))  # scaffolding

import jax
import jax.random
import jax.numpy as jnp

N = 200
x = jax.random.normal(key = jax.random.PRNGKey(0), shape=(N,))
a = 0.5
quant = jnp.array([.2,.8])

@jax.jit
def quantile_cal(x,quant,a):
   return( jax.vmap(lambda quant: ott.tools.soft_sort.quantile(jnp.where(x < a, x, a), 
                                                                    q=quant))(quant))

quantile_cal(x,quant,a)
quantile_cal(x,quant,a)  # scaffolding
_report({"jit(quantile_cal)"}, 2)  # scaffolding
