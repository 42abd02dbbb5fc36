# source: https://github.com/jax-ml/jax/pull/3532
# expect: none
# runtime: COMPILES 2 CALLS 3
# why: precision is a keyword-only argument named in static_argnames: one compile per precision value (2 for 3 calls), the intended use.
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
from functools import partial

import jax
import jax.numpy as jnp
from jax import lax


@partial(jax.jit, static_argnames=['precision'])
def dot(x, y, *, precision=None):
  return jnp.dot(x, y, precision=precision)  # scaffolding: the PR elides the body


x = jnp.ones((2, 2))  # scaffolding
y = jnp.ones((2, 2))  # scaffolding
dot(x, y)
dot(x, y, precision=lax.Precision.HIGHEST)
dot(x, y, precision=lax.Precision.HIGHEST)
_report({"jit(dot)"}, 3)
