# source: https://github.com/jecampagne/JaxTutos
# expect: unhashable-static at line 59
# runtime: ERROR ValueError
# why: the static self hashes (self.a, self.b), and after objA.set_b(b) the attribute b is the jax Array returned by f, which is unhashable, so the next objA.f(11.) raises ValueError (non-hashable static argument).
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
        print("new A")
        self.a = a
        self.b = None

    def set_a(self,x):
        self.a = x
        print("new a:",self.a)


    def set_b(self,x):
        self.b = x

    @partial(jit, static_argnums=0)   #"self" is static
    def f(self, var):
        print("compile...")
        return self.a * var

    # specific hash metho
    def __hash__(self):
        return hash((self.a,self.b))

    def __eq__(self, other):   # you need it also
        return (isinstance(other, A) and
            (self.a, self.b) == (other.a, other.b))


idp=0

objA = A(2.0)
idp = u_print(idp, objA.a, objA.b)

b = objA.f(10.)         #  what is the type of 'b' ??? (*)
print("b:", b, type(b))
objA.set_b(b)
idp = u_print(idp, objA.a, objA.b)

try:  # scaffolding
    objA.f(11.)
    _report({"jit(f)"}, 2)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
