# source: https://github.com/jecampagne/JaxTutos
# expect: none
# runtime: COMPILES 4 CALLS 13
# why: with A registered as a pytree whose a and b are both leaves, self is traced rather than static, so changing objA.a is seen by the next call (30*30 = 900, 40*50 = 2000) and f recompiles only when the leaf types change (b from None to float to array, var from float to array), not per value.
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

from jax import tree_util

class A():
    def __init__(self, a, b=None):
        self.a = a
        self.b = b

    @jit
    def f(self, var):
        print("compile...")
        new_b = self.a * var
        return A(self.a, new_b)       # <--------- new objet.


# registration with  lambda functions
tree_util.register_pytree_node(A,
                               lambda x: ((x.a,x.b), None),
                               lambda _, x: A(a=x[0],b=x[1])
                              )

idp=0

objA = A(2.0)
idp = u_print(idp, objA.a, objA.b)    #0

objA = objA.f(10.)
idp = u_print(idp,objA.a, objA.b)     #1

objA = objA.f(11.)
idp = u_print(idp, objA.a, objA.b)    #2

####

objA = A(3.0)
idp = u_print(idp, objA.a, objA.b)     #3
objA = objA.f(20.)
idp = u_print(idp, objA.a, objA.b)     #4
objA= objA.f(30.)
idp = u_print(idp, objA.a, objA.b)     #5


objA.a = 30.  # change
objA= objA.f(30.)
idp = u_print(idp, objA.a, objA.b)     #6

####

objA = A(3.0)
idp = u_print(idp, objA.a, objA.b)     #7

objA= objA.f(20.)
idp = u_print(idp, objA.a, objA.b)     #8

objA= objA.f(30.)
idp = u_print(idp, objA.a, objA.b)     #9

print(">>>> try an array for var")

objA= objA.f(jnp.array([30.]))
idp = u_print(idp, objA.a, objA.b)     #10

objA= objA.f(jnp.array([40.]))
idp = u_print(idp, objA.a, objA.b)     #11

objA= objA.f(jnp.array([50.]))
idp = u_print(idp, objA.a, objA.b)     #12


objA.a = 40. ### new change
objA= objA.f(jnp.array([50.]))
idp = u_print(idp, objA.a, objA.b)     #13
_report({"jit(f)"}, 13)  # scaffolding
