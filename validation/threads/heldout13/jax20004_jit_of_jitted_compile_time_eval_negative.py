# source: https://github.com/jax-ml/jax/issues/20004
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: f is already @jax.jit and is wrapped again with jax.jit(f) at the call site, with ensure_compile_time_eval around work on the argument; it compiles one program and runs without error.

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
import jax
import jax.numpy as jnp

@jax.jit
def f(W):
  with jax.ensure_compile_time_eval():
    W = jnp.square(W.T)
  return W

_ = jax.jit(f)(jnp.ones((1024, 1024)))
print(_.shape)  # scaffolding
_report({"jit(f)"}, 1)  # scaffolding
