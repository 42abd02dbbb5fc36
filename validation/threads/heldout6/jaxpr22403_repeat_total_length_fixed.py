# source: https://github.com/jax-ml/jax/pull/22403
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: the docstring's jit_repeat with total_repeat_length=5 static: the output size is known at trace time and jnp.repeat compiles once for 2 calls.

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

jit_repeat = jax.jit(jnp.repeat, static_argnames=['axis', 'total_repeat_length'])
print(jit_repeat(a, repeats, axis=1, total_repeat_length=5))
print(jit_repeat(a + 1, repeats, axis=1, total_repeat_length=5))  # scaffolding: a second call
_report({"jit(repeat)"}, 2)  # scaffolding
