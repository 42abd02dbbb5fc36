# source: https://github.com/jax-ml/jax/issues/861
# expect: none
# runtime: COMPILES 2 CALLS 2
# why: jit of an already-jitted function that uses lax.scan works today: each of the two jitted wrappers compiles once.
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

from jax import numpy as np
from jax import jit
from jax.lax import scan

def uses_scan(xs):    
    def fn(x, i):
        x = x + i
        return x, i
    
    _, os = scan(fn, 0., xs)
    return os

print('uses_scan:', uses_scan(np.ones(10)))

j = jit(uses_scan)
print('j:', j(np.ones(10)))

jj = jit(j)
print('jj:', jj(np.ones(10)))
_report({"jit(uses_scan)"}, 2)  # scaffolding
