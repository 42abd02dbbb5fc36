# source: https://github.com/google/jaxopt/issues/444
# expect: none
# runtime: COMPILES 0 CALLS 1
# why: LBFGS(jit=False) with the non-jittable numpy objective: jaxopt 0.8.5 propagates jit=False to the zoom line search, so nothing traces f and the run completes.
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
# google/jaxopt issue #444: the reporter's minimal example, as written up to where the stored thread is cut, then the solver call
import jax
import numpy as np
from jax import custom_vjp
from jaxopt import LBFGS

@custom_vjp
def f(x):
    # The function deliberately uses numpy functions which are not jittable
    return -(x[0] + np.sin(x[0])) * np.exp(-x[0]**2.0)

def f_fwd(x):
    return f(x), (x, )

def f_bwd(x, g):
    return -(1.0 + np.cos(x[0])) * np.exp(-x[0]**2.0) - 2.0 * x[0] * (
        x[0] + np.sin(x[0])) * np.exp(-x[0]**2.0),

f.defvjp(f_fwd, f_bwd)

# (the reporter's jittability and differentiability checks are left out: see the label note)  # scaffolding

# scaffolding: the stored thread is cut here; the title and the maintainer's reply show the solver call
solver = LBFGS(fun=f, jit=False, maxiter=10)
res = solver.run(np.array([1.0]))  # scaffolding: one-element initial point (f indexes x[0])
print(res.params)  # scaffolding
_report({"jit(f)"}, 1)  # scaffolding
