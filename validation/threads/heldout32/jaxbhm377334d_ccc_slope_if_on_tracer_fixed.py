# source: https://github.com/sreeganb/jax_bhm/commit/377334d5108f8edadf3b089821d532fa92d4f919
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: With the commit's jax.lax.cond(slope > 0.0, _with_slope, lambda _: 0.0, operand=None) the traced slope only selects a branch inside XLA, so four log-probability evaluations compile log_prob_fn once.

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
import math
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
from jax.scipy import signal

jit = jax.jit
device_put = jax.device_put


# =============================================================================
# Core functions from accc_jax.py (Arthur Zalevsky)
# =============================================================================

def resolution_to_sigma(resolution: float, pixel_size: float) -> float:
    """Estimate sigma for gaussian smoothing from resolution (from IMP.em2d)."""
    return resolution / (4 * math.sqrt(2.0 * math.log(2.0))) / pixel_size


@jit
def pairwise_correlation_jax(A: jnp.ndarray, B: jnp.ndarray) -> float:
    """Calculate Pearson correlation coefficient between two arrays."""
    A = A.astype(jnp.float32)
    B = B.astype(jnp.float32)
    
    A_centered = A - jnp.mean(A)
    B_centered = B - jnp.mean(B)
    
    numerator = jnp.sum(A_centered * B_centered)
    denominator = jnp.sqrt(jnp.sum(A_centered ** 2) * jnp.sum(B_centered ** 2))
    
    return jnp.where(denominator > 0, numerator / denominator, 0.0)


def _calc_projection_impl(coords, weights, bins, resolution):
    """
    Core projection calculation from accc_jax.py.
    Computes weighted histogram + Gaussian blur.
    """
    nx = bins[0].shape[0] - 1
    ny = bins[1].shape[0] - 1
    nz = bins[2].shape[0] - 1
    
    # Voxel sizes and origins
    voxel_size_x = bins[0][1] - bins[0][0]
    voxel_size_y = bins[1][1] - bins[1][0]
    voxel_size_z = bins[2][1] - bins[2][0]
    origin_x, origin_y, origin_z = bins[0][0], bins[1][0], bins[2][0]
    
    # Bin coordinates (faster than digitize for uniform grids)
    x_indices = jnp.clip(((coords[:, 0] - origin_x) / voxel_size_x).astype(jnp.int32), 0, nx - 1)
    y_indices = jnp.clip(((coords[:, 1] - origin_y) / voxel_size_y).astype(jnp.int32), 0, ny - 1)
    z_indices = jnp.clip(((coords[:, 2] - origin_z) / voxel_size_z).astype(jnp.int32), 0, nz - 1)
    
    # Linear indices and scatter-add
    linear_indices = x_indices * (ny * nz) + y_indices * nz + z_indices
    histogram_flat = jnp.zeros(nx * ny * nz, dtype=jnp.float32)
    histogram_flat = histogram_flat.at[linear_indices].add(weights)
    
    # Reshape to (x, y, z) then swap to (z, y, x) for mrcfile convention
    img = histogram_flat.reshape((nx, ny, nz))
    img = jnp.swapaxes(img, 0, 2)
    
    # Gaussian blur
    sigma = resolution_to_sigma(resolution, voxel_size_x)
    max_radius = 30
    x = jnp.arange(-max_radius, max_radius + 1, dtype=jnp.float32)
    kernel_1d = jnp.exp(-0.5 * (x / sigma) ** 2)
    kernel_1d = kernel_1d * (jnp.abs(x) <= 4.0 * sigma)
    kernel_1d = kernel_1d / jnp.sum(kernel_1d)
    
    # Separable FFT convolution (fast for large arrays)
    img = signal.fftconvolve(img, kernel_1d[jnp.newaxis, jnp.newaxis, :], mode='same')
    img = signal.fftconvolve(img, kernel_1d[jnp.newaxis, :, jnp.newaxis], mode='same')
    img = signal.fftconvolve(img, kernel_1d[:, jnp.newaxis, jnp.newaxis], mode='same')
    
    return img.astype(jnp.float32)


@jit
def calc_projection_jax(coords, weights, bins, resolution):
    """JIT-compiled density projection."""
    return _calc_projection_impl(coords, weights, bins, resolution)


@jit
def compare_data_jax_full(projection, density_data):
    """Compare projection with density (full map, all voxels)."""
    return pairwise_correlation_jax(projection.flatten(), density_data.flatten())


class EMConfig(NamedTuple):
    """Configuration for EM density scoring."""
    target_data: jnp.ndarray   # Target density map data (z, y, x)
    bins_x: jnp.ndarray        # Bin edges x
    bins_y: jnp.ndarray        # Bin edges y
    bins_z: jnp.ndarray        # Bin edges z
    resolution: float          # Map resolution in Angstroms
    voxel_size: float          # Voxel size in Angstroms


