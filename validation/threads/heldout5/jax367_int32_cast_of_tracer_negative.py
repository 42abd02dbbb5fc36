# source: https://github.com/jax-ml/jax/issues/367
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: np.int32(x) with np = jax.numpy on a traced x works under jit on 0.10.2 (the 2019 failure is fixed): foo compiles once for its call.
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
import jax
import jax.numpy as np


def foo(x):
  bar = np.int32(x)
  return x
jax.jit(foo)(np.array([1.0, 2.0], dtype=np.float32))
_report({"jit(foo)"}, 1)
