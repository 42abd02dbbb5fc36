# source: https://github.com/neuronlab-cell/cbgtc_project/blob/0e565a269242983d830a22683fd25ccd7dbcf124/jax_models/test_results.md
# expect: trace-time-error at line 35
# runtime: ERROR ConcretizationTypeError
# why: n_steps is a traced argument of the jitted simulate, so jnp.arange(n_steps) needs a concrete length and raises while tracing.

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

# ❌ Bad - dynamic value as argument
@jax.jit
def simulate(n_steps):
    return jnp.arange(n_steps)  # Error: n_steps is traced

try:  # scaffolding
    simulate(4000)  # scaffolding
    _report({"jit(simulate)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
