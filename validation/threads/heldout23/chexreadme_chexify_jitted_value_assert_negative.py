# source: https://github.com/google-deepmind/chex/blob/master/README.md
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: chex.chexify makes the value assertion work inside the jitted function: both calls reuse one compilation and the NaN input fails the check at wait_checks, as documented.
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
  @chex.chexify
  @jax.jit
  def logp1_abs_safe(x: chex.Array) -> chex.Array:
    chex.assert_tree_all_finite(x)
    return jnp.log(jnp.abs(x) + 1)

  logp1_abs_safe(jnp.ones(2))  # OK
  calls += 1  # scaffolding
  logp1_abs_safe(jnp.array([jnp.nan, 3]))  # FAILS (in async mode)
  calls += 1  # scaffolding

  # The error will be raised either at the next line OR at the next
  # `logp1_abs_safe` call. See the docs for more detain on async mode.
  logp1_abs_safe.wait_checks()  # Wait for the (async) computation to complete.
except AssertionError as err:  # scaffolding: the documented value-check failure
  print("value check failed as documented:", str(err)[:60])  # scaffolding
_report({"jit(logp1_abs_safe)"}, calls)  # scaffolding