@jit
def calculate_density_com(
    target_data: jnp.ndarray,
    bins_x: jnp.ndarray,
    bins_y: jnp.ndarray,
    bins_z: jnp.ndarray
) -> jnp.ndarray:
    """
    Calculate center of mass of target density map.
    Returns (3,) array of COM coordinates.
    """
    # Get voxel centers
    cx = (bins_x[:-1] + bins_x[1:]) / 2
    cy = (bins_y[:-1] + bins_y[1:]) / 2
    cz = (bins_z[:-1] + bins_z[1:]) / 2
    
    # Create meshgrid (note: target_data is (z, y, x) order)
    Z, Y, X = jnp.meshgrid(cz, cy, cx, indexing='ij')
    
    # Use positive density only
    density_pos = jnp.maximum(target_data, 0)
    total_mass = jnp.sum(density_pos)
    
    com_x = jnp.sum(X * density_pos) / (total_mass + 1e-10)
    com_y = jnp.sum(Y * density_pos) / (total_mass + 1e-10)
    com_z = jnp.sum(Z * density_pos) / (total_mass + 1e-10)
    
    return jnp.array([com_x, com_y, com_z])

@jit
def calculate_ccc_jax(
    coords: jnp.ndarray,
    radii: jnp.ndarray,
    target_data: jnp.ndarray,
    bins_x: jnp.ndarray,
    bins_y: jnp.ndarray,
    bins_z: jnp.ndarray,
    resolution: float,
    density_com: jnp.ndarray,
    slope: float = 0.0
) -> float:
    """
    Calculate cross-correlation coefficient for coarse-grained spheres.
    
    Args:
        coords: (N, 3) particle coordinates
        radii: (N,) particle radii
        target_data: Target density map (z, y, x)
        bins_x/y/z: Bin edges for each dimension
        resolution: Map resolution
    
    Returns:
        Cross-correlation coefficient (higher = better fit)
    """
    # Use volume (radius^3) as weight, matching FullSampler behavior
    weights = radii ** 3
    
    # Create bins tuple for projection function
    bins = (bins_x, bins_y, bins_z)
    
    # Calculate simulated projection
    projection = calc_projection_jax(coords, weights, bins, resolution)
    
    # calculate CCC
    ccc = compare_data_jax_full(projection, target_data)

    def _with_slope(_):
        distances = jnp.linalg.norm(coords - density_com, axis=1)
        weighted_dist = jnp.sum(distances * weights) / jnp.sum(weights)
        return slope * weighted_dist

    slope_penalty = jax.lax.cond(
        slope > 0.0,
        _with_slope,
        lambda _: 0.0,
        operand=None
    )

    return ccc - slope_penalty



def create_em_log_prob_fn(config: EMConfig, 
                          radii: np.ndarray, 
                          scale: float = 100.0,
                          slope: float = 0.0):
    # (docstring trimmed)
    radii_jax = jnp.array(radii, dtype=jnp.float32)
    
    # Pre-compute density COM (only once!)
    density_com = calculate_density_com(
        config.target_data,
        config.bins_x, config.bins_y, config.bins_z
    )
    
    @jit
    def log_prob_fn(flat_coords: jnp.ndarray) -> float:
        coords = flat_coords.reshape(-1, 3)
        
        # CCC with slope
        score = calculate_ccc_jax(
            coords, radii_jax,
            config.target_data,
            config.bins_x, config.bins_y, config.bins_z,
            config.resolution,
            density_com,
            slope
        )
        
        # Convert to log probability
        # score is CCC - slope_penalty, range approximately [-1 - penalty, 1]
        # We want higher score = higher log prob
        return scale * score
    
    return log_prob_fn



rng = np.random.default_rng(0)  # scaffolding: a 16^3 map and 8 beads instead of an .mrc target
edges = jnp.linspace(-80.0, 80.0, 17)  # scaffolding
config = EMConfig(jnp.asarray(rng.random((16, 16, 16)), jnp.float32), edges, edges, edges, 30.0, 10.0)  # scaffolding
radii = np.array([24.0] * 4 + [14.0] * 4)  # scaffolding
log_prob_fn = create_em_log_prob_fn(config, radii, scale=100.0, slope=0.1)
calls = 0  # scaffolding
try:  # scaffolding
    for k in range(4):  # scaffolding: four sampler proposals
        coords = rng.normal(scale=30.0, size=(8, 3)).astype(np.float32)  # scaffolding
        lp = log_prob_fn(jnp.asarray(coords.flatten()))
        calls += 1  # scaffolding
    _report({"jit(log_prob_fn)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
