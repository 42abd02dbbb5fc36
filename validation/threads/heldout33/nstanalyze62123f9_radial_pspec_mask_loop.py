# source: https://github.com/pmocz/navier-stokes-turbulence/blob/62123f98a898edba628fe805627148371435e0ee/analyze.py
# expect: none
# runtime: COMPILES 1 CALLS 33
# why: The jitted radial_power_spectrum unrolls a Python loop over radii with a boolean mask (k_rho == r) used only inside jnp.where/nanmean, branches on data_cube.ndim and takes Lbox as a traced keyword; all shapes are static, so it compiles once for 33 calls on same-size cubes.

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
import jax
import jax.numpy as jnp
import jax.numpy.fft as jfft
import numpy as np

jax.config.update("jax_enable_x64", True)

N = 16  # scaffolding: args.res (64 by default)
num_checkpoints = 100
skip = 10

# Fourier Space Variables
L = 2.0 * jnp.pi  # Domain size


@jax.jit
def radial_power_spectrum(data_cube, Lbox):
    """
    Computes radially averaged power spectral density of data_cube (2D or 3D).
    data_cube: jnp.ndarray (2D or 3D, must be cubic)
    Lbox: float (physical size of box)
    Returns: Pf (radial power spectrum), k (wavenumbers), total_power
    """
    dim = data_cube.ndim
    N = data_cube.shape[0]
    dx = Lbox / N

    # Compute power spectrum
    data_cube_ft = jfft.fftshift(jfft.fftn(data_cube))
    total_power = 0.5 * jnp.sum(jnp.abs(data_cube_ft) ** 2) / N**dim * dx**dim
    phi_k = 0.5 * jnp.abs(data_cube_ft) ** 2 / N**dim * dx**dim
    half_size = N // 2 + 1

    # Compute radially-averaged power spectrum
    k_lin = jnp.arange(-N // 2, N // 2)
    if dim == 2:
        X, Y = jnp.meshgrid(k_lin, k_lin, indexing="ij")
        k_rho = jnp.sqrt(X**2 + Y**2)
    else:
        X, Y, Z = jnp.meshgrid(k_lin, k_lin, k_lin, indexing="ij")
        k_rho = jnp.sqrt(X**2 + Y**2 + Z**2)

    k_rho = jnp.round(k_rho).astype(jnp.int32)
    Pf = jnp.zeros(half_size)
    for r in range(half_size):
        mask = k_rho == r
        vals = jnp.where(mask, phi_k, jnp.nan)
        mean_val = jnp.nanmean(vals)
        Pf = Pf.at[r].set(mean_val)

    k = 2.0 * jnp.pi * jnp.arange(half_size) / Lbox
    dk = k[1] - k[0]

    Pf = Pf / dk**dim

    # Add geometrical factor
    if dim == 2:
        Pf = Pf * 2.0 * jnp.pi * k
    else:
        Pf = Pf * 4.0 * jnp.pi * k**2

    return Pf, k, total_power


def main():
    Pf_all = jnp.zeros((num_checkpoints // skip + 1, N // 2 + 1))
    key = jax.random.PRNGKey(0)  # scaffolding

    for i in range(num_checkpoints // skip + 1):
        i_checkpoint = i * skip

        # scaffolding: random fields stand in for the orbax-restored checkpoint
        key, kx_, ky_, kz_ = jax.random.split(key, 4)
        vx = jax.random.normal(kx_, (N, N, N))
        vy = jax.random.normal(ky_, (N, N, N))
        vz = jax.random.normal(kz_, (N, N, N))

        # Calculate the radial power spectrum
        Pf_vx, k, total_power = radial_power_spectrum(vx, Lbox=L)
        Pf_vy, _, _ = radial_power_spectrum(vy, Lbox=L)
        Pf_vz, _, _ = radial_power_spectrum(vz, Lbox=L)

        Pf = Pf_vx + Pf_vy + Pf_vz
        Pf_all = Pf_all.at[i].set(Pf)
    return 3 * (num_checkpoints // skip + 1)


n_calls = main()  # scaffolding
_report({"jit(radial_power_spectrum)"}, n_calls)
