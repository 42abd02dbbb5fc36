# source: https://github.com/google/jaxopt/issues/380
# expect: changing-static at line 46
# runtime: COMPILES 4 CALLS 4
# why: optimize() defines a fresh obj closure and builds a new jaxopt.LBFGS around it on every call, so the solver's jitted update (keyed on the objective function) is retraced and recompiled once per call instead of once.

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
import jax.numpy as jnp
import jaxopt


def profile(f):  # scaffolding: stand-in for memory_profiler.profile
    return f


@profile
def optimize(min):

    def obj(x, min):
        return jnp.square(x-min).sum()

    x0 = jnp.zeros(1)
    mm = jnp.array(min)

    solver = jaxopt.LBFGS(obj, maxiter=100)
    x = solver.run(x0, min=mm).params[0]
    print(x)

for i in range(4):  # scaffolding: 10 -> 4
    optimize(i)

_report({"jit(update)"}, 4)  # scaffolding
