# source: https://github.com/jax-ml/jax/issues/15817
# expect: stale-closure at line 49
# runtime: COMPILES 1 CALLS 1
# why: self is a registered pytree, so the jitted method gets a traced copy of it; the assignment self.x = ... inside jit updates that copy and is discarded, so a.x is unchanged after the call (no error, silently wrong).

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
import jax
import jax.numpy as jnp
import numpy as np


class A:
    def __init__(self, x: jnp.ndarray):
        self.x = x

    def _tree_flatten(self):
        dynamic = (self.x, )
        static = {}
        return dynamic, static

    @classmethod
    def _tree_unflatten(cls, static, dynamic):
        return cls(*dynamic)

    @jax.jit   # if there is not jit here then everything is good
    def set_subsystem(self, index, sub: "A"):
        self.x = self.x.at[index].set(sub.x)


jax.tree_util.register_pytree_node(A,
                                   A._tree_flatten,
                                   A._tree_unflatten)


nall = 3
nsub = 2
x = jnp.array(np.random.random((nall, )))
x2 = jnp.array(np.random.random((nsub, )))

a = A(x)
a2 = A(x2)

print(a2.x)
print(a.x)
a.set_subsystem(jnp.arange(nsub), a2)
print(a.x)
print("a.x updated:", bool(jnp.all(a.x[:nsub] == a2.x)))  # scaffolding
_report({"jit(set_subsystem)"}, 1)
