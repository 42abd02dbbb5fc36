# source: https://github.com/jax-ml/jax/issues/16515
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: ensure_compile_time_eval wraps arithmetic on the jitted argument x; JAX silently stages it instead of raising, so f compiles once and runs.

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
jax.config.update('jax_platforms', 'cpu')

import jax.numpy as jnp

@jax.jit
def f(x):
    with jax.ensure_compile_time_eval():
        y = x * 15.  # some random computations
        y = y + 1.
    return y

x = jnp.arange(8).reshape((1, 2, 4))

print(f(x))
print(f(x + 1))  # scaffolding: a second call
_report({"jit(f)"}, 2)  # scaffolding
# print(f.lower(x).compile().as_text())
