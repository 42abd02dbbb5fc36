# source: https://github.com/CMBSciPol/furax/commit/29c66b7bb98dd2689a1da0c3192703dadfd7c128
# expect: unhashable-static at line 160
# runtime: ERROR ValueError
# why: generate_noise_realization marks metadata static, but a populated HashedObservationMetadata is an eq dataclass holding JAX arrays, so it is unhashable and the jitted call raises ValueError (non-hashable static argument).
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



# ---- furax/mapmaking/gap_filling.py imports ----
from functools import partial

import jax
import jax.numpy as jnp
import lineax as lx
from jaxtyping import Array, ArrayLike, Float, PRNGKeyArray, Shaped

# from furax import FourierOperator, IndexOperator, MaskOperator, SymmetricBandToeplitzOperator  # scaffolding: stand-ins / copies below
# from furax._config import verbose_solver_callback  # scaffolding: stand-ins / copies below

# from ._observation import HashedObservationMetadata  # scaffolding: stand-ins / copies below

# ---- furax/mapmaking/_observation.py (imports used by HashedObservationMetadata; the observation classes are cut) ----
from dataclasses import dataclass
from typing import Self

import numpy as np
from jax.tree_util import register_dataclass
from jaxtyping import UInt32

from typing import Generic, TypeVar  # scaffolding
T = TypeVar('T')  # _observation.py's TypeVar

class AbstractObservation(Generic[T]):  # scaffolding: the real ABC is cut; only named in an annotation
    pass  # scaffolding

@register_dataclass
@dataclass
class HashedObservationMetadata:
    """Hashed version of some metadata fields for JAX compatibility."""

    uid: UInt32[np.ndarray | Array, '']
    telescope_uid: UInt32[np.ndarray | Array, '']
    detector_uids: UInt32[np.ndarray | Array, '*#dets']

    @classmethod
    def from_observation(cls, obs: AbstractObservation[T]) -> Self:
        return cls(
            uid=_names_to_uids(obs.name),
            telescope_uid=_names_to_uids(obs.telescope),
            detector_uids=_names_to_uids(obs.detectors),
        )

    @classmethod
    def structure_for(cls, n_dets: int) -> Self:
        return cls(
            uid=jax.ShapeDtypeStruct((), dtype=np.uint32),  # type: ignore[arg-type]
            telescope_uid=jax.ShapeDtypeStruct((), dtype=np.uint32),  # type: ignore[arg-type]
            detector_uids=jax.ShapeDtypeStruct((n_dets,), dtype=np.uint32),  # type: ignore[arg-type]
        )


# ---- scaffolding: stand-ins for furax.core operators (their 2026 base class is large); fields, __init__ and
# _get_next_power_of_two of SymmetricBandToeplitzOperator as in furax/core/_toeplitz.py ----
from dataclasses import field  # scaffolding
from jaxtyping import PyTree  # scaffolding


class FourierOperator:  # scaffolding: only used in an isinstance check
    pass  # scaffolding


@register_dataclass  # scaffolding
@dataclass(init=False)  # scaffolding
class SymmetricBandToeplitzOperator:  # scaffolding
    band_values: Float[Array, '...']  # scaffolding
    method: str = field(metadata={'static': True})  # scaffolding
    fft_size: int | None = field(metadata={'static': True})  # scaffolding
    in_structure: PyTree[jax.ShapeDtypeStruct] = field(metadata={'static': True})  # scaffolding

    def __init__(self, band_values, *, in_structure, method='dense', fft_size=None):  # scaffolding
        object.__setattr__(self, 'band_values', band_values)  # scaffolding
        object.__setattr__(self, 'method', method)  # scaffolding
        object.__setattr__(self, 'fft_size', fft_size)  # scaffolding
        object.__setattr__(self, 'in_structure', in_structure)  # scaffolding

    @staticmethod  # scaffolding
    def _get_next_power_of_two(n: int) -> int:  # scaffolding
        """Return the smallest power of 2 >= n."""
        if n <= 1:  # scaffolding
            return 1  # scaffolding
        return int(2 ** np.ceil(np.log2(n)))  # scaffolding


# ---- furax/mapmaking/gap_filling.py (GapFillingOperator is cut) ----
def _get_kernel(n_tt: Float[Array, ' _'], size: int) -> Float[Array, ' {size}']:
    lagmax = n_tt.size - 1
    padding_size = size - (2 * lagmax + 1)
    if padding_size < 0:
        msg = f'The maximum lag ({lagmax}) is too large for the required kernel size ({size}).'
        raise ValueError(msg)
    kernel = jnp.concatenate((n_tt, jnp.zeros(padding_size), n_tt[-1:0:-1]))
    return kernel


