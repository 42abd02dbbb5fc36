# source: https://github.com/jax-ml/jax/issues/12773
# expect: stale-closure at line 33
# runtime: COMPILES 1 CALLS 2
# why: the jitted increment mutates the closed-over list tot; the mutation happens only while tracing, so the second call replays the cached computation and returns 1.0 again (2.0 without jit) while tot[0] holds a leaked tracer.

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


import jax

def foo(tot):
  @jax.jit
  def increment(x):
    tot[0] += x
    return tot[0]
  return increment

incrementer = foo([0.])
first = incrementer(1.)  # scaffolding: the thread's snippet is cut off here
second = incrementer(1.)  # scaffolding
print(first, second)  # scaffolding: 1.0 1.0 (without jit: 1.0 2.0)
_report({"jit(increment)"}, 2)  # scaffolding
