# source: https://github.com/google/flax/issues/4870
# expect: unhashable-static at line 36
# runtime: COMPILES 1 CALLS 2
# why: a pytree_node=False field is static aux data and becomes part of jit's cache key; a mutable list there is stored by reference, so after f.b.append(3) the cached key changes with it and the second call reuses the executable traced for len 2: it returns 8.0 instead of 12.0 with 1 compile for 2 calls (a stale result).

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


import flax
import jax
import jax.numpy as jnp


@flax.struct.dataclass
class Foo:
  a: jax.Array
  b: list = flax.struct.field(pytree_node=False)

f = Foo(jnp.ones((2, 2)), [1, 2])
l, d = jax.tree.flatten(f)


@jax.jit  # scaffolding: a jitted consumer of Foo
def total(foo):  # scaffolding
  return foo.a.sum() * len(foo.b)  # scaffolding


first = total(f)  # scaffolding: 4 * 2 = 8
f.b.append(3)
print(d)   # PyTreeDef(CustomNode(Foo[([1, 2, 3],)], [*]))
second = total(f)  # scaffolding: should be 4 * 3 = 12
print(first, second, "stale" if float(second) != 12.0 else "fresh")  # scaffolding
_report({"jit(total)"}, 2)  # scaffolding
