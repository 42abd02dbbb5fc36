# source: https://github.com/patrick-kidger/optimistix/issues/81
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: The root-finding example with LevenbergMarquardt runs cleanly on current versions (no tracer-hash warning or error), and calling optx.root_find again with a new initial value of the same structure reuses the single compile.

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
import optimistix as optx


# Often import when doing scientific work
jax.config.update("jax_enable_x64", True)


def fn(y, args):
    a, b = y
    c = jnp.tanh(jnp.sum(b)) - a
    d = a**2 - jnp.sinh(b + 1)
    return c, d


solver = optx.LevenbergMarquardt(rtol=1e-8, atol=1e-8)
y0 = (jnp.array(0.0), jnp.zeros((2, 2)))
sol = optx.root_find(fn, solver, y0)
sol = optx.root_find(fn, solver, (jnp.array(-0.5), jnp.zeros((2, 2)) - 0.3))  # scaffolding
_report({"jit(root_find)"}, 2)  # scaffolding
