# source: https://github.com/vvvm23/vvvm23.github.io/blob/25a8916c1a85d2ce8b766700c85b8daadd0d94dd/content/posts/2023-05-22-jax-post/index.md
# expect: shape-churn at line 42
# runtime: COMPILES 7 CALLS 13
# why: random_shape_test feeds jit_cube an array of a random length on every call, so each call with a new length traces and compiles again (the post measures ms per call instead of us).

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
import random

random.seed(0)  # scaffolding
x1 = jnp.ones((4,))  # scaffolding: x1 is defined earlier in the post


def cube(x):
  return x*x*x

def random_shape_test(fn):
  length = random.randint(1, 1000)
  return fn(jnp.empty((length,)))

print("random length eager time:")
for _ in range(6):  # scaffolding: stands in for %timeit -n1000
  random_shape_test(cube).block_until_ready()

jit_cube = jax.jit(cube)
jit_cube(x1)

print("fixed length compiled time:")
for _ in range(6):  # scaffolding: stands in for %timeit -n1000
  jit_cube(x1).block_until_ready()

print("random length compiled time:")
for _ in range(6):  # scaffolding: stands in for %timeit -n1000
  random_shape_test(jit_cube).block_until_ready()
_report({"jit(cube)"}, 13)
