# source: https://github.com/pnkraemer/probfindiff/pull/59
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: with the PR's plain @jax.jit the kernel jits normally: the coefficient array p is a traced keyword argument and polynomial compiles once for two calls.

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
"""Kernel zoo."""


from functools import partial

import jax
import jax.numpy as jnp

from typing import Any  # scaffolding: stands in for probfindiff.typing
Array = ArrayLike = Any  # scaffolding


try:  # scaffolding: the decorator runs at definition time
    @jax.jit
    def polynomial(
        x: ArrayLike,
        y: ArrayLike,
        *,
        p: ArrayLike,
    ) -> Array:
        r"""Polynomial kernels."""  # (docstring shortened)
        x = jnp.asarray(x)
        y = jnp.asarray(y)
        p = jnp.asarray(p)
        val: Array = jnp.polyval(p, jnp.dot(x, y)) + 1
        return val

    k = partial(polynomial, p=jnp.ones((3,)))  # as in tests/test_utils/test_kernel.py
    k(jnp.ones(2), jnp.ones(2))  # scaffolding
    k(jnp.zeros(2), jnp.ones(2))  # scaffolding
    _report({"jit(polynomial)"}, 2)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
