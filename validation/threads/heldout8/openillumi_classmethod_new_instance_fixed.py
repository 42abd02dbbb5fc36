# source: https://openillumi.com/en/en-jax-jit-class-method-stale-cache-fix
# expect: none
# runtime: COMPILES 2 CALLS 2
# why: Same static self with __hash__/__eq__, but the changed state is a new instance instead of an in-place mutation, so its hash and equality differ from the cached key and jit compiles the mul=False variant (2 compiles for 2 calls, both expected; results 6 then 3).

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
from functools import partial
import jax.numpy as jnp
from jax import jit

class CustomClass:  # scaffolding
    def __init__(self, x, mul):  # scaffolding
        self.x = x
        self.mul = mul

    @partial(jit, static_argnums=0)
    def calc(self, y):  # scaffolding
        if self.mul:
            return self.x * y
        return y

    def __hash__(self):
        return hash((self.x, self.mul))

    def __eq__(self, other):
        return (isinstance(other, CustomClass) and
                (self.x, self.mul) == (other.x, other.mul))

c = CustomClass(2, True)  # scaffolding
print(c.calc(3))  # 6
c = CustomClass(2, False)  # scaffolding
print(c.calc(3))  # 3
_report({"jit(calc)"}, 2)  # scaffolding
