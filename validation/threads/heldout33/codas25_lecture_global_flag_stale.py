# source: https://github.com/codas-hep-2025/codas-hep-2025-jit-compilation/blob/df42988b3197922ee639eb2fe6c6544f1b190770/lecture.ipynb
# expect: stale-closure at line 40
# runtime: COMPILES 1 CALLS 2
# why: CoDaS-HEP 2025 lecture: the jitted accumulate reads the global do_sum at trace time; after do_sum = True the cached trace still returns the product (the lecture prints 'Hey, this should've been 15.0 instead!').

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

# ---- lecture.ipynb cell 39
do_sum = False

@jax.jit
def accumulate(arr):
    if do_sum:
        return jnp.sum(arr)
    else:
        return jnp.prod(arr)


array = jnp.array([1., 2., 3., 4., 5.])

print("Accumulate with `jnp.prod`:", accumulate(array))

# now we switch `do_sum` on!
do_sum = True
print("Accumulate with `jnp.sum`:", accumulate(array), f"...Hey, this should've been {jnp.sum(array)} instead!")
_report({"jit(accumulate)"}, 2)  # scaffolding
