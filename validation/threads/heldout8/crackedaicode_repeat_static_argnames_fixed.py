# source: https://crackedaicode.com/problems/jax-static-argnames-in-jit
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: with static_argnames=["n"] the page's fix makes n a Python int at trace time, so the shape and the range(n) loop are concrete; two calls with the same n compile once.

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

def repeat_v1(x, n):
    out = jnp.zeros((n * x.shape[0],))
    for i in range(n):
        out = out.at[i * x.shape[0]:(i + 1) * x.shape[0]].set(x)
    return out

repeat = jax.jit(repeat_v1, static_argnames=["n"])
print(repeat(jnp.array([1.0, 2.0]), n=3))
print(repeat(jnp.array([3.0, 4.0]), n=3))  # scaffolding
_report({"jit(repeat_v1)"}, 2)  # scaffolding
