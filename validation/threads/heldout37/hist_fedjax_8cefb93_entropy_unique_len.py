# source: https://github.com/google/fedjax/commit/8cefb93365b0a23cb300cbc723ec3d53d2ec8d90
# expect: shape-churn at line 87
# runtime: COMPILES 4 CALLS 8
# why: The commit splits the jittable _entropy out of arithmetic_encoding_num_bits, but passes it uniq = jnp.unique(v), whose length is the data-dependent number of distinct quantized values, so _entropy recompiles for every new count of distinct levels across clients and leaves.

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
from typing import Optional  # scaffolding

import jax
import jax.numpy as jnp
import numpy as np

PRNGKey = jax.Array  # scaffolding
Params = dict  # scaffolding


def uniform_stochastic_quantize(v: jnp.ndarray,
                                num_levels: int,
                                rng: PRNGKey,
                                v_min: Optional[float] = None,
                                v_max: Optional[float] = None) -> jnp.ndarray:
  # Rescale the vector to be between zero to one.
  if v_min is None:
    v_min = jnp.amin(v)
  if v_max is None:
    v_max = jnp.amax(v)
  v = jnp.nan_to_num((v - v_min) / (v_max - v_min))
  v = jnp.maximum(0., jnp.minimum(v, 1.))
  # Compute the upper and lower boundary of each value.
  v_ceil = jnp.ceil(v * (num_levels - 1)) / (num_levels - 1)
  v_floor = jnp.floor(v * (num_levels - 1)) / (num_levels - 1)
  # uniformly quantize between v_ceil and v_floor.
  rand = jax.random.uniform(key=rng, shape=v.shape)
  threshold = jnp.nan_to_num((v - v_floor) / (v_ceil - v_floor))
  quantized = jnp.where(rand > threshold, v_floor, v_ceil)
  # Rescale the values and return it.
  return v_min + quantized * (v_max - v_min)


@jax.jit
def uniform_stochastic_quantize_pytree(params: Params, num_levels: int,
                                       rng: PRNGKey) -> Params:
  leaves, tree_def = jax.tree_util.tree_flatten(params)
  rngs = jax.random.split(rng, len(leaves))
  new_leaves = []
  for l, r in zip(leaves, rngs):
    new_leaves.append(uniform_stochastic_quantize(l, num_levels, r))
  return jax.tree_util.tree_unflatten(tree_def, new_leaves)


@jax.jit
def _entropy(v, uniq):
  uniq = jnp.concatenate([uniq, jnp.array([jnp.inf])], axis=0)
  hist, _ = jnp.histogram(v, bins=uniq)
  hist = hist / jnp.sum(hist)
  entropy = -jnp.sum(hist * jnp.log2(hist))
  return entropy


def arithmetic_encoding_num_bits(v: jnp.ndarray) -> int:
  """Computes number of bits needed to store v via arithmetic coding."""
  v = jnp.nan_to_num(v)
  v = v.flatten()
  uniq = jnp.unique(v)
  entropy = _entropy(v, uniq)
  return v.size * entropy + 2 * 32 + 2


# scaffolding: four clients' model updates, quantized to 8 levels as in uniform_stochastic_quantizer
num_levels = 8
rng = np.random.RandomState(0)
total_bits = []
calls = 0
for client in range(4):
  params = {'w': jnp.asarray(rng.randn(16, 8), jnp.float32),
            'b': jnp.asarray(rng.randn(8), jnp.float32)}
  params = uniform_stochastic_quantize_pytree(params, num_levels, jax.random.PRNGKey(client))
  leaves, _ = jax.tree_util.tree_flatten(params)
  bits = sum([arithmetic_encoding_num_bits(leaf) for leaf in leaves])
  calls += len(leaves)
  total_bits.append(bits)
print([len(jnp.unique(l)) for l in leaves], sum(total_bits) / len(total_bits))
_report({"jit(_entropy)"}, calls)
