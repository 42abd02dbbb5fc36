# source: https://github.com/jax-ml/jax/issues/17232
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: with the vector field defined once outside the loop (the reporter's own conclusion: reuse one equation and pass parameters instead of recreating it), odeint compiles once and reuses the executable.

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

vector_field = lambda y, t: -y  # fixed: defined once, outside the loop
for _ in range(4):  # scaffolding: `while True:` in the issue
    sol = odeint(vector_field, jnp.asarray(1.0), jnp.asarray([0., 1., 2., 3.]))
_report({"jit(_odeint_wrapper)"}, 4)  # scaffolding
