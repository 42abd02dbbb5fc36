# source: https://github.com/data-apis/array-api/pull/690
# expect: trace-time-error at line 45
# runtime: ERROR ConcretizationTypeError
# why: repeats=x[2] is a traced element of the jitted func's argument, so jnp.repeat cannot know its output size and raises ConcretizationTypeError.

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

x = jnp.arange(3)
print(jnp.repeat(x, 2))
print(jnp.repeat(x, 2, total_repeat_length=x.size*2))  # the documented way to allow JIT-ing

def func(x):
    return jnp.repeat(x, 2)

print(func(x))
# It's not actually needed to use `total_repeat_length` if `repeats` is a literal int:
print(jax.jit(func)(x))

# It is needed if we make `repeats` data-dependent:
def func(x):
    return jnp.repeat(x, x[2])

print(func(x))
try:  # scaffolding
    jax.jit(func)(x)
    _report({"jit(func)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
