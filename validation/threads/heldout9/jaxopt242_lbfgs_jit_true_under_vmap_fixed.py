# source: https://github.com/google/jaxopt/issues/242
# expect: none
# runtime: COMPILES 2 CALLS 2
# why: with jit=True (the reporter's working variant) LBFGS.run uses lax.while_loop, which vmap can batch; the eager run and the vmapped run each compile the solver loop once.

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


def fun(x, y):
    return jnp.square(x - y) + y


solver = jaxopt.LBFGS(fun=fun, maxiter=5, jit=True)

params, state = solver.run(jax.device_put(0.1), y=jax.device_put(2.1))

batch_params, batch_state = jax.vmap(lambda a, k: solver.run(a, **k), in_axes=(0, None))(
    jnp.repeat(0.1, 12), {'y': jax.device_put(2.1)})

# No errors raised
_report({"jit(while)"}, 2)  # scaffolding: the solver loop, once per run (eager and vmapped)
