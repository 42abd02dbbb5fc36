# source: https://github.com/PennyLaneAI/catalyst/pull/1295
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: static_argnums=[1] with x passed by keyword: jit infers the static name from the signature, so the Python if on x sees a concrete int and two calls with x=3 compile once.
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
# PennyLaneAI/catalyst PR #1295: AniketDalvi's jax.jit contrast case (static argument 1 passed by keyword), as written
from functools import partial  # scaffolding
import jax  # scaffolding


@partial(jax.jit, static_argnums=[1])
def f(y, x):
    if x < 10:
        return x + y
    return 42000

assert f(20, x=3) == 23
assert f(21, x=3) == 24  # scaffolding: a second call, same static x
_report({"jit(f)"}, 2)  # scaffolding
