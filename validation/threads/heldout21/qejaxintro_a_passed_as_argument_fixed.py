# source: https://python-programming.quantecon.org/jax_intro.html
# expect: none
# runtime: COMPILES 2 CALLS 3
# why: with a passed as an argument the second call sees a = 42 without recompiling (the Python int is traced); only the new shape (3,) compiles again: 2 compiles / 3 calls.
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

a = 1  # global

@jax.jit
def f(x, a):  # scaffolding: the lecture's advice ('write pure functions'), a passed as an argument
    return a + x

x = jnp.ones(2)

print(f(x, a))  # scaffolding: print

a = 42

print(f(x, a))  # scaffolding: [43. 43.], no stale value

x = jnp.ones(3)

print(f(x, a))  # scaffolding
_report({"jit(f)"}, 3)  # scaffolding
