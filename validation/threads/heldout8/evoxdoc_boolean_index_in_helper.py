# source: https://evox.readthedocs.io/en/v0.9.1-dev/_sources/guide/developer/2-jit-able.md
# expect: trace-time-error at line 38
# runtime: ERROR NonConcreteBooleanIndexError
# why: bar is not decorated but is traced as part of the jitted foo, and x[x > 0] is a boolean mask whose output size depends on the values, so tracing foo raises NonConcreteBooleanIndexError.

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
import jax.numpy as jnp  # scaffolding


@jax.jit
def foo(x):
    return bar(x)

def bar(x):
    return x[x > 0] # dynamic index, not jit-able

try:  # scaffolding
    foo(jnp.arange(-2.0, 3.0))
    _report({"jit(foo)"}, 1)
except Exception as e:
    print(f"ERROR {type(e).__name__}")
