# source: https://github.com/google/flax/issues/2410
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: the same function without static_argnums traces the array and compiles once (marcvanzee: 'works').

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


import jax

jax.jit(lambda x: x + 1)(jax.numpy.array([0, 1]))  # works
_report({"jit(<lambda>)"}, 1)  # scaffolding
