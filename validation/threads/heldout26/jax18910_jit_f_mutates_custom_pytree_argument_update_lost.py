# source: https://github.com/jax-ml/jax/issues/18910
# expect: stale-closure at line 41
# runtime: COMPILES 1 CALLS 2
# why: set_c assigns self.c on the CPT argument inside the jitted f, but jit flattens cpt and works on an unflattened copy, so the caller's cpt never gets c (printed c=None after both jitted calls, while the eager call sets it): the state update is lost.
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

class CPT:

    __slots__ = (
        'a',
        'b',
        'c'
    )
    
    def __init__(self, *, a, b):
        self.a = a
        self.b = b

    def set_c(self, e, t=None):
        self.c = self.a * self.b * e
        return t

    def get_d(self, t=None):
        return self.c*2 + 1

    def flatten(self):
        return ((self.a, self.b), (['a', 'b'],))
        
    @classmethod
    def unflatten(cls, aux, vals):
        return cls(
            **dict(zip(aux[0], vals))
        )

    def __repr__(self):
        return (
            f'{self.__class__}'
            f'[a={self.a}, b={self.b}, '
            f'c={getattr(self, "c", None)}]'
        )

jax.tree_util.register_pytree_node(
    CPT, CPT.flatten, CPT.unflatten
)


def f(x, e, cpt):
    """A convoluted function I could refer to if necessary."""
    e = e.at[1:2].set(x)
    t = cpt.set_c(e, jax.lax.create_token())  # Instead of None
    d = cpt.get_d(t)
    return d.sum()

jf   = jax.jit(f)


import jax.numpy as jnp  # scaffolding
_2s, _3s, _4s = 2 * jnp.ones(3), 3 * jnp.ones(3), 4 * jnp.ones(3)  # scaffolding: the thread's names for constant arrays
cpt = CPT(a=_2s, b=_3s)  # scaffolding
print(f(.5, _4s, cpt), cpt)  # scaffolding: eager call, cpt.c holds a concrete array
cpt = CPT(a=_2s, b=_3s)  # scaffolding
print(jf(.5, _4s, cpt))  # scaffolding: jitted call
print(cpt)  # scaffolding: jitted f flattened cpt into a fresh copy; the caller's cpt never got c (c=None)
print(jf(.7, _4s, cpt), "c still:", getattr(cpt, "c", None))  # scaffolding: second call, cached, set_c does not run
_report({"jit(f)"}, 2)  # scaffolding
