# source: https://docs.jax.dev/en/latest/_autosummary/jax.experimental.random.stateful_rng.html
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: jax.jit(rng.uniform) closes over a Ref-backed StatefulPRNG, and each jitted call still advances the key and draws a new number (0.667, 0.389 as documented) from one compilation.
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

from jax.experimental import random
rng = random.stateful_rng(42)

print(rng.uniform())
print(rng.uniform())

import jax
jit_uniform = jax.jit(rng.uniform)
a = jit_uniform()
b = jit_uniform()
print(a, b)  # scaffolding
assert a != b  # scaffolding: the two jitted draws differ, as documented
_report({"jit(uniform)"}, 2)  # scaffolding
