# source: https://github.com/Tershire/JAX_Study
# expect: trace-time-error at line 31
# runtime: ERROR TypeError
# why: size is a traced argument of jit(f), so jnp.ones((size,)) gets a traced shape and raises TypeError (the notebook marks the call 'not ok' and leaves it commented out).
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


import jax.numpy as jnp  # scaffolding
from jax import jit  # scaffolding

def f(size, value):
    return jnp.ones((size,))*value

f(3, 7)

f_jit = jit(f)

try:  # scaffolding
    f_jit(3, 7)  # scaffolding: the notebook's '# f_jit(3, 7)  # forbidden', uncommented
    _report({"jit(f)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
