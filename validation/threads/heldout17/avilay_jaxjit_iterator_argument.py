# source: https://github.com/avilay/learn-ai-act-1
# expect: trace-time-error at line 39
# runtime: ERROR TypeError
# why: a list_iterator is passed as the argument of the jitted sum_of_sqs; it is not a pytree of arrays, so jit raises TypeError (not a valid JAX type) while the list call before it works.
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


import jax
import numpy as np
import jax.numpy as jnp
from jax import random, jit, lax, vmap, pmap, grad, value_and_grad

@jit
def sum_of_sqs(xs):
    return jnp.sum(jnp.array([x**2 for x in xs]))

sum_of_sqs([0., 1., 2.])

try:
    sum_of_sqs(iter([0., 1., 2.]))
    _report({"jit(sum_of_sqs)"}, 2)  # scaffolding
except Exception as err:
    print(f"{type(err)}\n{err}")
    print(f"ERROR {type(err).__name__}")  # scaffolding
