# source: https://github.com/jax-ml/jax/issues/1600
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: pmap(f) re-created for each call (and in a loop) hits one compilation cache entry on current JAX (the issue was fixed), so f compiles once (as jit(_fun)) for 3 calls.

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
from jax import pmap
import jax  # scaffolding
import jax.numpy as np

def f(x):
  print("miss")
  return x

x = np.ones(jax.device_count())  # scaffolding: xb.device_count()
pmap(f)(x)  # prints
pmap(f)(x)  # prints

for i in range(1):  # scaffolding: 100 in the thread
  x = pmap(f)(x)
_report({"jit(_fun)"}, 3)  # pmap compiles as jit(_fun) on jax 0.10.2
