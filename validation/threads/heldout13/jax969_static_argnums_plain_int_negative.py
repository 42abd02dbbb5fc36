# source: https://github.com/jax-ml/jax/issues/969
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: static_argnums is given as the int 1 rather than a tuple; jit accepts an int (the thread's request, merged in #976), so n is static, and two calls with the same n compile once.

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
import jax.numpy as jnp  # scaffolding
from jax import jit  # scaffolding


def f(x, n):  # scaffolding: stand-in body
    for _ in range(n):  # scaffolding
        x = x * 2  # scaffolding
    return x  # scaffolding


f = jit(f, static_argnums=1)
print(f(jnp.ones(3), 2))  # scaffolding
print(f(jnp.zeros(3), 2))  # scaffolding
_report({"jit(f)"}, 2)  # scaffolding
