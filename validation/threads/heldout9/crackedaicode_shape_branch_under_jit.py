# source: https://crackedaicode.com/problems/jax-tracing-shape-vs-value
# expect: none
# runtime: COMPILES 2 CALLS 3
# why: f branches on x.shape[-1], a Python int at trace time, so jit(f) works; each new trailing size is a new specialisation (2 shapes, 2 compiles for 3 calls).

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
import jax.numpy as jnp
from jax import lax, jit


# ✅ OK — branching on a static shape (resolved at trace time)
def f(x):
    if x.shape[-1] == 3:          # shape is a Python int; Python if is fine
        return x.sum(axis=-1)
    else:
        return x.mean(axis=-1)


jf = jit(f)  # scaffolding
jf(jnp.ones((2, 3)))  # scaffolding
jf(jnp.zeros((2, 3)))  # scaffolding
jf(jnp.ones((2, 4)))  # scaffolding
_report({"jit(f)"}, 3)  # scaffolding
