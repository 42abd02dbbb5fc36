# source: https://github.com/google-deepmind/chex/issues/210
# expect: shape-churn at line 41
# runtime: COMPILES 2 CALLS 2
# why: f is called first with shape (1,) and then (2,), so jit retraces and compiles it twice for two calls; with chex 0.1.92 disable_asserts now silences assert_max_traces, so the reported AssertionError no longer appears and only the recompile remains.

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
import chex
chex.disable_asserts()

@jax.jit
@chex.assert_max_traces(n=1)
def f(x):
    return x

chex.assert_equal_shape(jnp.zeros((1)), jnp.zeros((2,))) # correctly ignored

f(jnp.zeros((1,)))
f(jnp.zeros((2,))) # AssertionError: [Chex] Function 'f' is traced > 1 times!
_report({"jit(f)"}, 2)  # scaffolding
