# source: https://github.com/jax-ml/jax/pull/2508
# expect: jit-in-loop-or-body at line 33
# runtime: COMPILES 3 CALLS 3
# why: The FAQ's closure alternative jits a fresh lambda at every invocation; as the FAQ itself warns, each new closure misses the compilation cache, so every call recompiles.

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
import jax.numpy as np  # scaffolding

for _ in range(3):  # scaffolding
    jax.jit(lambda arr: np.split(arr, 2, 0))(np.zeros(4))
_report({"jit(<lambda>)"}, 3)  # scaffolding
