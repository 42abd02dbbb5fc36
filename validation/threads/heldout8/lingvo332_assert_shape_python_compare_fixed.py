# source: https://github.com/tensorflow/lingvo/issues/332
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: the reporter's own answer compares x.shape with plain Python len() and !=, which stay concrete under jit, so the check runs at trace time and f compiles once for its two calls.

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


def AssertShape(x: jnp.array, expected_shape) -> None:
  # Shape must be a python element with static size.
  xs = x.shape
  if len(xs) != len(expected_shape):
    raise ValueError(
      f'Wrong rank: got [{len(xs)}] {x.shape}, expected [{len(expected_shape)}] {expected_shape}')
  for k, d in enumerate(expected_shape):
    if xs[k] != d:
      raise ValueError(f'Wrong shape at dim {k}: got {x.shape}, expected {expected_shape}')


@jax.jit  # scaffolding
def f(x):  # scaffolding
  AssertShape(x, (2, 3))
  return x * 2


f(jnp.ones((2, 3)))  # scaffolding
f(jnp.zeros((2, 3)))  # scaffolding
_report({"jit(f)"}, 2)  # scaffolding
