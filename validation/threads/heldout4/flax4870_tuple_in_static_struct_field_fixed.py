# source: https://github.com/google/flax/issues/4870
# expect: none
# runtime: COMPILES 2 CALLS 2
# why: with an immutable, hashable tuple in the static field the change is a new Foo (replace), so jit compiles once per distinct value and returns 12.0: 2 compiles for 2 calls, both correct.

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
  b: tuple = flax.struct.field(pytree_node=False)

f = Foo(jnp.ones((2, 2)), (1, 2))
l, d = jax.tree.flatten(f)


@jax.jit  # scaffolding: a jitted consumer of Foo
def total(foo):  # scaffolding
  return foo.a.sum() * len(foo.b)  # scaffolding


first = total(f)  # scaffolding: 4 * 2 = 8
f = f.replace(b=f.b + (3,))
second = total(f)  # scaffolding: 4 * 3 = 12
print(first, second, "stale" if float(second) != 12.0 else "fresh")  # scaffolding
_report({"jit(total)"}, 2)  # scaffolding
