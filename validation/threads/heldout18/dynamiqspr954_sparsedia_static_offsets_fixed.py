# source: https://github.com/dynamiqs/dynamiqs/pull/954
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: with the PR's static offsets argument the diagonals are sliced at fixed offsets, so the jitted Hamiltonian builder compiles once for three drive frequencies.
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


from collections import defaultdict  # sparsedia_primitives.py imports (kept)
from collections.abc import Sequence
from functools import partial, reduce

import jax
import jax.numpy as jnp
import numpy as np
from jax._src.core import concrete_or_error
from jaxtyping import Array


def array_to_sparsedia(
    x: Array, offsets: tuple[int, ...] | None
) -> tuple[tuple[int, ...], Array]:
    if offsets is None:
        concrete_or_error(
            None,
            x,
            'The `offsets` argument of `array_to_sparsedia` must be statically '
            'specified to use `array_to_sparsedia` within JAX transformations.',
        )
        offsets = _find_offsets(x)

    diags = _construct_diags(offsets, x)
    return offsets, diags


def _find_offsets(x: Array) -> tuple[int, ...]:
    indices = np.nonzero(x)
    return _numpy_to_tuple(np.unique(indices[-1] - indices[-2]))


def _numpy_to_tuple(x: np.ndarray) -> tuple:
    assert x.ndim == 1
    return tuple([sub_x.item() for sub_x in x])


def _construct_diags(offsets: tuple[int, ...], x: Array) -> Array:
    n = x.shape[-1]
    diags = jnp.zeros((*x.shape[:-2], len(offsets), n), dtype=x.dtype)

    for i, offset in enumerate(offsets):
        diag = jnp.diagonal(x, offset=offset, axis1=-2, axis2=-1)
        diags = diags.at[..., i, _sparsedia_slice(offset)].set(diag)

    return diags


def _sparsedia_slice(offset: int) -> slice:
    return slice(offset, None) if offset >= 0 else slice(None, offset)


n = 6  # scaffolding: a driven oscillator, H(omega) = omega * a^dag a + (a + a^dag)
a = np.diag(np.sqrt(np.arange(1, n)), 1)  # scaffolding
num = a.T @ a  # scaffolding


@jax.jit  # scaffolding: dq.asqarray(H, layout=dq.dia, offsets=...) inside a jitted function
def hamiltonian_dia(omega):  # scaffolding
    H = omega * num + a + a.T  # scaffolding
    return array_to_sparsedia(H, (-1, 0, 1))[1]  # scaffolding


try:  # scaffolding
    for omega in (1.0, 1.5, 2.0):  # scaffolding
        hamiltonian_dia(omega)  # scaffolding
    _report({"jit(hamiltonian_dia)"}, 3)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
