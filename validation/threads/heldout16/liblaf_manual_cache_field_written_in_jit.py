# source: https://hope.liblaf.me/2025/2025-06-04-jax-jit-and-the-case-of-the-disappearing-cache-understanding-py-tree-nodes-and-functools-cached-property
# expect: stale-closure at line 41
# runtime: COMPILES 1 CALLS 2
# why: the property c assigns self._c_cache while use_c is being traced, so the write lands on the traced copy of foo and is discarded: after use_c(foo) the original foo._c_cache is still None and every later call or access computes c again.
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


import flax.struct
import jax
import jax.numpy as jnp

class Foo(flax.struct.PyTreeNode, frozen=False): # frozen=False allows modification
    a: jax.Array
    _c_cache: jax.Array = flax.struct.field(default=None) # JAX is aware of this field

    @property
    # NOT JIT-compiled itself
    def c(self) -> jax.Array:
        if self._c_cache is not None:
            return self._c_cache
        jax.debug.print("Computing c ...")
        self._c_cache = jnp.sum(self.a) # Modify the registered field
        return self._c_cache

@jax.jit
def use_c(foo: Foo) -> jax.Array:
    # ic(foo.__dict__) # Would show 'a' and '_c_cache' as Tracers
    return foo.c

foo = Foo(a=jnp.ones((3, 3)))
print(use_c(foo)) # Prints "Computing c ..."
print(use_c(foo)) # Prints "Computing c ..." AGAIN!
print("_c_cache after use_c:", foo._c_cache)  # scaffolding
_report({"jit(use_c)"}, 2)  # scaffolding
