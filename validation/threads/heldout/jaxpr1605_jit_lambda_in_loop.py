# source: https://github.com/jax-ml/jax/pull/1605
# expect: jit-in-loop-or-body at line 33
# runtime: COMPILES 40 CALLS 40
# why: a fresh lambda is jitted on every iteration, so each of the 40 calls traces and compiles again (the PR only frees the old cache entries).

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
from jax import jit  # scaffolding
import jax.numpy as np  # scaffolding

for i in range(40):
  f = jit(lambda: 1. * np.ones((3, 4, 4)))
  f().block_until_ready()
_report({"jit(<lambda>)"}, 40)
