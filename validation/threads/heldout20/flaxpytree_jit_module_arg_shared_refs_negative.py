# source: https://flax.readthedocs.io/en/latest/guides/pytree.html
# expect: none
# runtime: COMPILES 4 CALLS 4
# why: the guide's jax.jit of functions taking NNX modules as pytrees: forward(weights, x), then a Parent with shared references passed through jax.jit (sharing lost, as the guide shows), through split/merge and through nnx.jit (sharing kept); each compiles once.
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


from flax import nnx
import jax
import jax.numpy as jnp

class Linear(nnx.Module):
  def __init__(self, din, dout, rngs: nnx.Rngs):
    self.din, self.dout = din, dout
    self.kernel = nnx.Param(rngs.normal((din, dout)))

rngs = nnx.Rngs(0)
weights = Linear(2, 3, rngs=rngs)

@jax.jit
def forward(weights, x):
  return x @ weights.kernel

y = forward(weights, x=rngs.uniform((5, 2)))
print(f"{y.shape = }")

class Shared(nnx.Pytree):
  def __init__(self):
    self.x = jnp.array(1.0)

class Parent(nnx.Pytree):
  def __init__(self):
    self.left = Shared()
    self.right = self.left  # reference sharing

m = Parent()

print(f"{nnx.find_duplicates(m) = }  # not a tree")

m = Parent()
print(f"Before: {m.left is m.right = }")

@jax.jit
def f(m):
  print(f"Inside: {m.left is m.right = }")
  return m

m = f(m)
print(f"After:  {m.left is m.right = }")

m = Parent()
print(f"Before: {m.left is m.right = }")
graphdef, state = nnx.split(m)

@jax.jit
def f(graphdef, state):
  m = nnx.merge(graphdef, state)
  print(f"Inside: {m.left is m.right = }")
  return nnx.state(m)

state = f(graphdef, state)
nnx.update(m, state)

print(f"After:  {m.left is m.right = }")
print(f"{state = }") # deduplicated state

m = Parent()
print(f"Before: {m.left is m.right = }")

@nnx.jit
def f(m):
  print(f"Inside: {m.left is m.right = }")
  return m

m = f(m)

print(f"After:  {m.left is m.right = }")

_report({"jit(forward)", "jit(f)"}, 4)  # scaffolding
