# source: https://github.com/jax-ml/jax/issues/25329
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: A jitted function called with a keyword argument named f; this broke in JAX 0.4.36 and works on 0.10.2.
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

import jax  # scaffolding

def myfun(x, f):
    return x*f

jax.jit(myfun)(1.0, f=2.0)
jax.jit(myfun)(1.0, f=3.0)  # scaffolding: a second call, new value, same jitted function object
_report({"jit(myfun)"}, 2)  # scaffolding
