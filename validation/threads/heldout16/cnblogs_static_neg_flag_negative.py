# source: https://www.cnblogs.com/xyz/p/17954270
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: neg is marked static with static_argnums=(1,), so the Python conditional on it is resolved at trace time; the repeated call with the same flag reuses the compiled program (1 compile for 2 calls).
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


from functools import partial
from jax import jit  # scaffolding

@partial(jit, static_argnums=(1,))
def f(x, neg):
  print("x:", x)
  print("neg:", neg)
  return -x if neg else x

f(111, False)
f(111, False)  # scaffolding: the post's second run
_report({"jit(f)"}, 2)  # scaffolding
