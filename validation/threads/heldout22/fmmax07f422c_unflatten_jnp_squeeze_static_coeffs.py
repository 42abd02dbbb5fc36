# source: https://github.com/facebookresearch/fmmax/commit/07f422cc5c41ccc4040b9c0b942d96043775b2bc
# expect: trace-time-error at line 84
# runtime: ERROR TracerBoolConversionError
# why: The expansion's basis coefficients are static numpy, but jnp.squeeze turns them into tracers under jit, so the Python max(i) used to size the output raises TracerBoolConversionError.
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
import dataclasses
from typing import Tuple

import jax
import jax.numpy as jnp
import numpy as onp


@dataclasses.dataclass
class Expansion:
    basis_coefficients: onp.ndarray

    @property
    def num_terms(self) -> int:
        return self.basis_coefficients.shape[-2]


def unflatten_expansion(
    aux_tuple: Tuple["_HashableArray"],
    leaves: Tuple,
) -> Expansion:
    """Unflattens the `Expansion`."""
    del leaves
    wrapped: "_HashableArray" = aux_tuple[0]
    coeffs: onp.ndarray = wrapped.value
    return Expansion(basis_coefficients=coeffs)


jax.tree_util.register_pytree_node(
    Expansion,
    lambda e: ((), (_HashableArray(e.basis_coefficients),)),
    unflatten_func=unflatten_expansion,
)


class _HashableArray:
    """Hashable wrapper for numpy arrays."""

    def __init__(self, value: onp.ndarray):
        self.value: onp.ndarray = value

    def __hash__(self):
        return hash((self.value.shape, self.value.dtype, self.value.tobytes()))

    def __eq__(self, other):
        if not isinstance(other, _HashableArray):
            return False
        return (
            self.value.shape == other.value.shape
            and self.value.dtype == other.value.dtype
            and onp.all(self.value == other.value)
        )


def unflatten(flat: jnp.ndarray, expansion: Expansion) -> jnp.ndarray:
    assert flat.ndim >= 3
    assert flat.shape[-1] == expansion.num_terms

    # Eliminate any leading dimensions that may be used for shard broadcasting.
    i = jnp.squeeze(expansion.basis_coefficients[..., 0])
    j = jnp.squeeze(expansion.basis_coefficients[..., 1])

    batch_shape = flat.shape[:-3]
    bz_grid_shape = flat.shape[-3:-1]

    # The shape of the output array shoudl accomodate all `(i, j)` values.
    shape = batch_shape + (
        (max(i) - min(i) + 1) * bz_grid_shape[0],
        (max(j) - min(j) + 1) * bz_grid_shape[1],
    )

    bz_i, bz_j = onp.meshgrid(
        onp.arange(bz_grid_shape[0]),
        onp.arange(bz_grid_shape[1]),
        indexing="ij",
    )

    offset_i = min(i) * bz_grid_shape[0]
    offset_j = min(j) * bz_grid_shape[1]

    merged_i = i * bz_grid_shape[0] + bz_i[..., onp.newaxis] - offset_i
    merged_j = j * bz_grid_shape[1] + bz_j[..., onp.newaxis] - offset_j

    stacked_i = merged_i.flatten()
    stacked_j = merged_j.flatten()
    stacked_flat = jnp.reshape(flat, batch_shape + (-1,))

    return jnp.full(shape, jnp.nan).at[..., stacked_i, stacked_j].set(stacked_flat)


expansion = Expansion(basis_coefficients=onp.array([[0, 0], [1, 0], [0, 1], [-1, 0], [0, -1]]))  # scaffolding
flat = jnp.ones((2, 2, expansion.num_terms))  # scaffolding: (num_bz_kx, num_bz_ky, num_terms)
try:  # scaffolding
    for _ in range(3):  # scaffolding
        out = jax.jit(unflatten)(flat, expansion)  # scaffolding: unflatten runs inside jitted farfield code
    _report({"jit(unflatten)"}, 3)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
