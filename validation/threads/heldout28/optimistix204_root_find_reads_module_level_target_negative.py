# source: https://github.com/patrick-kidger/optimistix/issues/204
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: fn reads the module-level array x as a constant; the two root_find calls pass the same fn and solver with same-shaped float64 starts, so root_find compiles once and is called twice
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
import optimistix as optx


# Often import when doing scientific work
jax.config.update("jax_enable_x64", True)

x = jnp.array([1., 2.])

def fn(y, obj):
    r = jnp.zeros_like(y)
    r = r.at[0].set((y[0] - x[0])**2)
    r = r.at[-1].set((y[-1]+y[0] - x[-1])**2)

    return r

solver = optx.Newton(rtol=1e-8, atol=1e-8)
y0 = jnp.array([2.0, 2.0])
sol = optx.root_find(fn, solver, y0)

sol2 = optx.root_find(fn, solver, jnp.array([3.0, 1.0]))  # scaffolding: a second solve from another starting point
print(sol.value, sol2.value)  # scaffolding
_report({"jit(root_find)"}, 2)  # scaffolding
