# source: https://github.com/jax-ml/jax/issues/3120
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: The thread's fix: pmap is given axis_name='batch', matching the psum, so the mapped function traces and compiles once.

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
import numpy as np  # scaffolding

a = np.arange(4)[np.newaxis,:]
print(a.shape)
def test(x):
  return jax.lax.psum(x, axis_name='batch')
ptest = jax.pmap(test, axis_name='batch')  # scaffolding: bound once
print(ptest(a))
print(ptest(a + 1))  # scaffolding: a second call
_report({"jit(_fun)"}, 2)  # scaffolding
