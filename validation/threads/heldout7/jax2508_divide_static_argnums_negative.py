# source: https://github.com/jax-ml/jax/pull/2508
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: divide branches on `y >= 1.` in Python, but the FAQ jits it with static_argnums=1, so y stays a concrete float; the same y reuses one compilation.

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

def divide(x, y):
  return x / y if y >= 1. else 0.

divide_jit = jax.jit(divide, static_argnums=1)  # scaffolding: the FAQ states static_argnums=1 in prose
for x in [3., 4., 5.]:  # scaffolding
    divide_jit(x, 2.)
jax.grad(divide)(3., 2.)
_report({"jit(divide)"}, 3)  # scaffolding
