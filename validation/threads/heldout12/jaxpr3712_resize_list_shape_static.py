# source: https://github.com/jax-ml/jax/pull/3712
# expect: unhashable-static at line 46
# runtime: ERROR ValueError
# why: resize forwards the caller's shape, a list, into the static shape argument of the jitted _resize; lists are unhashable, which JAX used to hash by identity (a recompile per call) and now rejects.

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
from functools import partial  # scaffolding
from typing import Sequence, Union  # scaffolding

import jax  # scaffolding
import jax.numpy as jnp  # scaffolding
from jax import jit  # scaffolding
from jax.image import ResizeMethod  # scaffolding


@partial(jit, static_argnums=(1, 2, 3))
def _resize(image, shape: Sequence[int], method: Union[str, ResizeMethod],
            antialias: bool):
  return jax.image.resize(image, shape, method, antialias=antialias)  # scaffolding: stand-in for the scale-and-translate body


def resize(image, shape: Sequence[int], method: Union[str, ResizeMethod],
           antialias: bool = True):
  return _resize(image, shape, method, antialias)


image = jnp.ones((8, 8, 3))  # scaffolding
try:  # scaffolding
  for _ in range(3):  # scaffolding
    resize(image, [16, 16, 3], "bilinear")  # scaffolding: a list shape, as callers passed it
  _report({"jit(_resize)"}, 3)  # scaffolding
except Exception as e:  # scaffolding
  print(f"ERROR {type(e).__name__}")  # scaffolding
