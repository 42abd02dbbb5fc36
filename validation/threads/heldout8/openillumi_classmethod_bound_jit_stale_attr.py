# source: https://openillumi.com/en/en-jax-jit-class-method-stale-cache-fix
# expect: stale-closure at line 43
# runtime: COMPILES 1 CALLS 2
# why: jit(c.calc) closes over the instance: self.mul is read as a Python constant at trace time and is not part of the cache key, so after c.mul is set to False the second call reuses the first compile (1 compile for 2 calls) and still multiplies, a stale result.

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

    def calc(self, y):  # scaffolding
        if self.mul:
            return self.x * y
        return y

c = CustomClass(2, True)  # scaffolding
jitted_calc = jit(c.calc)
print(jitted_calc(3))  # 6
c.mul = False  # scaffolding
print(jitted_calc(3))  # still 6: the compiled code baked in mul=True
_report({"jit(calc)"}, 2)  # scaffolding
