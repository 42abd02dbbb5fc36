# source: https://github.com/GalacticDynamics/unxt/pull/906
# expect: jit-in-loop-or-body at line 68
# runtime: COMPILES 3 CALLS 3
# why: rebuild_each_call builds a fresh @jax.jit outer_func through make_outer on every call, and jit caches on the identity of the wrapped function, so every call retraces and recompiles.

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
import types  # scaffolding

import jax
import jax.numpy as jnp


# scaffolding: unxt and quax are not installed. Q stands in for unxt.Quantity (value + unit) and
# quaxify for quax.quaxify (unwraps the quantities); the arithmetic is the guide's func.
class Q:
    def __init__(self, value, unit):
        self.value, self.unit = value, unit

    def ustrip(self, unit):
        return self.value


u = types.SimpleNamespace(Q=Q)
quax = types.SimpleNamespace(quaxify=lambda f: (lambda qx, qy: Q(f(qx.value, qy.value), qx.unit)))

x = jnp.linspace(0.1, 10.0, 1000)
y = jnp.linspace(11, 100.0, 1000)


def func(x, y):
    return jnp.sum((x ** 3 - y ** 3) / (x**2 + y**2))


# docs/guides/perf.md, "build the wrapper once, not per call": the slow variant
def make_outer():
    @jax.jit
    def outer_func(x, y):
        qx = u.Q(x, "m")
        qy = u.Q(y, "m")
        return quax.quaxify(func)(qx, qy).ustrip("m")

    return outer_func


def rebuild_each_call(x, y):
    fn = make_outer()
    return jax.block_until_ready(fn(x, y))


# scaffolding: three calls instead of %timeit
calls = 0
for _ in range(3):
    rebuild_each_call(x, y)
    calls += 1
_report({"jit(outer_func)"}, calls)
