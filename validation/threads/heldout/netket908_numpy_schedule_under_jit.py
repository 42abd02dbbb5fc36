# source: https://github.com/netket/netket/issues/908
# expect: trace-time-error at line 39
# runtime: ERROR TracerArrayConversionError
# why: The schedule computes np.cos with NumPy on the step count; the optimizer update that calls it is jitted, so n is a tracer and NumPy's cos forces it to a concrete array, raising TracerArrayConversionError while tracing (the reporter's traceback from the jitted update).

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
import numpy as np  # scaffolding
from numpy import pi  # scaffolding
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding
import optax  # scaffolding

η = 0.01  # scaffolding

def schedule(n):
    restart=100
    return (1+np.cos(pi*(n%restart)/restart)) * η
op = optax.sgd(schedule)  # scaffolding: was nk.optimizer.Sgd(schedule)

params = jnp.zeros(3)  # scaffolding
opt_state = op.init(params)  # scaffolding
update = jax.jit(op.update)  # scaffolding: NetKet's driver jits the update
try:  # scaffolding
    updates, opt_state = update(jnp.ones(3), opt_state, params)
    _report({"jit(update_fn)"}, 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
