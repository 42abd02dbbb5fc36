# source: https://github.com/uwplasma/GKX/commit/28f7a75e729063bbabd9b86ebe54e24e68cd0070
# expect: trace-time-error at line 54
# runtime: ERROR TracerArrayConversionError
# why: grid.z is a concrete array, but grid.z[1] - grid.z[0] is staged out inside the jitted run, so np.asarray on the difference raises TracerArrayConversionError for a quantity that was never traced.
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
from dataclasses import dataclass

import numpy as np
import jax
import jax.numpy as jnp


@dataclass(frozen=True)  # scaffolding: cut-down gkx.core.grid.SpectralGrid
class SpectralGrid:
    kx: jnp.ndarray
    ky: jnp.ndarray
    z: jnp.ndarray
    ky_mode: int | None = None


@dataclass(frozen=True)
class _CFLGridBounds:
    kx: np.ndarray
    ky: np.ndarray
    kz: np.ndarray
    kx_max: float
    ky_max: float
    kz_max: float
    kperp_min: float


def _parallel_periods_from_grid(grid: SpectralGrid) -> float:
    if grid.z.size <= 1:
        return 1.0
    dz = float(np.asarray(grid.z[1] - grid.z[0]))
    extent = float(np.asarray(grid.z[-1] - grid.z[0] + dz))
    return extent / (2.0 * np.pi)


def _cfl_wavenumber_arrays(
    grid: SpectralGrid,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    kx = np.asarray(grid.kx, dtype=float).reshape(-1)
    ky_full = np.asarray(grid.ky, dtype=float).reshape(-1)
    nz = int(grid.z.size)
    zp = _parallel_periods_from_grid(grid)
    kz = np.zeros(nz, dtype=float)

    # Preserve actual mode values on sliced ky grids. Reconstructing ky from
    # (Ny, y0) maps a single selected positive ky back to ky=0 and breaks the
    # one-mode CFL estimate used by linear benchmark runs.
    if ky_full.size == 0:
        ky = np.zeros(0, dtype=float)
    elif grid.ky_mode is not None:
        ky = np.abs(ky_full)
    else:
        nyc = 1 + ky_full.size // 2
        ky = np.abs(ky_full[:nyc])

    for idx in range(nz):
        if idx < nz / 2 + 1:
            kz[idx] = float(idx) / zp
        else:
            kz[idx] = float(idx - nz) / zp
    return kx, ky, kz


def _grid_frequency_bounds(grid: SpectralGrid) -> _CFLGridBounds:
    kx, ky, kz = _cfl_wavenumber_arrays(grid)
    nz = kz.size
    nx = kx.size
    ny = int(grid.ky.shape[0])
    kx_max = float(abs(kx[(nx - 1) // 3])) if nx > 1 else 0.0
    ky_max = float(abs(ky[(ny - 1) // 3])) if ky.size > 0 else 0.0
    kz_max = float(abs(kz[nz // 2])) if nz > 0 else 0.0
    kx_min = float(abs(kx[1])) if nx > 1 else np.inf
    ky_min = float(abs(ky[1])) if ky.size > 1 else np.inf
    finite_min = min(kx_min, ky_min)
    kperp_min = float(finite_min) if np.isfinite(finite_min) else 0.0
    return _CFLGridBounds(
        kx=kx,
        ky=ky,
        kz=kz,
        kx_max=kx_max,
        ky_max=ky_max,
        kz_max=kz_max,
        kperp_min=kperp_min,
    )


nz = 16  # scaffolding: a grid built from the run's config
grid = SpectralGrid(
    kx=jnp.fft.fftfreq(8) * 8.0,
    ky=jnp.fft.fftfreq(8) * 8.0,
    z=jnp.linspace(-jnp.pi, jnp.pi, nz, endpoint=False),
)


@jax.jit  # scaffolding: an adaptive-dt run (fixed_dt off) jitted with the grid closed over
def run(field):
    bounds = _grid_frequency_bounds(grid)
    dt = 0.1 / max(bounds.kx_max + bounds.ky_max + bounds.kz_max, 1e-12)
    for _ in range(4):
        field = field - dt * field
    return field


try:  # scaffolding
    for k in range(3):  # scaffolding
        out = run(jnp.ones((nz, 8)) * (k + 1))
    _report({"jit(run)"}, 3)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
