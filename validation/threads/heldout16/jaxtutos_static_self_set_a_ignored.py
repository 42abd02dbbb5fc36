# source: https://github.com/jecampagne/JaxTutos
# expect: stale-closure at line 54
# runtime: COMPILES 1 CALLS 2
# why: self is static and hashed by identity, so after objA.set_a(100.) the call objA.f(10.) hits the cache traced with a = 2.0 and returns the stale 20.0 instead of 1000.0 (the notebook: 'if a unchanged for f => 2.0 * 10. = 20.').
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

class A():
    def __init__(self, a):
        print("New obj A")
        self.a = a
        self.b = None

    def set_a(self,x):
        self.a = x
        print("new a:",self.a)

    def set_b(self,x):                  # (*) call from extern
        self.b = x

    @partial(jit, static_argnums=(0,))   #  "self" is static
    def f(self, var):
        print("compile...")
        return self.a * var             # see (*)

    def g(self):
        print("g...:",self.b)
        return self.b * self.b


idp=0

objA = A(2.0)
idp = u_print(idp, objA.a, objA.b)
b  = objA.f(10.)
objA.set_b(b)      #<----------------------
idp = u_print(idp, objA.a, objA.b)
res = objA.g()
print(res)

objA.set_a(100.)   # <------ change "a"
idp = u_print(idp, objA.a, objA.b)
print(objA.f(10.))   # 100. * 10. = 1000.  expected, if "a" unchanged for "f" => 2.0  * 10. = 20.
_report({"jit(f)"}, 2)  # scaffolding
