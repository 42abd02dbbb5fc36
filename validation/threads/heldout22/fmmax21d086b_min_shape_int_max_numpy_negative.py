# source: https://github.com/facebookresearch/fmmax/commit/21d086baf04cefc9d715a9e3a0d12fcae7264d15
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: min_array_shape_for_expansion calls int(max(abs(...))) inside jitted FMM code, but the expansion's coefficients are static numpy (aux data of the pytree), so the shape check runs on host values and the convolution matrix compiles once.
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


def fourier_convolution_matrix(
    x: jnp.ndarray,
    expansion: Expansion,
) -> jnp.ndarray:
    """Computes the Fourier convolution matrix for `x` and `basis_coefficients`."""
    _validate_shape_for_expansion(x.shape, expansion)
    x_fft = jnp.fft.fft2(x)
    x_fft /= jnp.prod(jnp.asarray(x.shape[-2:]))
    idx = _standard_toeplitz_indices(expansion)
    return x_fft[..., idx[..., 0], idx[..., 1]]


def _standard_toeplitz_indices(expansion: Expansion) -> jnp.ndarray:
    """Computes the indices for a standard Toeplitz matrix for `basis_coefficients`."""
    i, j = jnp.meshgrid(
        jnp.arange(expansion.num_terms),
        jnp.arange(expansion.num_terms),
        indexing="ij",
    )
    basis_coefficients = jnp.asarray(expansion.basis_coefficients)
    idx = basis_coefficients[i, :] - basis_coefficients[j, :]
    return idx


def _validate_shape_for_expansion(
    shape: Tuple[int, ...],
    expansion: Expansion,
) -> None:
    """Validates that the shape is sufficient for the provided expansion."""
    min_shape = min_array_shape_for_expansion(expansion)
    if any([d < dmin for d, dmin in zip(shape[-2:], min_shape)]):
        raise ValueError(
            f"`shape` is insufficient for `expansion`, the minimum shape for the "
            f"final two axes is {min_shape} but got shape {shape}."
        )


def min_array_shape_for_expansion(expansion: Expansion) -> Tuple[int, int]:
    """Returns the minimum allowed shape for an array to be expanded."""
    return (
        int(2 * max(abs(expansion.basis_coefficients[:, 0])) + 1),
        int(2 * max(abs(expansion.basis_coefficients[:, 1])) + 1),
    )


expansion = Expansion(basis_coefficients=onp.array([[0, 0], [1, 0], [0, 1], [-1, 0], [0, -1]]))  # scaffolding
conv = jax.jit(fourier_convolution_matrix)  # scaffolding: permittivity convolution matrices inside jitted FMM code
for k in range(3):  # scaffolding: three permittivity patterns
    eps = jnp.ones((16, 16)) * (2.0 + k)
    mat = conv(eps, expansion)
_report({"jit(fourier_convolution_matrix)"}, 3)  # scaffolding
