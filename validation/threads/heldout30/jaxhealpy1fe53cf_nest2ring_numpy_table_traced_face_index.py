# source: https://github.com/CMBSciPol/jax-healpy/commit/1fe53cf9b2bc540950df2927d55304d12030b324
# expect: trace-time-error at line 175
# runtime: ERROR TracerArrayConversionError
# why: inside the jitted nest2ring the face number is traced, and _xyf2pix_ring indexes the NumPy lookup table _JRLL with it (_JRLL[face_num]), so NumPy tries to convert the tracer and raises TracerArrayConversionError.
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



# ---- jax_healpy/pixelfunc.py (the functions nest2ring uses) ----
from functools import partial
import jax
import jax.numpy as jnp
import numpy as np
from jax import jit, lax, vmap
from jaxtyping import Array, ArrayLike

# We are using 64-bit integer types.
# nside > 2**29 requires extended integer types.
MAX_NSIDE = 1 << 29

def check_nside(nside: int, nest: bool = False) -> None:
    """Raises exception is nside is not valid"""
    if not np.all(isnsideok(nside, nest=nest)):
        raise ValueError(f'{nside} is not a valid nside parameter (must be a power of 2, less than 2**30)')


def _pixel_dtype_for(nside: int) -> jnp.dtype:
    """Returns the appropriate dtype for a pixel number given nside"""
    # nside=8192 (2**13) is the largest valid (power-of-2) nside whose pixel
    # indices stay within int32; nside=16384 already overflows in ring/nest
    # conversions, so promote to int64 from there on.
    if nside <= 8192:
        return jnp.int32
    return jnp.int64


def isnsideok(nside: int, nest: bool = False) -> bool:
    """Returns :const:`True` if nside is a valid nside parameter, :const:`False` otherwise.

    NSIDE needs to be a power of 2 only for nested ordering

    Parameters
    ----------
    nside : int, scalar or array-like
      integer value to be tested

    Returns
    -------
    ok : bool, scalar or array-like
      :const:`True` if given value is a valid nside, :const:`False` otherwise.

    Examples
    --------
    >>> import jax_healpy as hp
    >>> hp.isnsideok(13, nest=True)
    False

    >>> hp.isnsideok(13, nest=False)
    True

    >>> hp.isnsideok(32)
    True

    >>> hp.isnsideok([1, 2, 3, 4, 8, 16], nest=True)
    array([ True,  True, False,  True,  True,  True], dtype=bool)
    """
    # we use standard bithacks from http://graphics.stanford.edu/~seander/bithacks.html#DetermineIfPowerOf2
    if hasattr(nside, '__len__'):
        if not isinstance(nside, np.ndarray):
            nside = np.asarray(nside)
        is_nside_ok = (nside == nside.astype(int)) & (nside > 0) & (nside <= MAX_NSIDE)
        if nest:
            is_nside_ok &= (nside.astype(int) & (nside.astype(int) - 1)) == 0
    else:
        is_nside_ok = nside == int(nside) and 0 < nside <= MAX_NSIDE
        if nest:
            is_nside_ok = is_nside_ok and (int(nside) & (int(nside) - 1)) == 0
    return is_nside_ok


def nside2npix(nside: int) -> int:
    """Give the number of pixels for the given nside.

    Parameters
    ----------
    nside : int
      healpix nside parameter

    Returns
    -------
    npix : int
      corresponding number of pixels

    Examples
    --------
    >>> import jax_healpy as hp
    >>> import numpy as np
    >>> hp.nside2npix(8)
    768

    >>> np.all([hp.nside2npix(nside) == 12 * nside**2 for nside in [2**n for n in range(12)]])
    True

    >>> hp.nside2npix(7)
    588
    """
    return 12 * nside * nside


def _pix2xyf_nest(nside: int, pix: Array) -> tuple[Array, Array, Array]:
    """Convert a pixel number in NESTED ordering to (x, y, face)"""
    fnum, fpix = jnp.divmod(pix, nside**2)
    ix, iy = _fpix2xy(nside, fpix)
    return ix, iy, fnum


def _fpix2xy(nside: int, fpix: Array) -> tuple[Array, Array]:
    """Convert a pixel index inside a face into (x, y) coordinates.

    Pixel indices inside the face must be less than nside**2.
    """
    # x = (pix & 0b1) >> 0 | (pix & 0b100) >> 1 | (pix & 0b10000) >> 2 | ...
    # y = (pix & 0b10) >> 1 | (pix & 0b1000) >> 2 | (pix & 0b100000) >> 3 | ...

    def extract_bits(i, carry):
        x, y = carry
        x |= (fpix & (1 << (2 * i))) >> i
        y |= (fpix & (1 << (2 * i + 1))) >> (i + 1)
        return x, y

    # imagine that nside = 2 ** ord (nside must be a power of 2 in nested ordering)
    # the maximum value of pix is nside**2 - 1, which fits on 2 * ord bits
    # because we extract 2 bits at a time, we need to loop ord times
    # and ord is the bit length of nside - 1
    length = (nside - 1).bit_length()

    # we use a native for loop because it was slightly faster than lax.fori_loop with unroll=True
    x, y = jnp.zeros_like(fpix), jnp.zeros_like(fpix)
    for i in range(length):
        x, y = extract_bits(i, (x, y))
    return x, y



