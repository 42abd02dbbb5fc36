# source: https://github.com/jax-ml/jax/issues/2720
# expect: none
# runtime: COMPILES 2 CALLS 2
# why: `if x_in is None` inside jit looks like a branch on a traced value, but None is an empty pytree, so each call traces with a concrete structure: h compiles once for x_in=1.0 and once for None (two argument structures, as froystig and mattjj explain), no error.

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
import numpy as np  # scaffolding
import jax.lax as lax
def f(logits, x_in):
  if x_in is None:
    return logits
  else:
    return logits + x_in

h = jax.jit(f)
a = np.random.randn(10).astype("float32").reshape([1, -1])
print(h(a, 1.0))
print(h(a, None))
_report({"jit(f)"}, 2)  # scaffolding
