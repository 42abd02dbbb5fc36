# source: https://github.com/crispitagorico/sigkerax/pull/3
# expect: none
# runtime: COMPILES 2 CALLS 8
# why: interpolate_fn and add_time_fn take float/int arguments marked static that stay constant across 4 calls each, so each compiles once.

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


import jax
import jax.numpy as jnp
import random
from functools import partial


# --- sigkerax/utils.py ---
def getkey():
  return jax.random.PRNGKey(random.randint(0, 2 ** 31 - 1))


@partial(jax.jit, static_argnums=(1, 2, 3, 4))
def interpolate_fn(X: jnp.ndarray, t_min: float, t_max: float, refinement_factor: float, kind: str = "linear") -> jnp.ndarray:
  if kind != "linear":
    raise ValueError("Only linear interpolation is supported for now.")
  length = X.shape[1]
  old_grid = jnp.linspace(t_min, t_max, length, dtype=X.dtype)
  new_length = int((length - 1) * refinement_factor + 1)
  new_grid = jnp.linspace(t_min, t_max, new_length, dtype=X.dtype)
  return jax.vmap(jax.vmap(lambda x: jnp.interp(new_grid, old_grid, x), in_axes=1, out_axes=1))(X)


@partial(jax.jit, static_argnums=(1, 2))
def add_time_fn(X: jnp.ndarray, t_min: float, t_max: float) -> jnp.ndarray:
  grid = jnp.linspace(t_min, t_max, X.shape[1], dtype=X.dtype)
  return jnp.concatenate([jnp.tile(jnp.expand_dims(grid, axis=[0, 2]), (X.shape[0], 1, 1)), X], axis=2)


# scaffolding: the preprocessing calls of SigKernel.kernel_matrix, made eagerly on several batches
calls = 0  # scaffolding
for seed in range(4):  # scaffolding
    X = jax.random.normal(jax.random.PRNGKey(seed), (2, 5, 2))  # scaffolding
    X = interpolate_fn(X, t_min=0., t_max=1., refinement_factor=2., kind="linear")
    X = add_time_fn(X, t_min=0., t_max=1.)
    calls += 1  # scaffolding
_report({"jit(interpolate_fn)", "jit(add_time_fn)"}, 2 * calls)  # scaffolding