@partial(jnp.vectorize, signature='(b)->(k)', excluded={1})
def _folded_psd(
    n_tt: Float[ArrayLike, ' _'], fft_size: int
) -> Float[Array, ' {fft_size // 2 + 1}']:
    """Returns the folded Power Spectral Density of a one-dimensional vector.

    Args:
        n_tt: The autocorrelation function of the vector.
        fft_size: The size of the FFT to use (at least twice the size of ``n_tt``).
    """
    n_tt = jnp.asarray(n_tt)
    kernel = _get_kernel(n_tt, fft_size)
    psd = jnp.abs(jnp.fft.rfft(kernel, n=fft_size))
    # zero out DC value
    psd = psd.at[0].set(0)
    return psd


def split_key(
    key: PRNGKeyArray, num: int | tuple[int, ...], metadata: HashedObservationMetadata | None = None
) -> Shaped[PRNGKeyArray, '*#dets']:
    if metadata is None:
        return jax.random.split(key, num)

    meta = metadata
    fold = jnp.vectorize(jax.random.fold_in, signature='(),()->()')
    subkeys = fold(fold(fold(key, meta.uid), meta.telescope_uid), meta.detector_uids)
    if subkeys.shape != num:
        msg = (
            'Splitting key using provided metadata resulted in a wrong shape.'
            f'Expected {num}, got {subkeys.shape}.'
        )
        raise RuntimeError(msg)
    return subkeys  # type: ignore[no-any-return]


@partial(jax.jit, static_argnames=('metadata'))
def generate_noise_realization(
    key: PRNGKeyArray,
    cov: FourierOperator | SymmetricBandToeplitzOperator,
    fsamp: ArrayLike,
    metadata: HashedObservationMetadata | None = None,
) -> Float[Array, ' *shape']:
    """Generates a Gaussian noise realization with the given covariance.

    Args:
        key: A PRNG key generated by the user.
        cov: The noise covariance matrix/operator.
            The operator's structure is the output structure of this function.
        metadata: Metadata that are folded into the random key.
        fsamp: The sampling frequency of the data (recommended for correct normalization).
    """
    # Structure of the vector that will be generated
    structure = cov.in_structure

    # Get the PSD values from the covariance matrix
    n = structure.shape[-1]
    if isinstance(cov, FourierOperator):
        fft_size = cov.fft_size
        psd = cov.get_kernel()
    elif isinstance(cov, SymmetricBandToeplitzOperator):
        fft_size = SymmetricBandToeplitzOperator._get_next_power_of_two(n)
        psd = _folded_psd(cov.band_values, fft_size)
    else:
        raise NotImplementedError

    fsamp = jnp.asarray(fsamp)
    npsd = fft_size // 2 + 1
    if npsd != psd.shape[-1]:
        msg = f'PSD size {psd.shape[-1]} does not match expected size {npsd} for {fft_size=}.'
        raise ValueError(msg)

    @partial(jnp.vectorize, signature='(),(k)->(n)')
    def func(subkey, psd):  # type: ignore[no-untyped-def]
        # Gaussian Re/Im random numbers
        rngdata = jax.random.normal(subkey, shape=(fft_size,))

        # Set DC and Nyquist frequency imaginary parts to zero
        fdata = jnp.empty(npsd, dtype=complex)
        fdata = fdata.at[0].set(rngdata[0] + 0.0j)
        fdata = fdata.at[-1].set(rngdata[npsd - 1] + 0.0j)

        # Repack the other values
        fdata = fdata.at[1:-1].set(rngdata[1 : npsd - 1] + 1j * rngdata[-1 : npsd - 1 : -1])

        # Normalization factor
        norm = fsamp * float(npsd - 1) / 2

        # Scale by PSD and inverse FFT
        scale = jnp.sqrt(norm * psd)
        tdata = jnp.fft.irfft(fdata * scale, n=fft_size)

        # Extract the samples we want and remove DC level
        offset = (fft_size - n) // 2
        xi = tdata[offset : offset + n]
        return xi - jnp.mean(xi)

    subkeys = split_key(key, structure.shape[:-1], metadata)
    return func(subkeys, psd)  # type: ignore[no-any-return]


# ---- tests/mapmaking/test_gap_filling.py (the test added by the commit) ----
def test_generate_realization_with_metadata():
    """generate_noise_realization must accept a populated HashedObservationMetadata.

    The metadata is a JAX-registered dataclass whose fields are array leaves and are
    folded into the random key (a traced operation). Passing it must not require the
    metadata to be hashable.
    """
    ndet, nsamp = 3, 100
    structure = jax.ShapeDtypeStruct((ndet, nsamp), float)
    cov = SymmetricBandToeplitzOperator(jnp.array([1.0]), in_structure=structure)
    metadata = HashedObservationMetadata(
        uid=jnp.uint32(1),
        telescope_uid=jnp.uint32(2),
        detector_uids=jnp.arange(ndet, dtype=jnp.uint32),
    )
    real = generate_noise_realization(jax.random.key(0), cov, 1.0, metadata=metadata)
    assert real.shape == (ndet, nsamp)


try:  # scaffolding
    test_generate_realization_with_metadata()  # scaffolding
    _report({"jit(generate_noise_realization)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
