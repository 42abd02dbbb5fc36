# source: https://hope.liblaf.me/2025/2025-06-04-jax-jit-and-the-case-of-the-disappearing-cache-understanding-py-tree-nodes-and-functools-cached-property
# expect: stale-closure at line 35
# runtime: COMPILES 1 CALLS 2
# why: inside the jitted use_b, foo is rebuilt from its pytree leaves, so functools.cached_property stores b in the __dict__ of a temporary traced copy that is discarded; every use_b(foo) call computes b again and the original foo never gets the cached value.
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


import functools
import flax.struct
import jax
import jax.numpy as jnp

class Foo(flax.struct.PyTreeNode):
    a: jax.Array

    @functools.cached_property
    @jax.jit  # The property itself is JIT-compiled
    def b(self) -> jax.Array:
        jax.debug.print("Computing b ...")
        return jnp.sum(self.a)

@jax.jit
def use_b(foo: Foo) -> jax.Array:
    # print(foo.__dict__) # For debugging, would show only 'a' as a Tracer here
    return foo.b

foo = Foo(a=jnp.ones((3, 3)))
print(use_b(foo)) # Prints "Computing b ..."
print(use_b(foo)) # Prints "Computing b ..." AGAIN!
print("b cached on foo:", "b" in foo.__dict__)  # scaffolding
_report({"jit(use_b)"}, 2)  # scaffolding
