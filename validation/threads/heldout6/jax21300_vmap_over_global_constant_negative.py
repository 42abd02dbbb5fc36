# source: https://github.com/jax-ml/jax/issues/21300
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: f reads the module-level v, which never changes, and jax.jit(f) re-wrapped still hits the same cache entry: 1 compile for 3 calls (the thread is about constant-folding time, not staleness).

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
from functools import wraps
import jax
import jax.numpy as jnp
import jax.core

jax.config.update("jax_enable_x64", True)
jax.config.update("jax_platforms", "cpu")

v = jnp.zeros((2000, 10, 10))  # scaffolding: (200000, 10, 10) in the issue


def f():
    return jax.vmap(jax.vmap(jnp.sum))(v)


jax.jit(f)()
jf = jax.jit(f)  # scaffolding
jf()  # scaffolding
jf()  # scaffolding
_report({"jit(f)"}, 3)  # scaffolding
