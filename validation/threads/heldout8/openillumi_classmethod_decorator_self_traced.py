# source: https://openillumi.com/en/en-jax-jit-class-method-stale-cache-fix
# expect: trace-time-error at line 37
# runtime: ERROR TypeError
# why: @jit on the method makes self the first traced argument; a plain Python CustomClass instance is not a valid JAX type, so the call fails while jit processes its arguments.

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
import jax.numpy as jnp
from jax import jit

class CustomClass:  # scaffolding
    def __init__(self, x, mul):  # scaffolding
        self.x = x
        self.mul = mul

    @jit
    def calc(self, y):  # scaffolding
        if self.mul:
            return self.x * y
        return y

c = CustomClass(2, True)  # scaffolding
try:  # scaffolding
    c.calc(3)
    _report({"jit(calc)"}, 1)
except Exception as e:
    print(f"ERROR {type(e).__name__}")
