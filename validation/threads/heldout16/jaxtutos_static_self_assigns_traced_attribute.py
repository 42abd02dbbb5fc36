# source: https://github.com/jecampagne/JaxTutos
# expect: stale-closure at line 49
# runtime: ERROR UnexpectedTracerError
# why: the jitted f (self static) stores its traced result in self.b instead of returning it, so after the call objA.b holds a leaked tracer and the plain method g that uses it raises UnexpectedTracerError (the notebook: 'this is the culpit of the later crash on g').
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


import jax  # scaffolding
import jax.numpy as jnp  # scaffolding
from jax import jit  # scaffolding
from functools import partial  # scaffolding
jax.config.update("jax_enable_x64", True)

def u_print(idx:int, *args)->int:
    print(f"{idx}):",*args)
    idx +=1
    return idx

jax.clear_caches()  # clear all compilations

class A():
    def __init__(self, a: float):
        print("new A")
        self.a = a
        self.b = None

    @partial(jit, static_argnums=(0,))   # "self" is static
    def f(self, var: float) -> None:
        print("compile...")
        self.b = self.a * var  #<- this is the culpit of the later crash on "g"

    def g(self):
        print("g...:",self.b)
        return self.b * self.b

idp=0

objA = A(2.0)
idp = u_print(idp, objA.a, objA.b)
objA.f(10.)
idp = u_print(idp, objA.a, objA.b)
try:  # scaffolding
    res = objA.g()   # will case a crash but this is not the culpit
    print(res)
    _report({"jit(f)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