# ring index of south corner for each face (0 = North pole)
_JRLL = np.array([2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4], dtype=np.int32)


# longitude index of south corner for each face (0 = longitude zero)
_JPLL = np.array([1, 3, 5, 7, 0, 2, 4, 6, 1, 3, 5, 7], dtype=np.int32)


def _xyf2pix_ring(nside: int, ix: Array, iy: Array, face_num: Array) -> Array:
    """Convert (x, y, face) to a pixel number in RING ordering"""
    # ring index of the pixel center
    jr = (_JRLL[face_num] * nside) - ix - iy - 1

    ringpix = _npix_on_ring(nside, jr)
    startpix = _start_pixel_ring(nside, jr)
    kshift = 1 - _ring_shifted(nside, jr)

    # pixel number in the ring
    jp = (_JPLL[face_num] * ringpix // 4 + ix - iy + 1 + kshift) // 2
    jp = jnp.where(jp < 1, jp + 4 * nside, jp)

    return startpix - 1 + jp


def _start_pixel_ring(nside: int, i_ring: ArrayLike) -> Array:
    """Get the first pixel number of a ring"""
    # work in northern hemisphere
    i_north = _northern_ring(nside, i_ring)
    ringpix = _npix_on_ring(nside, i_ring)
    ncap = 2 * nside * (nside - 1)
    npix = nside2npix(nside)
    startpix = jnp.where(
        i_north < nside,
        2 * i_north * (i_north - 1),  # north polar cap
        ncap + (i_north - nside) * 4 * nside,  # north equatorial belt
    )
    # flip results if in southern hemisphere
    startpix = jnp.where(i_ring != i_north, npix - startpix - ringpix, startpix)
    return startpix


def _npix_on_ring(nside: int, i_ring: ArrayLike) -> Array:
    """Get the number of pixels on a ring"""
    i_north = _northern_ring(nside, i_ring)
    ringpix = jnp.where(
        i_north < nside,
        4 * i_north,  # rings in the polar cap have 4*i pixels
        4 * nside,  # rings in the equatorial region have 4*nside pixels
    )
    return ringpix


def _ring_shifted(nside: int, i_ring: ArrayLike) -> Array:
    """Check if a ring is shifted"""
    i_north = _northern_ring(nside, i_ring)
    shifted = jnp.where(
        i_north < nside,
        True,
        (i_north - nside) & 1 == 0,
    )
    return shifted


def _northern_ring(nside: int, i_ring: ArrayLike) -> Array:
    i_north = jnp.where(i_ring > 2 * nside, 4 * nside - i_ring, i_ring)
    return i_north


@jit(static_argnames=['nside'])
def nest2ring(nside: int, ipix: ArrayLike) -> Array:
    """Convert pixel number from NESTED ordering to RING ordering.

    Contrary to healpy, nside must be an int. It cannot be a list, array, tuple, etc.

    Parameters
    ----------
    nside : int
      the healpix nside parameter
    ipix : int, scalar or array-like
      the pixel number in NESTED scheme

    Returns
    -------
    ipix : int, scalar or array-like
      the pixel number in RING scheme

    See Also
    --------
    ring2nest, reorder

    Examples
    --------
    >>> import healpy as hp
    >>> hp.nest2ring(16, 1130)
    1504

    >>> print(hp.nest2ring(2, np.arange(10)))
    [13  5  4  0 15  7  6  1 17  9]

    >>> print(hp.nest2ring([1, 2, 4, 8], 11))
    [ 11   2  12 211]
    """
    check_nside(nside, nest=True)
    ipix = jnp.asarray(ipix)
    # promote to int64 only if nside requires it
    ipix = ipix.astype(jnp.promote_types(ipix.dtype, _pixel_dtype_for(nside)))
    xyf = _pix2xyf_nest(nside, ipix)
    ipix_ring = _xyf2pix_ring(nside, *xyf)
    return ipix_ring



# scaffolding: the docstring examples of nest2ring (healpy gives 1504 and [13 5 4 0 15 7 6 1 17 9])
try:  # scaffolding
    print(nest2ring(16, 1130))  # scaffolding
    print(nest2ring(2, np.arange(10)))  # scaffolding
    print(nest2ring(2, np.arange(10, 20)))  # scaffolding: same nside and shape again
    _report({"jit(nest2ring)"}, 3)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
