# source: https://github.com/jax-ml/jax/issues/39858
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: With a hashable Python float in x (as the fixing PR documents), self hashes and compares by value, so repeated calls with equal instances reuse one compilation.

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
    def __init__(self, x: float, mul: bool):
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


c = CustomClass(2.0, True)  # scaffolding
d = CustomClass(2.0, True)  # scaffolding
c.calc(3.0)  # scaffolding
c.calc(4.0)  # scaffolding
d.calc(5.0)  # scaffolding
_report({"jit(calc)"}, 3)  # scaffolding
