# source: https://github.com/jax-ml/jax/issues/2511
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: jit of a lambda that vmaps np.linalg.det over a batch raised an escaped-tracer error when reported; on jax 0.10.2 it traces and compiles once and runs.

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
import numpy as onp  # scaffolding
import jax  # scaffolding
import jax.numpy as np  # scaffolding: the thread's test file uses np for jax.numpy
api = jax  # scaffolding: the thread calls api.jit

arr = np.ones((5, 2, 2))
foo = lambda x: jax.vmap(np.linalg.det, (0,))(x)
print(api.jit(foo)(arr))
print(api.jit(foo)(arr * 2))  # scaffolding: a second call
_report({"jit(<lambda>)"}, 2)  # scaffolding
