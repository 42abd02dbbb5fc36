# source: https://github.com/JoeZiminski/jax_playing/blob/main/thinking-in-jax/static_vs_traced_operations.py
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: the notes' fix: neg marked static with partial(jit, static_argnums=(1,)), so the conditional sees a Python bool (1 compile, 1 call).
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

import numpy as np
from jax import jit, make_jaxpr
from jax.errors import ConcretizationTypeError
import jax.numpy as jnp

from functools import partial
    # Return a new partial object which when called will behave like func
    # called with the positional arguments args and keyword arguments keywords.
    # If more arguments are supplied to the call, they are appended to args.


@partial(jit, static_argnums=(1,))
def f(x, neg):
    return -x if neg else x

print(f(1, True))  # scaffolding: print added
_report({"jit(f)"}, 1)  # scaffolding
