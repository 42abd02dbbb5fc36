# source: https://github.com/jax-ml/jax/pull/3562
# expect: none
# runtime: COMPILES 3 CALLS 3
# why: experiment is jitted and defines the odeint dynamics `model` as a closure over its traced argument x; odeint closure-converts it, so grad(experiment) and the two finite-difference calls run without tracer errors or extra recompiles of the forward pass.

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
from jax.experimental.ode import odeint
from jax import jit, grad, value_and_grad, vmap
import jax.numpy as np

@jit
def experiment(x):

    def model(y, t):
        dydt = -x * y
        return dydt

    history = odeint(model, 1., np.arange(0, 10, 0.1))
    return history[-1]

x = 0.01
out = grad(experiment)(x)
print(out)
print((experiment(x+1e-6) - experiment(x-1e-6)) / 2e-6)
_report({"jit(experiment)"}, 3)  # scaffolding
