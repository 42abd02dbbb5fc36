# source: https://github.com/jax-ml/jax/issues/14058
# expect: none
# runtime: COMPILES 1 CALLS 10
# why: Eager lax.cond in a Python loop over ints compiled once per iteration in JAX 0.4.1; fixed, it compiles once.
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
import jaxlib
from jax import lax

print(jaxlib.__version__)
print(jax.__version__)

jax.config.update('jax_log_compiles', True)

def f(x):
  return x + 1

def g(x):
  return x + 2

for x in range(10):
  lax.cond(x, f, g, x)
_report({"jit(cond)"}, 10)  # scaffolding
