# source: https://github.com/jax-ml/jax/issues/732
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: with x64 enabled, the Python float c passed to jit(mul) is weakly typed on jax 0.10.2, so the jitted result stays float32 like the eager one; jit(mul) compiles once and behaves as without jit.

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
jax.config.update("jax_enable_x64", True)  # scaffolding: the issue only shows with x64 on
import jax.numpy as np  # scaffolding
from jax import jit  # scaffolding

def mul(R, c):
  return R * c

R = np.array([1, 2, 3], dtype=np.float32)
c = 0.1

print(mul(R, c).dtype) # Evaluates to np.float32 as expected.
print(jit(mul)(R, c).dtype) # Evaluates to np.float64.
_report({"jit(mul)"}, 1)  # scaffolding
