# source: https://github.com/jax-ml/jax/issues/1461
# expect: trace-time-error at line 34
# runtime: ERROR TracerBoolConversionError
# why: under jit cond1 and cond2 are tracers, and Python's `and` calls bool() on cond1 while building the lax.cond predicate, which raises during tracing.

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


@jax.jit
def test(cond1, cond2, a,b):
    return jax.lax.cond(cond1 and cond2, (a,b), lambda x: x[0], (a,b), lambda x: x[1])
try:  # scaffolding
    test(True,True,1,2) #this raises an exception, see below
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
