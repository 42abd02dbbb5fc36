# source: https://github.com/jax-ml/jax/issues/3180
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: casting a traced value with jnp.float32(x) inside jit works on 0.10.2 (fixed by PR #3235): one compile for two calls.
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
def f(x):  # scaffolding: a jitted function around the reported cast
    return jnp.float32(x) * 2


f(jnp.arange(3))
f(jnp.arange(3) + 1)
_report({"jit(f)"}, 2)
