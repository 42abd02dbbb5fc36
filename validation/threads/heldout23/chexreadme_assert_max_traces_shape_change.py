# source: https://github.com/google-deepmind/chex/blob/master/README.md
# expect: shape-churn at line 39
# runtime: ERROR AssertionError
# why: the second call passes (6, 7) arrays to a function jitted for (3,) arrays, so it is re-traced and chex.assert_max_traces(n=1) raises AssertionError, as the README says.
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

import chex  # scaffolding
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding

calls = 0  # scaffolding
try:  # scaffolding
  @jax.jit
  @chex.assert_max_traces(n=1)
  def fn_sum_jitted(x, y):
    return x + y

  fn_sum_jitted(jnp.zeros(3), jnp.zeros(3))  # tracing for the 1st time - OK
  calls += 1  # scaffolding
  fn_sum_jitted(jnp.zeros([6, 7]), jnp.zeros([6, 7]))  # AssertionError!
  calls += 1  # scaffolding
  _report({"jit(fn_sum_jitted)"}, calls)  # scaffolding
except Exception as err:  # scaffolding
  print(f"ERROR {type(err).__name__}")  # scaffolding
