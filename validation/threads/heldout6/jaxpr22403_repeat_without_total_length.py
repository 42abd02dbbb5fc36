# source: https://github.com/jax-ml/jax/pull/22403
# expect: trace-time-error at line 38
# runtime: ERROR ConcretizationTypeError
# why: repeats is an array argument of the jitted jnp.repeat and total_repeat_length is not given, so the output size depends on traced values and it raises ConcretizationTypeError.

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
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding

a = jnp.array([[1, 2], [3, 4]])
repeats = jnp.array([2, 3])
print(jnp.repeat(a, repeats, axis=1))

jit_repeat = jax.jit(jnp.repeat, static_argnames=['axis'])  # scaffolding: total_repeat_length left out
try:  # scaffolding
    print(jit_repeat(a, repeats, axis=1))
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
