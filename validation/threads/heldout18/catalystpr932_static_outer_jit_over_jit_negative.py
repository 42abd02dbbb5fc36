# source: https://github.com/PennyLaneAI/catalyst/pull/932
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: an outer jit with static_argnums=(1,) wraps an inner bare jit, so c arrives traced inside foo; the body only adds c, so it runs and two identical calls compile once.
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
# PennyLaneAI/catalyst PR #932 description: the plain-JAX contrast the author gives for nested jit with static_argnums
from functools import partial  # scaffolding
import jax  # scaffolding


@partial(jax.jit, static_argnums=(1,))
@jax.jit
def foo(x, c):
    print("Inside QNode:", c)
    return x + c


foo(0.5, 0.5)
foo(0.5, 0.5)  # scaffolding: a second identical call
_report({"jit(foo)"}, 2)  # scaffolding
