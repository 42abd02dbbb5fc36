# source: https://github.com/google/brax/pull/199
# expect: trace-time-error at line 51
# runtime: ERROR ValueError
# why: jumpy's index_update picks the numpy branch by looking only at x, so under jit with a numpy x and a traced y it writes a tracer into a numpy array and fails.
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
# google/brax PR #199: brax/jumpy.py's backend dispatch and index_update at 49ffc30^
import builtins
from typing import Any, Callable, Union

import jax
from jax import numpy as jnp
import numpy as onp
from jax._src.interpreters.batching import BatchTracer  # scaffolding
jax.interpreters.batching.BatchTracer = BatchTracer  # scaffolding: no longer exported publicly
jax.tree_map = jax.tree_util.tree_map  # scaffolding: jax.tree_map was removed in jax 0.6
jax.tree_flatten = jax.tree_util.tree_flatten  # scaffolding: removed in jax 0.6

ndarray = Union[onp.ndarray, jnp.ndarray]  # pylint:disable=invalid-name
tree_map = jax.tree_map  # works great with jax or numpy as-is


def _which_np(*args):
  """Returns np or jnp depending on args."""
  for a in args:
    if isinstance(a, jnp.ndarray) and not isinstance(a, onp.ndarray):
      return jnp
  return onp


def index_update(x: ndarray, idx: ndarray, y: ndarray) -> ndarray:
  """Pure equivalent of x[idx] = y."""
  if _which_np(x) is jnp:
    return x.at[idx].set(y)
  x = onp.copy(x)
  x[idx] = y
  return x



@jax.jit  # scaffolding: a jitted env step writing a traced value into a numpy template, as training.ppo does through jumpy
def set_first(y):  # scaffolding
    return index_update(onp.zeros(3), 0, y)  # scaffolding


calls = 0  # scaffolding
try:  # scaffolding
    for y in (1.0, 2.0, 3.0):  # scaffolding
        set_first(jnp.float32(y))  # scaffolding
        calls += 1  # scaffolding
    _report({"jit(set_first)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
