# source: https://github.com/google/jaxopt/issues/303
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: the maintainer's pattern, a jax.jit wrapper around a solver built once (with jit=True) outside it, compiles once and is reused: the inner jitted solver loop inlines into the outer jit, with no recompile for a second data set of the same shape.

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


def MyFunc(params, dataTuple):  # scaffolding: the reporter's objective is not shown
    X, y = dataTuple
    return jnp.mean((X @ params - y) ** 2)


start = jnp.zeros(3)
key1, key2 = jax.random.split(jax.random.PRNGKey(0))
dataTuple = (jax.random.normal(key1, (20, 3)), jax.random.normal(key2, (20,)))

mini = jaxopt.GradientDescent(MyFunc, stepsize=0.1, maxiter=50, verbose=0, jit=True)

@jax.jit # mark all the parameters you want as static
def jitted_run(start, dataTuple):
  return mini.run(start, dataTuple)

# Call jitted_run when you want to run the solver
res = jitted_run(start, dataTuple)
res = jitted_run(start, (dataTuple[0] + 1.0, dataTuple[1]))
_report({"jit(jitted_run)"}, 2)
