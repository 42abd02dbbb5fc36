# source: https://github.com/google/jaxopt/issues/448
# expect: trace-time-error at line 52
# runtime: ERROR TracerArrayConversionError
# why: the objective is not jittable (it converts its input with NumPy inside a custom_vjp); LBFGS is built with jit=False so the solver loop runs eagerly, but the Hager-Zhang line search runs its own lax.while_loop, which traces the objective, and np.asarray on the traced x raises TracerArrayConversionError (the issue: 'the objective functions must be jittable').

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

solver = jaxopt.LBFGS(fun=f, jit=False, maxiter=10, linesearch="hager-zhang")
try:  # scaffolding
    res = solver.run(jnp.zeros(3))
    print(res.params)
    _report(set(), 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
