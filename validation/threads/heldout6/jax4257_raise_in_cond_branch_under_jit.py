# source: https://github.com/jax-ml/jax/issues/4257
# expect: trace-time-error at line 35
# runtime: ERROR ValueError
# why: jit traces both branches of lax.cond, so the Python raise in the true branch runs at trace time and foo(5) fails with ValueError even though 5 is not too big.

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
def foo(x):
    def raise_error():
        raise ValueError("x too big: " + str(x))
    return jax.lax.cond(x > 10,
                        true_fun=lambda _: raise_error(),
                        false_fun=lambda _: x,
                        operand=[])

try:  # scaffolding
    foo(5)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
