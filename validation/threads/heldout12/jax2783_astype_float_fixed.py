# source: https://github.com/jax-ml/jax/issues/2783
# expect: none
# runtime: COMPILES 0 CALLS 2
# why: The workaround the error message and the reporter give: x.astype(float) stays a tracer, the comparison on the concrete JVP value is allowed, and grad returns 1.0.

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
import jax as api  # scaffolding: jax.api is gone; jax.grad is the same function

def func(x):
   return x if x.astype(float) >= 0. else -x
print(api.grad(func)(3.))
print(api.grad(func)(-2.))  # scaffolding
_report(set(), 2)  # scaffolding
