# source: https://github.com/jax-ml/jax/issues/17232
# expect: jit-in-loop-or-body at line 33
# runtime: COMPILES 4 CALLS 4
# why: the loop defines a new vector_field lambda on every iteration and odeint's internal jit treats the function as part of its cache key, so every call traces and compiles odeint again (the memory the reporter sees growing).

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
from jax.experimental.ode import odeint

for _ in range(4):  # scaffolding: `while True:` in the issue
    vector_field = lambda y, t: -y
    sol = odeint(vector_field, jnp.asarray(1.0), jnp.asarray([0., 1., 2., 3.]))
_report({"jit(_odeint_wrapper)"}, 4)  # scaffolding
