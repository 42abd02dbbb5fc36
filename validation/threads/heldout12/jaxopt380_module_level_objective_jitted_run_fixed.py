# source: https://github.com/google/jaxopt/issues/380
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: the objective and the solver are built once at module level and solver.run is wrapped in one jax.jit, so the four optimisations with different targets reuse a single compiled run.

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
import jaxopt


def obj(x, min):
    return jnp.square(x-min).sum()


solver = jaxopt.LBFGS(obj, maxiter=100)
run = jax.jit(solver.run)


def optimize(min):
    x0 = jnp.zeros(1)
    mm = jnp.array(min)
    x = run(x0, min=mm).params[0]
    print(x)

for i in range(4):  # scaffolding: 10 -> 4
    optimize(i)

_report({"jit(run)"}, 4)  # scaffolding
