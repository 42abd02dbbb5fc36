# source: https://github.com/jax-ml/jax/issues/9823
# expect: trace-time-error at line 40
# runtime: ERROR TracerBoolConversionError
# why: z is computed under ensure_compile_time_eval, but the comparison z > 0 runs after the context has exited, under jit, so it is staged out and 'if' on it raises TracerBoolConversionError.

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

print(jax.__version__)  # 0.3.1

@jax.jit
def f(x):
    with jax.ensure_compile_time_eval():
        y = jnp.sin(3.0)
        z = jnp.sin(y)
        #z = z.item()  # adding this works
    if z > 0:  # the value of z is availble and can be used in control flow
        return jnp.sin(x)
    else:
        return jnp.cos(x)
    
try:  # scaffolding
    f(0)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
