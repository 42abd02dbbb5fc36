# source: https://github.com/google/jaxopt/issues/448
# expect: none
# runtime: COMPILES 0 CALLS 1
# why: with the backtracking line search (the maintainer's workaround in #444, which #448 tracks) and jit=False every part of the solver runs eagerly, the NumPy objective only ever sees concrete arrays, and the solve succeeds without tracing it.

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
import numpy as np
import jaxopt


@jax.custom_vjp
def f(x):
    x = np.asarray(x)
    return np.sum((x - 1.0) ** 2)


def f_fwd(x):
    return f(x), x


def f_bwd(x, g):
    grad_x = 2 * (np.asarray(x) - 1.0)
    return (np.array(grad_x * g),)


f.defvjp(f_fwd, f_bwd)

solver = jaxopt.LBFGS(fun=f, jit=False, maxiter=10, linesearch="backtracking")
res = solver.run(jnp.zeros(3))
print(res.params)
_report({"jit(f)"}, 1)  # scaffolding
