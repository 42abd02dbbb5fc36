# source: https://github.com/aghilanai/jax-course/blob/main/ep02/solution.ipynb
# expect: none
# runtime: COMPILES 2 CALLS 3
# why: a Python print inside the jitted function runs only when tracing; the second same-shape call hits the cache and the new shape recompiles (2 compiles, 3 calls).
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
import jax.numpy as jnp

print("--- outside jit ---")


@jax.jit
def noisy_square(x):
    print("inside jitted function, x.shape =", x.shape)
    return x ** 2


v = jnp.ones((3,))
print("run 1:")

noisy_square(v)
print("run 2 (same shape):")
noisy_square(v)


print("run 3 (new shape):")
noisy_square(jnp.ones((5,)))
_report({"jit(noisy_square)"}, 3)  # scaffolding
