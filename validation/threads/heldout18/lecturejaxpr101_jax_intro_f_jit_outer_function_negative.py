# source: https://github.com/QuantEcon/lecture-jax/pull/101
# expect: none
# runtime: COMPILES 2 CALLS 4
# why: the rewritten JAX-intro section jits the outer f once (f_jit = jax.jit(f)) and calls it again on the same array and on a second size; the two compiles are one per array size, as the lecture explains.
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


import jax  # scaffolding: the lecture's earlier imports
import jax.numpy as jnp  # scaffolding


def f(x):
    a = 3*x + jnp.sin(x) + jnp.cos(x**2) - jnp.cos(2*x) - x**2 * 0.4 * x**1.5
    return jnp.sum(a)


n = 50_000  # scaffolding: the lecture uses 50_000_000
x = jnp.ones(n)

f_jit = jax.jit(f)   # target for JIT compilation

f_jit(x)

f_jit(x).block_until_ready()

m = 50_001  # scaffolding: the lecture's second size, 50_000_001, cut down
y = jnp.ones(m)
f_jit(y).block_until_ready()  # scaffolding: the lecture shows the new-size compile on the eager f
f_jit(x).block_until_ready()  # scaffolding
_report({"jit(f)"}, 4)  # scaffolding
