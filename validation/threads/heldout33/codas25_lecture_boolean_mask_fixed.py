# source: https://github.com/codas-hep-2025/codas-hep-2025-jit-compilation/blob/df42988b3197922ee639eb2fe6c6544f1b190770/lecture.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: The masked sum rewritten as jnp.sum(jnp.where(arr > 3.0, arr, 0.0)), the ternary-operator fix of the school's solution notebook; compiles once over 3 calls.

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

jax.config.update("jax_platform_name", "cpu")
jax.config.update("jax_enable_x64", True)

# ---- lecture.ipynb cell 36, with the masked-select rewritten as jnp.where
# (the ternary-operator fix used in the school's solution.ipynb)
@jax.jit
def sum_greater_than_three(arr):
    return jnp.sum(jnp.where(arr > 3.0, arr, 0.0))


array = jnp.array([1., 2., 3., 4., 5.])
for _ in range(3):  # scaffolding
    print(sum_greater_than_three(array))
_report({"jit(sum_greater_than_three)"}, 3)  # scaffolding
