# source: https://github.com/jax-ml/jax/issues/5351
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: static_argnums=1 names a parameter with a default; calling f(5) without it raised IndexError in 2021 but works on 0.10.2: f compiles once for 2 calls.

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
from functools import partial  # scaffolding
from jax import jit  # scaffolding

@partial(jit, static_argnums=1)
def f(x, y=0):
    return x + y

print(f(5))
print(f(6))  # scaffolding: a second call
_report({"jit(f)"}, 2)  # scaffolding
