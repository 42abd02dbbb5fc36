# source: https://github.com/rm-2278/JAX_practice/blob/032dbe8389ddcfb05a586d0fa5ba8e12ca6cc006/functions/jit_class.py
# expect: stale-closure at line 50
# runtime: COMPILES 1 CALLS 2
# why: self is static (static_argnums=0) with __hash__/__eq__ over (x, mul), but c is mutated in place (c.mul = False) after the first call; the cache entry holds c itself, which now compares equal, so the second call reuses the mul=True executable and prints 40 instead of 4.
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
import jax
import jax.numpy as jnp
from jax import jit
from functools import partial

class MyClass():
    def __init__(self, x: jnp.ndarray, mul: bool):
        self.x = x
        self.mul = mul
        
    @partial(jit, static_argnums=0)
    def calc(self, y):
        if self.mul:
            return self.x * y
        return y
    
    def __hash__(self):
        return hash((self.x, self.mul))
    
    def __eq__(self, other):
        return (isinstance(other, MyClass) and self.x == other.x and self.mul == other.mul)

c = MyClass(10, True)
print(c.calc(4))

c.mul = False
print(c.calc(4))

_report({"jit(calc)"}, 2)  # scaffolding
