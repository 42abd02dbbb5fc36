# source: https://docs.jax.dev/en/latest/_autosummary/jax.numpy.repeat.html
# expect: none
# runtime: COMPILES 3 CALLS 3
# why: total_repeat_length and axis are static, so jnp.repeat with traced repeats has a fixed output shape under jax.jit; one compile per distinct total_repeat_length (3 compiles for 3 calls, jit's contract).
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


import jax  # scaffolding
import jax.numpy as jnp  # scaffolding

a = jnp.array([[1, 2],
               [3, 4]])
repeats = jnp.array([2, 3])
jnp.repeat(a, repeats, axis=1)

jit_repeat = jax.jit(jnp.repeat, static_argnames=['axis', 'total_repeat_length'])
print(jit_repeat(a, repeats, axis=1, total_repeat_length=5))  # scaffolding: print
print(jit_repeat(a, repeats, axis=1, total_repeat_length=4))  # scaffolding: print
print(jit_repeat(a, repeats, axis=1, total_repeat_length=7))  # scaffolding: print
_report({"jit(repeat)"}, 3)  # scaffolding
