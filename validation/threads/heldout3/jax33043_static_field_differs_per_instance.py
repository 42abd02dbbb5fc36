# source: https://github.com/jax-ml/jax/issues/33043
# expect: changing-static at line 63
# runtime: COMPILES 2 CALLS 4
# why: idx is a static field of the registered dataclass, so s2 (idx=3) has a different treedef from s1 (idx=2) and the jitted area compiles again although idx is never used: 2 compiles for 4 calls.

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


import time  # scaffolding
import jax.numpy as jnp  # scaffolding
import jax
from dataclasses import dataclass, field

@jax.tree_util.register_dataclass
@dataclass(slots=True)
class Shape:
    length: jax.Array
    idx: int = field(default=1, metadata={"static": True})

    @staticmethod
    @jax.jit
    def area(shape: "Shape") -> jax.Array:
        return shape.length * shape.length  # scaffolding: the thread's typo shape.lenght fixed

s1 = Shape(jnp.asarray(10.0), 2)

start = time.perf_counter()
area = s1.area(s1)
area.block_until_ready()
end = time.perf_counter()
print()
print(f"Compile time s1: {end - start:.2e} s")

start = time.perf_counter()
area = s1.area(s1)
area.block_until_ready()
end = time.perf_counter()
print()
print(f"Eval time s1: {end - start:.2e} s")

s2 = Shape(jnp.asarray(10.0), 3)

start = time.perf_counter()
area = s2.area(s2)
area.block_until_ready()
end = time.perf_counter()
print()
print(f"Compile time s2: {end - start:.2e} s")

start = time.perf_counter()
area = s2.area(s2)
area.block_until_ready()
end = time.perf_counter()
print()
print(f"Eval time s2: {end - start:.2e} s")
_report({"jit(area)"}, 4)  # scaffolding
