# source: https://github.com/codas-hep-2025/codas-hep-2025-jit-compilation/blob/df42988b3197922ee639eb2fe6c6544f1b190770/lecture.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: The same reduction with the branch written as jnp.where(jnp.any(arr > 3), sum, prod), the select-instead-of-branch fix the school's solution notebook teaches; compiles once.

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

# ---- lecture.ipynb cell 34, with the fix the lecture's solution notebook uses for
# data-dependent branches: select with jnp.where instead of a Python `if`
@jax.jit
def accumulate_if(arr):
    print(arr)
    return jnp.where(jnp.any(arr > 3), jnp.sum(arr), jnp.prod(arr))


array = jnp.array([1., 2., 3., 4., 5.])
for _ in range(3):  # scaffolding
    print(accumulate_if(array))
_report({"jit(accumulate_if)"}, 3)  # scaffolding
