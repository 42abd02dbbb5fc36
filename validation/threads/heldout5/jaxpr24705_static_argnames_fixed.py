# source: https://github.com/jax-ml/jax/pull/24705
# expect: none
# runtime: COMPILES 2 CALLS 2
# why: 'the current way': square is named in static_argnames at the jit boundary, so the conditional sees a Python bool; one compile per value of square (2 for 2 calls).
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
from functools import partial

import jax


@partial(jax.jit, static_argnames=['square'])
def f(x: jax.Array, square: bool):
  return x ** 2 if square else x

print(f(2, True))  # 4
print(f(2, False))  # 2
_report({"jit(f)"}, 2)
