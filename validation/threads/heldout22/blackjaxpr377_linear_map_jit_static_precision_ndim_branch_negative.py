# source: https://github.com/blackjax-devs/blackjax/pull/377
# expect: none
# runtime: COMPILES 2 CALLS 4
# why: the Python if on jnp.ndim(...) inside the jitted linear_map branches on a static rank, not a traced value; one compile per input rank (diagonal, dense) serves four calls.
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
# blackjax-devs/blackjax pull request #377: linear_map added to blackjax/util.py, jitted with a static precision
from functools import partial

import jax.numpy as jnp
from jax import jit, lax
from jax._src.numpy.util import promote_dtypes as _promote_dtypes  # scaffolding: renamed since 2022


@partial(jit, static_argnames=("precision",), inline=True)
def linear_map(diag_or_dense_a, b, *, precision="highest"):
    """Dot product of a diagonal (1-d) or dense (2-d) matrix with b."""
    diag_or_dense_a, b = _promote_dtypes(diag_or_dense_a, b)
    ndim = jnp.ndim(diag_or_dense_a)

    if ndim <= 1:
        return lax.mul(diag_or_dense_a, b)
    else:
        return lax.dot(diag_or_dense_a, b, precision=precision)


b = jnp.arange(3.0)  # scaffolding
for _ in range(2):  # scaffolding: a diagonal and a dense inverse mass matrix, each used twice
    linear_map(jnp.ones(3), b)
    linear_map(jnp.eye(3), b)
_report({"jit(linear_map)"}, 4)  # scaffolding
