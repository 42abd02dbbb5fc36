# source: https://github.com/uriballo/Jax-QML
# expect: trace-time-error at line 34
# runtime: ERROR TracerBoolConversionError
# why: n is traced under jax.jit(g), so while i < n needs a concrete truth value and the call raises (the notebook catches and prints the error).
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
import numpy as np

def g(x, n):
  i = 0
  while i < n:
    i += 1
  return x + i

try:
    jax.jit(g)(10, 20)
    _report({"jit(g)"}, 1)  # scaffolding
except Exception as e:
    print(f"ERROR {type(e).__name__}")  # scaffolding: was print("[!] JAX JIT error:", e)
