# source: https://github.com/jax-ml/jax/issues/39858
# expect: unhashable-static at line 47
# runtime: ERROR ValueError
# why: calc marks self static (static_argnums=0); the instance's __hash__ hashes its jax array attribute x, which is unhashable, so the first jitted call raises instead of compiling.

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
from functools import partial  # scaffolding

import jax.numpy as jnp  # scaffolding
from jax import jit  # scaffolding


class CustomClass:
    def __init__(self, x: jnp.ndarray, mul: bool):
        self.x = x
        self.mul = mul

    @jit(static_argnums=0)
    def calc(self, y):
        if self.mul:
            return self.x * y
        return y

    def __hash__(self):
        return hash((self.x, self.mul))

    def __eq__(self, other):
        return (
            isinstance(other, CustomClass)
            and (self.x, self.mul) == (other.x, other.mul)
        )


c = CustomClass(jnp.array([1.0, 2.0]), True)  # scaffolding
try:  # scaffolding
    print(c.calc(3.0))
    _report({"jit(calc)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
