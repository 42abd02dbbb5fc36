# source: https://github.com/NACLab/ngc-learn/pull/79
# expect: none
# runtime: COMPILES 2 CALLS 2
# why: with static_argnums=(1) the function argument is hashed as a static value, so root works; it compiles once per distinct function (2 compiles for the 2 calls with func1 and func2), as intended.

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
from jax import jit
from functools import partial

def func1(foo):
    return foo * 2

def func2(foo):
    return foo * 3

@partial(jit, static_argnums=(1))
def root(base, method):
    return method(base)

root(3, func1)

root(3, func2)
_report({"jit(root)"}, 2)  # scaffolding
