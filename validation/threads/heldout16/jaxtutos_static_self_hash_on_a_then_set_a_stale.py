# source: https://github.com/jecampagne/JaxTutos
# expect: stale-closure at line 54
# runtime: COMPILES 2 CALLS 4
# why: the notebook's fix hashes the static self on a only, but self is mutable: after objA.set_a(40.) the call hits the cache entry stored for that same object (traced with a = 3.0) and returns the stale 33.0 instead of the notebook's 440 (2 compiles for 4 calls on jax 0.10.2; the notebook, on jax 0.4.26, recompiled).
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
        print("Nouveau A")
        self.a = a
        self.b = None

    def set_a(self,x):
        self.a = x
        print("new a:",self.a)

    def set_b(self,x):
        self.b = x

    @partial(jit, static_argnums=0)
    def f(self, var):
        print("compile...")
        return self.a * var

    def __hash__(self):
        return hash((self.a))                 # do not put "b"

    def __eq__(self, other):
        return (isinstance(other, A) and
            (self.a) == (other.a))             # do not put "b"

idp=0

objA = A(2.0)
idp = u_print(idp, objA.a, objA.b)

b = objA.f(10.)         #  quel est le type de 'b' ??? (*)
print("b:", b, type(b))
objA.set_b(b)
idp = u_print(idp, objA.a, objA.b)

objA.set_b(objA.f(11.))
idp = u_print(idp, objA.a, objA.b)


objA = A(3.0)
idp = u_print(idp, objA.a, objA.b)
objA.set_b(objA.f(20.))
idp = u_print(idp, objA.a, objA.b)

objA.set_a(40.)
objA.set_b(objA.f(11.))
idp = u_print(idp, objA.a, objA.b)   # 40.*11. = 440
_report({"jit(f)"}, 4)  # scaffolding
