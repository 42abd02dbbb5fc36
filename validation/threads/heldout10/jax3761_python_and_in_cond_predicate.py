# source: https://github.com/jax-ml/jax/issues/3761
# expect: trace-time-error at line 46
# runtime: ERROR TracerBoolConversionError
# why: inside the jitted cond_test_2, `x < 0 and y < 0` makes Python call bool() on the traced x < 0 to evaluate `and`, raising TracerBoolConversionError before lax.cond is reached; cond_test_1 (a single comparison) and the unjitted version work.

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
from jax import jit

@jit
def true_fn(x):
    return x - 5000.0

@jit
def false_fn(x):
    return x + 100.0

@jit
def cond_test_1(x, y):
    return jax.lax.cond(x < 0, true_fn, false_fn, x)

@jit
def cond_test_2(x, y):
    return jax.lax.cond(x < 0 and y < 0, true_fn, false_fn, x)

def cond_test_2_no_jit(x, y):
    return jax.lax.cond(x < 0 and y < 0, true_fn, false_fn, x)

print(cond_test_1(0.3, 0.1))
print(cond_test_2_no_jit(0.3, 0.1))
try:  # scaffolding
    cond_test_2(0.3, 0.1)
    _report({"jit(cond_test_2)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
