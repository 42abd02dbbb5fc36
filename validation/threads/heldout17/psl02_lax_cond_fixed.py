# source: https://predictivesciencelab.github.io/advanced-scientific-machine-learning/functional_programming/02_jit.html
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: lax.cond takes the traced predicate, so myabs compiles once and runs.
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
import jax.numpy as jnp
from jax import lax

@jax.jit
def myabs(x):
    return lax.cond(
        x > 0,          # condition
        lambda _: x,    # if true
        lambda _: -x,   # if false
        None            # operands to pass to the lambda functions (nothing here)
    )

myabs(jnp.array(-2))
_report({"jit(myabs)"}, 1)  # scaffolding
