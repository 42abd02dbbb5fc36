# source: https://github.com/jax-ml/jax/issues/26000
# expect: trace-time-error at line 31
# runtime: ERROR ConcretizationTypeError
# why: Under jax.jit, x is a tracer; calling x.devices() needs a concrete array and raises ConcretizationTypeError while tracing g.

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
import jax, jax.numpy as jnp
x = jnp.asarray(0)
def g(x): return jnp.zeros(0, device=next(iter(x.devices())))
print(g(x))
try:  # scaffolding
    jax.jit(g)(x)
    _report({"jit(g)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
