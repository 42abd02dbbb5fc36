# source: https://github.com/jax-ml/jax/issues/13769
# expect: trace-time-error at line 36
# runtime: ERROR ConcretizationTypeError
# why: Static split indices are wrapped in jnp.array inside jit, which turns them into a tracer that jnp.split cannot use.
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
import jax.numpy as jnp  # scaffolding


@jax.jit  # scaffolding: the comment's jitted function, reconstructed from its prose
def f(x):
    sizes = [1, 2]  # scaffolding: "a list of plain Python ints ... constructed by a complex series of function calls"
    return jnp.split(x, jnp.array(sizes))  # "If I apply jnp.array to the list, I get a runtime error"


try:  # scaffolding
    f(jnp.zeros(6))
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
