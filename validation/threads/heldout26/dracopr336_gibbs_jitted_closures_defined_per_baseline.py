# source: https://github.com/radiocosmology/draco/pull/336
# expect: jit-in-loop-or-body at line 216
# runtime: COMPILES 6 CALLS 24
# why: delay_power_spectrum_gibbs decorates its inner samplers with @jax.jit on every call, and the task calls it once per baseline, so both jitted closures recompile for every baseline (6 compiles for 3 baselines).
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




# draco/analysis/delay.py at ae054f6 (radiocosmology/draco PR #336, branch ljg/jax-pspec): imports
from typing import TypeVar

import jax
import jax.numpy as jnp
import numpy as np
import scipy.linalg as la
# from caput import config, fftw, memh5, mpiarray  # scaffolding: caput/cora/draco internals not installed; unused by the functions kept
# from cora.util import units  # scaffolding
from jax.scipy import linalg as jla


def fourier_matrix_r2c(N, fsel=None):
    """Generate a Fourier matrix to represent a real to complex FFT.

    Parameters
    ----------
    N : integer
        Length of timestream that we are transforming to. Must be even.
    fsel : array_like, optional
        Indexes of the frequency channels to include in the transformation
        matrix. By default, assume all channels.

    Returns
    -------
    Fr : np.ndarray
        An array performing the Fourier transform from a real time series to
        frequencies packed as alternating real and imaginary elements,
    """
    if fsel is None:
        fa = np.arange(N // 2 + 1)
    else:
        fa = np.array(fsel)

    fa = fa[:, np.newaxis]
    ta = np.arange(N)[np.newaxis, :]

    Fr = np.zeros((2 * fa.shape[0], N), dtype=np.float64)

    Fr[0::2] = np.cos(2 * np.pi * ta * fa / N)
    Fr[1::2] = -np.sin(2 * np.pi * ta * fa / N)

    return Fr


def _complex_to_alternating_real(array):
    """View complex numbers as an array with alternating real and imaginary components.

    Parameters
    ----------
    array : array_like
        Input array of complex numbers.

    Returns
    -------
    out : array_like
        Output array of alternating real and imaginary components. These components are
        expanded along the last axis, such that if `array` has `N` complex elements in
        its last axis, `out` will have `2N` real elements.
    """
    return array.astype(np.complex128, order="C").view(np.float64)


def _compute_delay_spectrum_inputs(data, N, Ni, fsel, window, complex_timedomain):
    """Compute quantities needed for Gibbs sampling and/or Wiener filtering.

    These quantities are needed by both :func:`delay_power_spectrum_gibbs` and
    :func:`delay_spectrum_wiener_filter`, so we compute them in this separate routine.
    """
    total_freq = N if complex_timedomain else N // 2 + 1

    if fsel is None:
        fsel = np.arange(total_freq)

    # Construct the Fourier matrix
    F = (
        fourier_matrix_c2c(N, fsel)
        if complex_timedomain
        else fourier_matrix_r2c(N, fsel)
    ).astype(np.float32)

    # Construct a view of the data with alternating real and imaginary parts
    data = _complex_to_alternating_real(data).T.copy()

    # Window the frequency data
    if window is not None:
        # Construct the window function
        x = fsel * 1.0 / total_freq
        w = tools.window_generalised(x, window=window)
        w = np.repeat(w, 2)

        # Apply to the projection matrix and the data
        F *= w[:, np.newaxis]
        data *= w[:, np.newaxis]

    if complex_timedomain:
        is_real_freq = np.zeros_like(fsel).astype(bool)
    else:
        is_real_freq = (fsel == 0) | (fsel == N // 2)

    # Construct the Noise inverse array for the real and imaginary parts of the
    # frequency spectrum (taking into account that the zero and Nyquist frequencies are
    # strictly real if the delay spectrum is assumed to be real)
    Ni_r = np.zeros(2 * Ni.shape[0], dtype=np.float32)
    Ni_r[0::2] = np.where(is_real_freq, Ni, Ni * 2)
    Ni_r[1::2] = np.where(is_real_freq, 0.0, Ni * 2)

    # Create the transpose of the Fourier matrix weighted by the noise
    # (this is used multiple times)
    FTNih = F.T * Ni_r[np.newaxis, :] ** 0.5
    FTNiF = FTNih @ FTNih.T

    # Pre-whiten the data to save doing it repeatedly
    data = data * Ni_r[:, np.newaxis] ** 0.5

    # Return data and inverse-noise-weighted Fourier matrices
    return data, FTNih, FTNiF


def delay_power_spectrum_gibbs(
    data,
    N,
    Ni,
    initial_S,
    window="nuttall",
    fsel=None,
    niter=20,
    rng=None,
    complex_timedomain=False,
):
    """Estimate the delay power spectrum by Gibbs sampling.

    This routine estimates the spectrum at the `N` delay samples conjugate to
    an input frequency spectrum with ``N/2 + 1`` channels (if the delay spectrum is
    assumed real) or `N` channels (if the delay spectrum is assumed complex).
    A subset of these channels can be specified using the `fsel` argument.

    Parameters
    ----------
    data : np.ndarray[:, freq]
        Data to estimate the delay spectrum of.
    N : int
        The length of the output delay spectrum. There are assumed to be `N/2 + 1`
        total frequency channels if assuming a real delay spectrum, or `N` channels
        for a complex delay spectrum.
    Ni : np.ndarray[freq]
        Inverse noise variance.
    initial_S : np.ndarray[delay]
        The initial delay power spectrum guess.
    window : one of {'nuttall', 'blackman_nuttall', 'blackman_harris', None}, optional
        Apply an apodisation function. Default: 'nuttall'.
    fsel : np.ndarray[freq], optional
        Indices of channels that we have data at. By default assume all channels.
    niter : int, optional
        Number of Gibbs samples to generate.
    rng : np.random.Generator, optional
        A generator to use to produce the random samples.
    complex_timedomain : bool, optional
        If True, assume input data arose from a complex timestream. If False, assume
        input data arose from a real timestream, such that the first and last frequency
        channels have purely real values. Default: False.

    Returns
    -------
    spec : list
        List of spectrum samples.
    """
    # Create random jax keys. We have to make all
    # of the unique keys upfront
    basekey = jax.random.PRNGKey(0)
    randomkeys = jax.random.split(basekey, niter * 3)

    spec = []

    # Pre-whiten and apply frequency window to data, and compute F^dagger N^{-1/2}
    # and F^dagger N^{-1} F
    data, FTNih, FTNiF = _compute_delay_spectrum_inputs(
        data, N, Ni, fsel, window, complex_timedomain
    )
    # Convert numpy arrays to jax arrays
    data = jnp.asarray(data)
    FTNih = jnp.asarray(FTNih)
    FTNiF = jnp.asarray(FTNiF)

    # Set the initial guess for the delay power spectrum.
    S_samp = jnp.asarray(initial_S)

    @jax.jit
    def _draw_signal_sample_f(S, key1, key2):
        # Draw a random sample of the signal (delay spectrum) assuming a Gaussian model
        # with a given delay power spectrum `S`. Do this using the perturbed Wiener
        # filter approach

        # This method is generally faster unless there are very
        # few frequencies available

        Si = jnp.nan_to_num(1.0 / S)

        # Construct the Wiener covariance
        if complex_timedomain:
            # If delay spectrum is complex, extend S to correspond to the individual
            # real and imaginary components of the delay spectrum, each of which have
            # power spectrum equal to 0.5 times the power spectrum of the complex
            # delay spectrum, if the statistics are circularly symmetric
            Si = 2.0 * jnp.repeat(Si, 2)

        # Draw random vectors that form the perturbations
        if complex_timedomain:
            # If delay spectrum is complex, draw for real and imaginary components
            # separately
            w1 = jax.random.normal(key1, (2 * N, data.shape[1]))
        else:
            w1 = jax.random.normal(key1, (N, data.shape[1]))

        w2 = jax.random.normal(key2, data.shape)

        # Construct the random signal sample by forming a perturbed vector and
        # then doing a matrix solve
        w2d = w2 + data
        w1Si = w1 * (Si**0.5)[:, np.newaxis]

        y = w1Si + (FTNih @ w2d)
        Ci = FTNiF + jnp.diag(Si)

        CiL = jla.cho_factor(Ci, check_finite=False, lower=False, overwrite_a=True)

        return jla.cho_solve(CiL, y, check_finite=False, overwrite_b=True)

    @jax.jit
    def _draw_signal_sample_t(S, key1, key2):
        # This method is fastest if the number of delays is significantly
        # larger than the number of frequencies.

        Sh = S**0.5

        # Construct various dependent matrices
        if complex_timedomain:
            # If delay spectrum is complex, extend S to correspond to the individual
            # real and imaginary components of the delay spectrum, each of which have
            # power spectrum equal to 0.5 times the power spectrum of the complex
            # delay spectrum, if the statistics are circularly symmetric
            Sh = (0.5**0.5) * np.repeat(Sh, 2)

        # Draw random vectors that form the perturbations
        if complex_timedomain:
            # If delay spectrum is complex, draw for real and imaginary components
            # separately
            w1 = jax.random.normal(key1, (2 * N, data.shape[1]))
        else:
            w1 = jax.random.normal(key1, (N, data.shape[1]))

        w2 = jax.random.normal(key2, data.shape)

        Rt = Sh[:, np.newaxis] * FTNih
        R = Rt.T

        # Perform the solve step (rather than explicitly using the inverse)
        y = data + w2 - (R @ w1)

        Ci = (R @ Rt) + I

        CiL = jla.cho_factor(Ci, check_finite=False, lower=False, overwrite_a=True)

        x = jla.cho_solve(CiL, y, check_finite=False, overwrite_b=True)

        return Sh[:, np.newaxis] * ((Rt @ x) + w1)

    @jax.jit
    def _draw_ps_sample(d, key):
        # Draw a random delay power spectrum sample assuming the signal
        # is Gaussian and we have a flat prior on the power spectrum.
        # This means drawing from a inverse chi^2.

        S_hat = jnp.var(d, axis=-1)

        if complex_timedomain:
            # If delay spectrum is complex, combine real and imaginary components
            # stored in d, such that variance below is variance of complex spectrum
            # It's computationally faster to do this operation after taking
            # the variance, since this is a much smaller array
            S_hat = S_hat[::2] + S_hat[1::2]

        df = d.shape[1]
        chi2 = jax.random.chisquare(key, df, shape=S_hat.shape[0])

        return S_hat * df / chi2

    # Select the method to use for the signal sample based on how many frequencies
    # versus delays there are
    if len(fsel) > 0.25 * N:
        _draw_signal_sample = _draw_signal_sample_f
    else:
        # Create an identity matrix used repeatedly in this case
        I = jnp.eye(data.shape[0])
        _draw_signal_sample = _draw_signal_sample_t

    # Perform the Gibbs sampling iteration for a given number of loops and
    # return the power spectrum output of them.
    for ii in range(niter):
        keys = randomkeys[3 * ii : 3 * ii + 3]

        d_samp = jax.block_until_ready(_draw_signal_sample(S_samp, *keys[1:]))
        S_samp = jax.block_until_ready(_draw_ps_sample(d_samp, keys[0]))

        spec.append(np.asarray(S_samp))

    return spec


# scaffolding: DelayGibbsSamplerBase.process iterates over all baselines and calls
# delay_power_spectrum_gibbs once per baseline (delay.py lines 798-852); small stand-in data
ndelay = 16  # scaffolding
nfreq = ndelay // 2 + 1  # scaffolding
nsamp = 4  # scaffolding: self.nsamp
nbase = 3  # scaffolding
_rng = np.random.default_rng(0)  # scaffolding
initial_S = np.ones((nbase, ndelay), dtype=np.float32)  # scaffolding
channel_ind = np.arange(nfreq)  # scaffolding
for lbi in range(nbase):  # scaffolding
    data = (_rng.standard_normal((5, nfreq)) + 1j * _rng.standard_normal((5, nfreq)))  # scaffolding
    weight = np.ones(nfreq)  # scaffolding
    spec = delay_power_spectrum_gibbs(
        data,
        ndelay,
        weight,
        initial_S[lbi],
        window=None,  # scaffolding: self.window needs draco.util.tools.window_generalised
        fsel=channel_ind,
        niter=nsamp,
        rng=None,
        complex_timedomain=False,
    )
    spec_av = np.median(spec[-(nsamp // 2) :], axis=0)

_report({"jit(_draw_signal_sample_f)", "jit(_draw_ps_sample)"}, nbase * nsamp * 2)  # scaffolding
