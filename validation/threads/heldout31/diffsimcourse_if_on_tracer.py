# source: https://github.com/aidancrilly/MiniCourse-DifferentiableSimulation/blob/713f839e358ca490d5a50bccbf3cd3b65ab8f00a/Extended00_JAXIntro.ipynb
# expect: trace-time-error at line 34
# runtime: ERROR TracerBoolConversionError
# why: jax_w_nojittable_conditional branches with a Python if on x > threshold; under jax.jit the comparison is a tracer, so tracing raises a boolean-conversion error (the notebook catches and prints it).

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
# cell 2
import jax
import jax.numpy as jnp
# cell 17
def jax_w_nojittable_conditional(x, threshold):
    if x > threshold:
        return x
    else:
        return 0.0
    
# This will fail because the conditional depends on a JAX array value at tracing time
failing_jit = jax.jit(jax_w_nojittable_conditional)
try:
    y = failing_jit(0.75, 0.5)
    print(y)
except Exception as e:
    print(f'JIT failed with error: {e}')

# This will work because we use jnp.where which is JIT-compatible (and vectorised)
x = jnp.linspace(0.0,1.0,100)
y = jnp.where(x > 0.5, x, 0)
print(y)
try:  # scaffolding: call again to report the error type on the last line
    failing_jit(0.75, 0.5)  # scaffolding
    _report({"jit(jax_w_nojittable_conditional)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
