# source: https://github.com/dani2442/bifurcationjax/blob/8d0eec510925524e3bc6f55591232cc92fa0029d/bifurcationjax/utils/Krylov_Newton.py
# expect: jit-in-loop-or-body at line 35
# runtime: COMPILES 4 CALLS 4
# why: NewtonMethod builds J = jax.jit(jax.jacobian(f)) and a @jax.jit _NewtonStep closure inside its body, so every call (one per branch point in the library) traces and compiles _NewtonStep again.

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


import jax.numpy as jnp
import jax
from functools import partial  # (matplotlib import dropped)

def NewtonMethod(f, x0, delta=0.1, max_iters=200, precision=1e-5):
    J = jax.jit(jax.jacobian(f))

    @jax.jit
    def _NewtonStep(x0):
        return x0 - delta*jnp.linalg.inv(J(x0)) @ f(x0)

    for _ in range(max_iters):
        x = _NewtonStep(x0)
        if jnp.sum(jnp.abs(x-x0))<precision:
            return x
        x0 = x
    print("Newton not converged")
    return x


# scaffolding: branch_switching.method_II calls NewtonMethod(F, jnp.array([0., 0.])) once per
# branch point with a freshly jitted F; here one F is solved from 4 starting points
@jax.jit
def F(z):  # scaffolding
    x, p = z[:-1], z[-1]
    return jnp.append(x**3 - x - p, jnp.sum(x) - 0.5)


starts = [jnp.array([0., 0.]), jnp.array([1., 0.]), jnp.array([-1., 0.]), jnp.array([2., 0.])]  # scaffolding
for x_start in starts:  # scaffolding
    NewtonMethod(F, x_start, max_iters=20)
_report({"jit(_NewtonStep)"}, len(starts))
