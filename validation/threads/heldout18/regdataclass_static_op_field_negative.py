# source: https://docs.jax.dev/en/latest/_autosummary/jax.tree_util.register_dataclass.html
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: op is a static meta field of the registered dataclass, so the Python if on m.op inside jax.jit is decided at trace time and x, y are traced; one compile.
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


import jax.numpy as jnp  # scaffolding
import jax
from dataclasses import dataclass, field

@jax.tree_util.register_dataclass
@dataclass
class MyStruct:
  x: jax.Array  # defaults to non-static data field
  y: jax.Array  # defaults to non-static data field
  op: str = field(metadata=dict(static=True))  # marked as static meta field.

m = MyStruct(x=jnp.ones(3), y=jnp.arange(3), op='add')

leaves, treedef = jax.tree.flatten(m)
jax.tree.unflatten(treedef, leaves)

@jax.jit
def compiled_func(m):
  if m.op == 'add':
    return m.x + m.y
  else:
    raise ValueError(f"{m.op=}")

print(compiled_func(m))  # scaffolding: print
_report({"jit(compiled_func)"}, 1)  # scaffolding
