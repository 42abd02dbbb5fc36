# source: https://jax.readthedocs.io/en/latest/jax-101/02-jitting.html
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: with static_argnums=0 x is a Python int at trace time, so the if works and f compiles once for its call.
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


import jax  # scaffolding (earlier cell)

def f(x):
  if x > 0:
    return x
  else:
    return 2 * x

f_jit_correct = jax.jit(f, static_argnums=0)
print(f_jit_correct(10))
_report({"jit(f)"}, 1)  # scaffolding
