# source: https://github.com/tristanmanchester/tomojax/commit/0e30170ec3aecea8f34c98b7d2b01bb381cb00fc
# expect: jit-in-loop-or-body at line 961
# runtime: COMPILES 3 CALLS 3
# why: after the fix (sizes as Python ints, scan over jnp.arange(m) as completed in 48dfd39) align_loss traces and compiles once per jitted wrapper, but the eager jax.lax.cond with fresh lambdas in the outer loop compiles again in every outer iteration (jit(cond): 3 compiles for 3 iterations).
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



import jax  # scaffolding

# ===== src/tomojax/core/geometry/base.py (tomojax @ 48dfd39) =====
"""Geometry base interfaces and grid/detector dataclasses.

These types are used across IO, projector, reconstruction, and alignment. Keep
them lightweight and JAX-friendly (no heavy runtime logic here).
"""

# from __future__ import annotations  # scaffolding: cannot follow the harness; annotations are not evaluated here

from dataclasses import dataclass, field
from typing import Callable, Protocol, Tuple


@dataclass(frozen=True)
class Grid:
    nx: int
    ny: int
    nz: int
    vx: float
    vy: float
    vz: float
    vol_origin: Tuple[float, float, float] | None = None
    vol_center: Tuple[float, float, float] | None = None

    def to_dict(self) -> dict:
        d = {
            "nx": int(self.nx),
            "ny": int(self.ny),
            "nz": int(self.nz),
            "vx": float(self.vx),
            "vy": float(self.vy),
            "vz": float(self.vz),
        }
        if self.vol_origin is not None:
            d["vol_origin"] = list(self.vol_origin)
        if self.vol_center is not None:
            d["vol_center"] = list(self.vol_center)
        return d


@dataclass(frozen=True)
class Detector:
    nu: int
    nv: int
    du: float
    dv: float
    det_center: Tuple[float, float] = field(default_factory=lambda: (0.0, 0.0))

    def to_dict(self) -> dict:
        return {
            "nu": int(self.nu),
            "nv": int(self.nv),
            "du": float(self.du),
            "dv": float(self.dv),
            "det_center": list(self.det_center),
        }


class Geometry(Protocol):
    """Common interface for CT, laminography, and custom geometries.

    Implementations describe per-view pose and per-pixel rays.
    Contract: pose_for_view(i) returns a 4x4 world_from_object transform suitable
    for the projector; rays_for_view(i) must define world-frame rays.
    """

    def pose_for_view(self, i: int) -> Tuple[Tuple[float, ...], ...]:
        """Returns a 4x4 homogeneous transform world_from_object (row-major)."""

    def rays_for_view(self, i: int) -> Tuple[
        Callable[[int, int], Tuple[float, float, float]],
        Callable[[int, int], Tuple[float, float, float]],
    ]:
        """Returns (origin_fn, dir_fn) that map detector pixel (u,v) to a ray.

        origin_fn(u,v) -> (x,y,z); dir_fn(u,v) -> (dx,dy,dz) normalized.
        """

# ===== src/tomojax/core/geometry/transforms.py (tomojax @ 48dfd39) =====
"""SE(3) transforms and utilities (NumPy implementation).

Provides jit-agnostic helpers for geometry composition and conversions.
"""

# from __future__ import annotations  # scaffolding: cannot follow the harness; annotations are not evaluated here

import numpy as np
from typing import Tuple


def hat_so3(w: np.ndarray) -> np.ndarray:
    wx, wy, wz = w
    return np.array([[0.0, -wz, wy], [wz, 0.0, -wx], [-wy, wx, 0.0]], dtype=np.float64)


def exp_so3(w: np.ndarray) -> np.ndarray:
    theta = float(np.linalg.norm(w))
    if theta < 1e-12:
        return np.eye(3, dtype=np.float64)
    k = w / theta
    K = hat_so3(k)
    return np.eye(3) + np.sin(theta) * K + (1.0 - np.cos(theta)) * (K @ K)


def exp_se3(xi: np.ndarray) -> np.ndarray:
    """Exponential map from se(3) twist to SE(3) matrix.

    xi = [wx, wy, wz, vx, vy, vz]
    """
    w = np.asarray(xi[:3], dtype=np.float64)
    v = np.asarray(xi[3:], dtype=np.float64)
    theta = float(np.linalg.norm(w))
    R = exp_so3(w)
    if theta < 1e-12:
        V = np.eye(3, dtype=np.float64)
    else:
        K = hat_so3(w)
        theta2 = theta * theta
        V = (
            np.eye(3)
            + (1.0 - np.cos(theta)) / theta2 * K
            + (theta - np.sin(theta)) / (theta2 * theta) * (K @ K)
        )
    t = V @ v
    T = np.eye(4, dtype=np.float64)
    T[:3, :3] = R
    T[:3, 3] = t
    return T


def compose(T_a: np.ndarray, T_b: np.ndarray) -> np.ndarray:
    """Compose homogeneous transforms: returns T_a @ T_b."""
    return T_a @ T_b


def invert(T: np.ndarray) -> np.ndarray:
    R = T[:3, :3]
    t = T[:3, 3]
    Ti = np.eye(4, dtype=T.dtype)
    Ri = R.T
    Ti[:3, :3] = Ri
    Ti[:3, 3] = -Ri @ t
    return Ti


def rotz(phi: float) -> np.ndarray:
    c, s = np.cos(phi), np.sin(phi)
    R = np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]], dtype=np.float64)
    T = np.eye(4, dtype=np.float64)
    T[:3, :3] = R
    return T


def rot_axis_angle(axis: np.ndarray, theta: float) -> np.ndarray:
    a = np.asarray(axis, dtype=np.float64)
    a = a / (np.linalg.norm(a) + 1e-12)
    R = exp_so3(a * theta)
    T = np.eye(4, dtype=np.float64)
    T[:3, :3] = R
    return T


# ===== src/tomojax/core/geometry/parallel.py (tomojax @ 48dfd39) =====
# from __future__ import annotations  # scaffolding: cannot follow the harness; annotations are not evaluated here

from dataclasses import dataclass
from typing import Tuple, Sequence

import numpy as np

# from .base import Grid, Detector, Geometry  # scaffolding: module inlined in this file
# from .transforms import rotz  # scaffolding: module inlined in this file


@dataclass
class ParallelGeometry:
    """Parallel-beam CT geometry with axis-aligned detector.

    - World frame: detector lies in (x,z) plane; rays along +y.
    - Object pose per view is rotation around +z by angle phi (radians).
      pose_for_view returns T_world_from_obj = Rz(phi). At theta=0, T = I.
    """

    grid: Grid
    detector: Detector
    thetas_deg: Sequence[float]

    def pose_for_view(self, i: int) -> Tuple[Tuple[float, ...], ...]:
        phi = float(np.deg2rad(self.thetas_deg[i]))
        T = rotz(phi)
        return tuple(map(tuple, T))  # 4x4

    def rays_for_view(self, i: int):
        nu, nv = int(self.detector.nu), int(self.detector.nv)
        du, dv = float(self.detector.du), float(self.detector.dv)
        cx, cz = float(self.detector.det_center[0]), float(self.detector.det_center[1])

        y0 = (
            float(self.grid.vol_origin[1])
            if self.grid.vol_origin is not None
            else -((self.grid.ny / 2.0) - 0.5) * float(self.grid.vy)
        )

        def origin_fn(u: int, v: int) -> Tuple[float, float, float]:
            x = (u - (nu / 2.0 - 0.5)) * du + cx
            z = (v - (nv / 2.0 - 0.5)) * dv + cz
            return float(x), float(y0), float(z)

        def dir_fn(u: int, v: int) -> Tuple[float, float, float]:
            return (0.0, 1.0, 0.0)

        return origin_fn, dir_fn

# ===== src/tomojax/core/projector.py (tomojax @ 48dfd39) =====
# from __future__ import annotations  # scaffolding: cannot follow the harness; annotations are not evaluated here

import math
from typing import Tuple
from collections import OrderedDict

import jax
import jax.numpy as jnp
import numpy as np

# from .geometry.base import Grid, Detector, Geometry  # scaffolding: module inlined in this file

# Frame conventions:
# - geometry.pose_for_view(i) must return a 4x4 transform T_world_from_obj that maps
#   object (sample) coordinates into world (lab) coordinates for view i.
# - Rays are defined in the world frame with directions along +y (parallel beam).
# - We compute object_from_world = inv(T_world_from_obj) and sample the volume in the
#   object frame directly. This makes reconstructed volumes live in the object (sample) frame.

# Cache detector grids keyed by (nu, nv, du, dv, cx, cz)
_DET_GRID_CACHE: "OrderedDict[Tuple[int, int, float, float, float, float], Tuple[np.ndarray, np.ndarray]]" = OrderedDict()
_DET_GRID_CACHE_CAP = 8


def _default_volume_origin(grid: Grid) -> jnp.ndarray:
    ox = -((grid.nx / 2.0) - 0.5) * grid.vx
    oy = -((grid.ny / 2.0) - 0.5) * grid.vy
    oz = -((grid.nz / 2.0) - 0.5) * grid.vz
    return jnp.array([ox, oy, oz], dtype=jnp.float32)


def _build_detector_grid(det: Detector) -> Tuple[np.ndarray, np.ndarray]:
    key = (
        int(det.nu),
        int(det.nv),
        float(det.du),
        float(det.dv),
        float(det.det_center[0]),
        float(det.det_center[1]),
    )
    if key in _DET_GRID_CACHE:
        _DET_GRID_CACHE.move_to_end(key)
        return _DET_GRID_CACHE[key]
    nu, nv = int(det.nu), int(det.nv)
    du, dv = float(det.du), float(det.dv)
    cx, cz = float(det.det_center[0]), float(det.det_center[1])
    # Build on host as NumPy to avoid capturing JAX tracers in global cache under jit
    u = (np.arange(nu, dtype=np.float32) - (nu / 2.0 - 0.5)) * np.float32(du) + np.float32(cx)
    v = (np.arange(nv, dtype=np.float32) - (nv / 2.0 - 0.5)) * np.float32(dv) + np.float32(cz)
    X = np.tile(u, nv)
    Z = np.repeat(v, nu)
    _DET_GRID_CACHE[key] = (X, Z)
    if len(_DET_GRID_CACHE) > _DET_GRID_CACHE_CAP:
        _DET_GRID_CACHE.popitem(last=False)
    return X, Z


@jax.jit
def _flat_index(ix, iy, iz, nx, ny, nz):
    return ix * (ny * nz) + iy * nz + iz


@jax.jit
def _trilinear_gather(recon_flat, ix_f, iy_f, iz_f, nx, ny, nz):
    fx = jnp.floor(ix_f).astype(jnp.int32)
    fy = jnp.floor(iy_f).astype(jnp.int32)
    fz = jnp.floor(iz_f).astype(jnp.int32)
    cx, cy, cz = fx + 1, fy + 1, fz + 1

    wx1 = ix_f - fx.astype(jnp.float32)
    wy1 = iy_f - fy.astype(jnp.float32)
    wz1 = iz_f - fz.astype(jnp.float32)
    wx0 = 1.0 - wx1
    wy0 = 1.0 - wy1
    wz0 = 1.0 - wz1

    def gather(ix, iy, iz):
        inb = (
            (ix >= 0)
            & (ix < nx)
            & (iy >= 0)
            & (iy < ny)
            & (iz >= 0)
            & (iz < nz)
        ).astype(jnp.float32)
        idx = _flat_index(ix, iy, iz, nx, ny, nz)
        val = jnp.take(recon_flat, idx, mode="clip")
        return inb * val

    c000 = gather(fx, fy, fz) * (wx0 * wy0 * wz0)
    c001 = gather(fx, fy, cz) * (wx0 * wy0 * wz1)
    c010 = gather(fx, cy, fz) * (wx0 * wy1 * wz0)
    c011 = gather(fx, cy, cz) * (wx0 * wy1 * wz1)
    c100 = gather(cx, fy, fz) * (wx1 * wy0 * wz0)
    c101 = gather(cx, fy, cz) * (wx1 * wy0 * wz1)
    c110 = gather(cx, cy, fz) * (wx1 * wy1 * wz0)
    c111 = gather(cx, cy, cz) * (wx1 * wy1 * wz1)

    return c000 + c001 + c010 + c011 + c100 + c101 + c110 + c111



def forward_project_view_T(
    T: jnp.ndarray,
    grid: Grid,
    detector: Detector,
    volume: jnp.ndarray,
    *,
    step_size: float | None = None,
    n_steps: int | None = None,
    use_checkpoint: bool = True,
    unroll: int | None = None,
    gather_dtype: str = "fp32",
) -> jnp.ndarray:
    """Forward project a single view given pose `T` (4x4, row-major).

    Contract: T is world_from_object for the view. The projector constructs detector
    rays in world coordinates and transforms them into object coordinates using
    inv(T), then performs incremental stepping along the beam direction expressed
    in the object frame. This avoids a matmul per step and keeps gradients clean.
    """
    vol = volume
    if vol.ndim != 3:
        raise ValueError("volume must be 3D array")
    nx, ny, nz = int(grid.nx), int(grid.ny), int(grid.nz)
    if vol.shape != (nx, ny, nz):
        raise ValueError(f"Volume must be (nx,ny,nz)={nx,ny,nz}, got {vol.shape}")
    # Mixed-precision gather option (accumulate in fp32)
    if gather_dtype.lower() in ("bf16", "bfloat16"):
        recon_flat = jnp.ravel(vol.astype(jnp.bfloat16), order="C")
    elif gather_dtype.lower() in ("fp16", "float16", "half"):
        recon_flat = jnp.ravel(vol.astype(jnp.float16), order="C")
    else:
        recon_flat = jnp.ravel(vol.astype(jnp.float32), order="C")

    vol_origin = (
        jnp.asarray(grid.vol_origin, dtype=jnp.float32)
        if grid.vol_origin is not None
        else _default_volume_origin(grid)
    )

    Xr_np, Zr_np = _build_detector_grid(detector)
    # Convert to device arrays inside the jitted function scope
    Xr = jnp.asarray(Xr_np, dtype=jnp.float32)
    Zr = jnp.asarray(Zr_np, dtype=jnp.float32)
    n_rays = int(Xr_np.shape[0])

    vy = float(grid.vy)
    if step_size is None:
        step_size = vy
    if n_steps is None:
        n_steps = int(math.ceil((ny * vy) / float(step_size)))

    # Inverse pose and incremental stepping set-up
    R = T[:3, :3]
    t = T[:3, 3]
    Rinv = R.T
    tinv = -(Rinv @ t)
    ey_obj = Rinv[:, 1]  # world +y axis mapped into object frame (beam dir in object coords)

    base = Rinv @ jnp.stack([Xr, jnp.zeros_like(Xr), Zr], axis=0) + tinv[:, None]
    y0 = vol_origin[1]
    q0 = base + y0 * ey_obj[:, None]
    dq = (step_size * ey_obj)[:, None]

    def step(carry, _):
        acc, q = carry
        ix = (q[0] - vol_origin[0]) / jnp.float32(grid.vx)
        iy = (q[1] - vol_origin[1]) / jnp.float32(grid.vy)
        iz = (q[2] - vol_origin[2]) / jnp.float32(grid.vz)
        samp = _trilinear_gather(recon_flat, ix, iy, iz, nx, ny, nz)
        samp32 = samp.astype(jnp.float32)
        return (acc + samp32 * jnp.float32(step_size), q + dq), None

    scan_step = step if not use_checkpoint else jax.checkpoint(step)
    acc0 = jnp.zeros((n_rays,), dtype=jnp.float32)
    (acc, _), _ = jax.lax.scan(
        scan_step, (acc0, q0), None, length=n_steps, unroll=unroll or 1
    )
    return acc.reshape((detector.nv, detector.nu))


def forward_project_view(
    geometry: Geometry,
    grid: Grid,
    detector: Detector,
    volume: jnp.ndarray,
    view_index: int,
    *,
    step_size: float | None = None,
    n_steps: int | None = None,
    use_checkpoint: bool = True,
    unroll: int | None = None,
    gather_dtype: str = "fp32",
) -> jnp.ndarray:
    """Wrapper that fetches pose from geometry and calls pose-aware variant."""
    T = jnp.asarray(geometry.pose_for_view(view_index), dtype=jnp.float32)
    return forward_project_view_T(
        T,
        grid,
        detector,
        volume,
        step_size=step_size,
        n_steps=n_steps,
        use_checkpoint=use_checkpoint,
        unroll=unroll,
        gather_dtype=gather_dtype,
    )

# ===== src/tomojax/align/parametrizations.py (tomojax @ 48dfd39) =====
# from __future__ import annotations  # scaffolding: cannot follow the harness; annotations are not evaluated here

import jax.numpy as jnp


def rot_x(a: jnp.ndarray) -> jnp.ndarray:
    c, s = jnp.cos(a), jnp.sin(a)
    return jnp.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]], dtype=jnp.float32)


def rot_y(b: jnp.ndarray) -> jnp.ndarray:
    c, s = jnp.cos(b), jnp.sin(b)
    return jnp.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]], dtype=jnp.float32)


def rot_z(p: jnp.ndarray) -> jnp.ndarray:
    c, s = jnp.cos(p), jnp.sin(p)
    return jnp.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]], dtype=jnp.float32)


def compose_R(alpha: jnp.ndarray, beta: jnp.ndarray, phi: jnp.ndarray) -> jnp.ndarray:
    # Match the original repo: R = R_y(β) R_x(α) R_z(φ)
    return rot_y(beta) @ rot_x(alpha) @ rot_z(phi)


def se3_from_5d(params5: jnp.ndarray) -> jnp.ndarray:
    """Build a 4x4 transform from 5-DOF [alpha, beta, phi, dx, dz].

    Translations are (dx, 0, dz) in world/object units.
    """
    alpha, beta, phi, dx, dz = params5
    R = compose_R(alpha, beta, phi)
    T = jnp.eye(4, dtype=jnp.float32)
    T = T.at[:3, :3].set(R)
    T = T.at[:3, 3].set(jnp.array([dx, 0.0, dz], dtype=jnp.float32))
    return T


# ===== src/tomojax/utils/logging.py (tomojax @ 48dfd39) =====
# from __future__ import annotations  # scaffolding: cannot follow the harness; annotations are not evaluated here

import logging
import math
import os
from typing import Iterable, Iterator, Optional


def setup_logging(level: str = "INFO") -> None:
    lvl = getattr(logging, level.upper(), logging.INFO)
    logging.basicConfig(level=lvl, format="%(asctime)s | %(levelname)s | %(message)s")


def log_jax_env() -> None:
    try:
        import jax
        logging.info("JAX backend: %s", jax.default_backend())
        logging.info("Devices: %s", jax.devices())
    except Exception:  # pragma: no cover
        logging.info("JAX not available for logging")


def _progress_enabled() -> bool:
    v = os.environ.get("TOMOJAX_PROGRESS", "0").lower()
    return v in ("1", "true", "yes", "on")


def progress_iter(iterable: Iterable, *, total: Optional[int] = None, desc: str = "") -> Iterator:
    """Yield elements from iterable, showing a progress bar if enabled.

    Enable by setting environment variable `TOMOJAX_PROGRESS=1` or calling CLIs with `--progress`.
    Uses tqdm if available; otherwise prints occasional step counters.
    """
    if not _progress_enabled():
        for x in iterable:
            yield x
        return
    try:
        from tqdm import tqdm  # type: ignore

        leave = os.environ.get("TOMOJAX_PROGRESS_LEAVE", "0").lower() in ("1","true","yes","on")
        for x in tqdm(iterable, total=total, desc=desc, dynamic_ncols=True, leave=leave):
            yield x
    except Exception:
        # Lightweight fallback: print at ~10% increments
        if total is None:
            for i, x in enumerate(iterable, 1):
                if i == 1 or i % 10 == 0:
                    print(f"{desc} step {i}", flush=True)
                yield x
        else:
            step = max(1, total // 10)
            for i, x in enumerate(iterable, 1):
                if i == 1 or i == total or i % step == 0:
                    print(f"{desc} {i}/{total}", flush=True)
                yield x


def format_duration(seconds: float | None) -> str:
    """Render a wall-clock duration as a compact human-readable string."""
    if seconds is None:
        return "-"
    try:
        value = float(seconds)
    except (TypeError, ValueError):
        return "-"
    if not math.isfinite(value):
        return "-"
    value = max(value, 0.0)
    if value < 1e-3:
        return f"{value * 1e6:.0f}µs"
    if value < 1.0:
        return f"{value * 1e3:.0f}ms" if value < 0.1 else f"{value:.2f}s"

    minutes, seconds_rem = divmod(value, 60.0)
    hours, minutes = divmod(minutes, 60.0)
    if hours >= 1.0:
        return f"{int(hours)}h{int(minutes):02d}m{seconds_rem:04.1f}s"
    if minutes >= 1.0:
        return f"{int(minutes)}m{seconds_rem:04.1f}s"
    return f"{seconds_rem:.1f}s"

# ===== src/tomojax/recon/fista_tv.py: stand-in =====
def fista_tv(geometry, grid, detector, projections, *, iters, lambda_tv, L, init_x, **kwargs):  # scaffolding: stand-in for tomojax.recon.fista_tv (the reconstruction step is not part of this case)
    return init_x, {"loss": [], "L": 1.0}  # scaffolding

# ===== src/tomojax/align/pipeline.py (tomojax @ 48dfd39) =====
# from __future__ import annotations  # scaffolding: cannot follow the harness; annotations are not evaluated here

from dataclasses import dataclass, replace
import logging
import math
import time
from typing import Any, Dict, Tuple, Iterable, List

import jax
import jax.numpy as jnp

# from ..core.geometry import Geometry, Grid, Detector  # scaffolding: module inlined in this file
# from ..core.projector import forward_project_view_T  # scaffolding: module inlined in this file
# from ..recon.fista_tv import fista_tv  # scaffolding: module inlined in this file
# from ..utils.logging import progress_iter, format_duration  # scaffolding: module inlined in this file
# from .parametrizations import se3_from_5d  # scaffolding: module inlined in this file


@dataclass
class AlignConfig:
    outer_iters: int = 5
    recon_iters: int = 10
    lambda_tv: float = 0.005
    tv_prox_iters: int = 10
    # Reconstruction stopping criteria
    recon_rel_tol: float | None = None
    recon_patience: int = 2
    # Alignment step sizes
    lr_rot: float = 1e-3  # radians
    lr_trans: float = 1e-1  # world units
    # Memory/throughput knobs
    views_per_batch: int = 0  # 0 -> all views at once
    projector_unroll: int = 4
    checkpoint_projector: bool = True
    gather_dtype: str = "fp32"
    # Solver & regularization
    opt_method: str = "gd"  # default to GD for test compatibility
    gn_damping: float = 1e-6
    w_rot: float = 0.0
    w_trans: float = 0.0
    seed_translations: bool = False
    # Logging
    log_summary: bool = False
    # Reconstruction Lipschitz (optional override to skip power-method)
    recon_L: float | None = None
    # Early stopping across outers (alignment phase)
    early_stop: bool = True
    early_stop_rel_impr: float = 1e-3  # stop if (before-after)/before < this
    early_stop_patience: int = 2
    # GN acceptance: only apply step if it reduces the alignment loss
    gn_accept_only_improving: bool = True
    gn_accept_tol: float = 0.0  # allow tiny increases if >0 (as fraction of before)


 # (Removed: AugmentedGeometry legacy wrapper; new alignment path uses pose-aware projector directly)


def align(
    geometry: Geometry,
    grid: Grid,
    detector: Detector,
    projections: jnp.ndarray,  # (n_views, nv, nu)
    *,
    cfg: AlignConfig | None = None,
    init_x: jnp.ndarray | None = None,
    init_params5: jnp.ndarray | None = None,
) -> Tuple[jnp.ndarray, jnp.ndarray, Dict]:
    """Alternating reconstruction + per-view alignment (5-DOF) on small cases.

    Returns (x, params5, info) with loss history and optional metrics.
    """
    if cfg is None:
        cfg = AlignConfig()
    n_views = int(projections.shape[0])
    # Initialize volume and params
    x = (
        jnp.asarray(init_x, dtype=jnp.float32)
        if init_x is not None
        else jnp.zeros((grid.nx, grid.ny, grid.nz), dtype=jnp.float32)
    )
    params5 = (
        jnp.asarray(init_params5, dtype=jnp.float32)
        if init_params5 is not None
        else jnp.zeros((n_views, 5), dtype=jnp.float32)
    )

    loss_hist = []

    # Precompute nominal poses once
    n_views = int(projections.shape[0])
    T_nom_all = jnp.stack(
        [jnp.asarray(geometry.pose_for_view(i), dtype=jnp.float32) for i in range(n_views)],
        axis=0,
    )

    # Vmapped projector across views (pose-aware). Closure captures unroll as a static constant.
    def _project_batch(T_batch, vol):
        f = lambda T: forward_project_view_T(
            T,
            grid,
            detector,
            vol,
            use_checkpoint=cfg.checkpoint_projector,
            unroll=int(cfg.projector_unroll),
            gather_dtype=cfg.gather_dtype,
        )
        return jax.vmap(f, in_axes=0)(T_batch)

    def align_loss(params5, vol):
        # Compose augmented poses
        # Current convention: per-view misalignment parameters act in the object
        # frame and are post-multiplied: T_world_from_obj_aug = T_nom @ T_delta.
        # This is consistent across parallel CT and laminography sample-frame.
        T_aug = T_nom_all @ jax.vmap(se3_from_5d)(params5)  # (n_views, 4, 4)
        # Use Python ints for sizes to keep them static
        n = int(params5.shape[0])
        nv = int(projections.shape[1])
        nu = int(projections.shape[2])
        b = int(cfg.views_per_batch) if int(cfg.views_per_batch) > 0 else n
        m = (n + b - 1) // b

        def body(loss_acc, i):
            i = jnp.int32(i)
            start = i * jnp.int32(b)
            remaining = jnp.maximum(0, jnp.int32(n) - start)
            valid = jnp.minimum(jnp.int32(b), remaining)
            shift = jnp.int32(b) - valid
            start_shifted = jnp.maximum(0, start - shift)
            T_chunk = jax.lax.dynamic_slice(T_aug, (start_shifted, 0, 0), (b, 4, 4))
            y_chunk = jax.lax.dynamic_slice(projections, (start_shifted, 0, 0), (b, nv, nu))
            pred = _project_batch(T_chunk, vol)
            idx = jnp.arange(b)
            mask = (idx >= (jnp.int32(b) - valid))[:, None, None]
            resid = (pred - y_chunk).astype(jnp.float32) * mask
            loss_batch = 0.5 * jnp.vdot(resid, resid).real
            return (loss_acc + loss_batch, None)

        loss0 = jnp.float32(0.0)
        loss_tot, _ = jax.lax.scan(body, loss0, jnp.arange(m))

        # Smoothness prior across views (2nd difference)
        loss = loss_tot
        if int(params5.shape[0]) >= 3:
            d2 = params5[:-2] - 2.0 * params5[1:-1] + params5[2:]
            W = jnp.array([cfg.w_rot, cfg.w_rot, cfg.w_rot, cfg.w_trans, cfg.w_trans], dtype=jnp.float32)
            loss = loss + jnp.sum((d2 * W) ** 2)
        return loss

    grad_all = jax.jit(jax.grad(align_loss, argnums=0))
    align_loss_jit = jax.jit(align_loss)

    # Gauss–Newton (Levenberg–Marquardt) single-view update
    def _pred_flat(T_i, vol):
        return forward_project_view_T(
            T_i,
            grid,
            detector,
            vol,
            use_checkpoint=cfg.checkpoint_projector,
            unroll=int(cfg.projector_unroll),
            gather_dtype=cfg.gather_dtype,
        ).ravel()

    def _gn_update_one(p5_i, T_nom_i, y_i, vol):
        def f(p5):
            T_i = T_nom_i @ se3_from_5d(p5)
            return _pred_flat(T_i, vol) - y_i.ravel()
        # J^T r
        r = f(p5_i)
        _, vjp = jax.vjp(f, p5_i)
        g = vjp(r)[0]
        # J^T J via 5 JVPs
        eye5 = jnp.eye(5, dtype=jnp.float32)
        def jvp_col(v):
            return jax.jvp(f, (p5_i,), (v,))[1]
        cols = jax.vmap(jvp_col)(eye5)
        H = cols @ cols.T
        lam = jnp.float32(cfg.gn_damping)
        dp = jnp.linalg.solve(H + lam * jnp.eye(5, dtype=H.dtype), -g)
        return dp

    _gn_update_batch = jax.jit(jax.vmap(_gn_update_one, in_axes=(0, 0, 0, None)))

    # Reuse measured Lipschitz across outer iterations to avoid repeated power-method
    L_prev = cfg.recon_L
    small_impr_streak = 0
    opt_mode = str(cfg.opt_method).lower()
    outer_stats: List[Dict[str, Any]] = []
    wall_start = time.perf_counter()

    def _log_outer_summary(stat: Dict[str, Any]) -> None:
        outer_idx = int(stat.get("outer_idx", 0))
        total_iters = int(cfg.outer_iters)
        total_time = format_duration(stat.get("outer_time"))
        elapsed = format_duration(stat.get("cumulative_time"))
        logging.info(
            "Outer %d/%d | total %s | elapsed %s",
            outer_idx,
            total_iters,
            total_time,
            elapsed,
        )

        recon_parts: List[str] = []
        recon_time = stat.get("recon_time")
        if recon_time is not None:
            recon_parts.append(f"time {format_duration(recon_time)}")
        if stat.get("recon_retry"):
            recon_parts.append("fallback retry")
        l_meas = stat.get("L_meas")
        l_next = stat.get("L_next")
        if (l_meas is not None) and (l_next is not None):
            recon_parts.append(f"L {l_meas:.3e}->{l_next:.3e}")
        f_first = stat.get("fista_first")
        f_last = stat.get("fista_last")
        f_min = stat.get("fista_min")
        if (f_first is not None) and (f_last is not None):
            if f_min is not None:
                recon_parts.append(f"loss {f_first:.3e}->{f_last:.3e} (min {f_min:.3e})")
            else:
                recon_parts.append(f"loss {f_first:.3e}->{f_last:.3e}")
        logging.info("  Recon | %s", " | ".join(recon_parts) if recon_parts else "-")

        align_parts: List[str] = []
        align_time = stat.get("align_time")
        if align_time is not None:
            align_parts.append(f"time {format_duration(align_time)}")
        step_kind = stat.get("step_kind")
        if step_kind == "gn":
            rot_mean = stat.get("rot_mean")
            trans_mean = stat.get("trans_mean")
            if rot_mean is not None:
                align_parts.append(f"|drot|_mean {rot_mean:.3e} rad")
            if trans_mean is not None:
                align_parts.append(f"|dtrans|_mean {trans_mean:.3e}")
        elif step_kind == "gd":
            rot_rms = stat.get("rot_rms")
            trans_rms = stat.get("trans_rms")
            if rot_rms is not None:
                align_parts.append(f"rot RMS {rot_rms:.3e}")
            if trans_rms is not None:
                align_parts.append(f"trans RMS {trans_rms:.3e}")
        loss_before = stat.get("loss_before")
        loss_after = stat.get("loss_after")
        loss_delta = stat.get("loss_delta")
        rel_pct = stat.get("loss_rel_pct")
        if (loss_before is not None) and (loss_after is not None):
            rel_str = f", {rel_pct:+.2f}%" if rel_pct is not None else ""
            align_parts.append(
                f"loss {loss_before:.3e}->{loss_after:.3e} (Δ {loss_delta:+.3e}{rel_str})"
            )
        logging.info("  Align | %s", " | ".join(align_parts) if align_parts else "-")

    for it in progress_iter(range(cfg.outer_iters), total=cfg.outer_iters, desc="Align: outer iters"):
        outer_idx = it + 1
        stat: Dict[str, Any] = {"outer_idx": outer_idx}
        outer_start = time.perf_counter()

        # Reconstruction step
        class _GAll:
            def pose_for_view(self, i):
                T_nom = jnp.asarray(geometry.pose_for_view(i), dtype=jnp.float32)
                T_al = se3_from_5d(params5[i])
                return tuple(map(tuple, T_nom @ T_al))

            def rays_for_view(self, i):
                return geometry.rays_for_view(i)

        def _run_fista_safe(vpb: int | None, unroll: int, gather: str, gm: str):
            return fista_tv(
                _GAll(),
                grid,
                detector,
                projections,
                iters=cfg.recon_iters,
                lambda_tv=cfg.lambda_tv,
                L=L_prev,
                init_x=x,
                views_per_batch=vpb,
                projector_unroll=int(unroll),
                checkpoint_projector=cfg.checkpoint_projector,
                gather_dtype=gather,
                grad_mode=gm,
                tv_prox_iters=int(cfg.tv_prox_iters),
                recon_rel_tol=cfg.recon_rel_tol,
                recon_patience=(
                    int(cfg.recon_patience) if cfg.recon_patience is not None else 0
                ),
            )

        vpb0 = (cfg.views_per_batch if cfg.views_per_batch > 0 else None)
        recon_retry = False
        recon_start = time.perf_counter()
        try:
            x, info_rec = _run_fista_safe(vpb0, int(cfg.projector_unroll), cfg.gather_dtype, "auto")
        except Exception as e:
            msg = str(e)
            if ("RESOURCE_EXHAUSTED" in msg) or ("Out of memory" in msg) or ("Allocator" in msg):
                logging.warning("FISTA OOM detected; retrying with safer settings (vpb=1, unroll=1, stream)")
                try:
                    recon_retry = True
                    x, info_rec = _run_fista_safe(1, 1, cfg.gather_dtype, "stream")
                except Exception as e2:
                    msg2 = str(e2)
                    if ("RESOURCE_EXHAUSTED" in msg2) or ("Out of memory" in msg2) or ("Allocator" in msg2):
                        logging.error(
                            "FISTA still OOM at finest level. Suggest reducing --views-per-batch, setting --projector-unroll 1, or pinning --recon-L to skip power-method."
                        )
                    raise
            else:
                raise
        recon_time = time.perf_counter() - recon_start
        stat["recon_time"] = recon_time
        stat["recon_retry"] = recon_retry
        # Capture and reuse measured L next iteration (with small safety margin)
        try:
            L_meas = float(info_rec.get("L", 0.0))
            if L_meas > 0.0:
                L_prev = 1.2 * L_meas
                stat["L_meas"] = L_meas
                stat["L_next"] = L_prev
        except Exception:
            pass
        if info_rec and "loss" in info_rec and info_rec["loss"]:
            try:
                lhist = info_rec["loss"]
                stat["fista_first"] = float(lhist[0])
                stat["fista_last"] = float(lhist[-1])
                stat["fista_min"] = float(min(lhist))
            except Exception:
                pass

        # Alignment step: Gauss–Newton or gradient descent
        # Evaluate alignment loss before update (needed for GN acceptance / early stop)
        align_start = time.perf_counter()
        try:
            loss_before = float(align_loss_jit(params5, x))
        except Exception:
            loss_before = None
        stat["loss_before"] = loss_before
        step_kind = opt_mode
        loss_after = None
        if step_kind == "gn":
            n = params5.shape[0]
            b = int(cfg.views_per_batch) if int(cfg.views_per_batch) > 0 else n
            dp_all = []
            params5_prev = params5
            for s in range(0, n, b):
                dp_chunk = _gn_update_batch(
                    params5[s : s + b], T_nom_all[s : s + b], projections[s : s + b], x
                )
                params5 = params5.at[s : s + b].add(dp_chunk)
                dp_all.append(dp_chunk)
            # Compute post-update loss and accept/reject
            loss_after = float(align_loss_jit(params5, x)) if loss_before is not None else None
            if cfg.gn_accept_only_improving and (loss_before is not None) and (loss_after is not None):
                tol = float(cfg.gn_accept_tol) * abs(loss_before)
                if not (loss_after < loss_before - tol):
                    # Reject step
                    params5 = params5_prev
                    loss_after = loss_before
            # Log step stats
            if dp_all:
                try:
                    dp_cat = jnp.concatenate(dp_all, axis=0)
                    stat["rot_mean"] = float(jnp.mean(jnp.abs(dp_cat[:, :3])))
                    stat["trans_mean"] = float(jnp.mean(jnp.abs(dp_cat[:, 3:])))
                except Exception:
                    pass
        else:
            scales = jnp.array(
                [cfg.lr_rot, cfg.lr_rot, cfg.lr_rot, cfg.lr_trans, cfg.lr_trans], dtype=jnp.float32
            )
            g_params = grad_all(params5, x)
            rms = jnp.sqrt(jnp.mean(jnp.square(g_params), axis=0)) + 1e-6
            eff_scales = scales / rms
            # Simple 2-point line search on step factor to improve single-iter progress
            best_params = params5 - g_params * eff_scales
            best_loss = align_loss_jit(best_params, x)
            cand_params = params5 - 2.0 * g_params * eff_scales
            cand_loss = align_loss_jit(cand_params, x)
            params5 = jax.lax.cond(cand_loss < best_loss, lambda _: cand_params, lambda _: best_params, operand=None)
            loss_after = float(jnp.minimum(best_loss, cand_loss)) if loss_before is not None else None
            try:
                stat["rot_rms"] = float(jnp.mean(rms[:3]))
                stat["trans_rms"] = float(jnp.mean(rms[3:]))
            except Exception:
                pass
        stat["step_kind"] = step_kind
        stat["loss_after_step"] = loss_after
        stat["align_time"] = time.perf_counter() - align_start

        # Track overall data loss
        total_loss = float(align_loss_jit(params5, x))
        loss_hist.append(total_loss)
        stat["loss_after"] = total_loss
        if loss_before is not None:
            delta = total_loss - loss_before
            stat["loss_delta"] = delta
            if math.isfinite(loss_before) and abs(loss_before) > 1e-12:
                stat["loss_rel_pct"] = (delta / loss_before) * 100.0
            else:
                stat["loss_rel_pct"] = None
            if math.isfinite(loss_before) and math.isfinite(total_loss):
                denom = max(abs(loss_before), 1e-12)
                rel_impr = (loss_before - total_loss) / denom
            else:
                rel_impr = None
        else:
            stat["loss_delta"] = None
            stat["loss_rel_pct"] = None
            rel_impr = None
        stat["rel_impr"] = rel_impr

        outer_time = time.perf_counter() - outer_start
        stat["outer_time"] = outer_time
        stat["cumulative_time"] = time.perf_counter() - wall_start
        outer_stats.append(stat)

        if cfg.log_summary:
            _log_outer_summary(stat)

        # Early stopping based on alignment improvement during GN/GD step
        if cfg.early_stop and (rel_impr is not None):
            rel_for_patience = rel_impr
            if (not math.isfinite(rel_for_patience)) or (rel_for_patience < 0.0):
                rel_for_patience = 0.0
            if rel_for_patience < float(cfg.early_stop_rel_impr):
                small_impr_streak += 1
            else:
                small_impr_streak = 0
            if small_impr_streak >= int(cfg.early_stop_patience):
                if cfg.log_summary:
                    logging.info(
                        "Early stop after %d outer iters (%s elapsed): rel_impr=%.3e < %.3e for %d consecutive outers",
                        outer_idx,
                        format_duration(stat.get("cumulative_time")),
                        float(rel_impr),
                        float(cfg.early_stop_rel_impr),
                        int(cfg.early_stop_patience),
                    )
                break
        elif cfg.early_stop:
            small_impr_streak = 0

    if cfg.log_summary and outer_stats:
        recon_total = sum(float(s.get("recon_time", 0.0)) for s in outer_stats if s.get("recon_time") is not None)
        align_total = sum(float(s.get("align_time", 0.0)) for s in outer_stats if s.get("align_time") is not None)
        wall_total = time.perf_counter() - wall_start
        logging.info(
            "Alignment completed in %s (recon %s, align %s over %d outer iters)",
            format_duration(wall_total),
            format_duration(recon_total),
            format_duration(align_total),
            len(outer_stats),
        )
        first_loss = outer_stats[0].get("loss_before") if outer_stats else None
        final_loss = outer_stats[-1].get("loss_after") if outer_stats else None
        if (first_loss is not None) and (final_loss is not None):
            total_delta = final_loss - first_loss
            rel_pct = (total_delta / first_loss) * 100.0 if abs(first_loss) > 1e-12 else None
            rel_str = f", {rel_pct:+.2f}%" if rel_pct is not None else ""
            logging.info(
                "  Loss %s -> %s (Δ %s%s)",
                f"{first_loss:.3e}",
                f"{final_loss:.3e}",
                f"{total_delta:+.3e}",
                rel_str,
            )
        best_loss = min(
            (s.get("loss_after") for s in outer_stats if s.get("loss_after") is not None),
            default=None,
        )
        if best_loss is not None and final_loss is not None and best_loss < final_loss:
            logging.info("  Best loss observed: %.3e", best_loss)

    # Provide last measured/reused L for potential reuse across levels
    info = {
        "loss": loss_hist,
        "L": (float(L_prev) if L_prev is not None else None),
        "outer_stats": outer_stats,
    }
    return x, params5, info


def align_multires(
    geometry: Geometry,
    grid: Grid,
    detector: Detector,
    projections: jnp.ndarray,
    *,
    factors: Iterable[int] = (2, 1),
    cfg: AlignConfig | None = None,
) -> Tuple[jnp.ndarray, jnp.ndarray, Dict]:
    """Coarse-to-fine alignment using simple binning for speed and robustness.

    Carries alignment parameters across levels and downsamples/upsamples volume.
    """
# from ..recon.multires import scale_grid, scale_detector, bin_projections, bin_volume, upsample_volume  # scaffolding: module inlined in this file

    if cfg is None:
        cfg = AlignConfig()

    levels: List[dict] = []
    for f in factors:
        levels.append(
            {
                "factor": int(f),
                "grid": scale_grid(grid, int(f)),
                "detector": scale_detector(detector, int(f)),
                "projections": bin_projections(projections, int(f)),
            }
        )

    x_init = None
    params5 = None
    loss_hist: List[float] = []

    for li, lvl in enumerate(levels):
        g = lvl["grid"]; d = lvl["detector"]; y = lvl["projections"]
        if x_init is not None:
            # Upsample previous x to current level as init
            f_up = prev_factor // lvl["factor"]
            x0 = upsample_volume(x_init, f_up, (g.nx, g.ny, g.nz))
        else:
            x0 = None

        # Optional translation seeding at the coarsest level via phase correlation
        params0 = params5
        if li == 0 and cfg.seed_translations:
            # quick seed recon to project nominal poses
            x_seed, _ = fista_tv(
                geometry,
                g,
                d,
                y,
                iters=max(3, cfg.recon_iters // 2),
                lambda_tv=cfg.lambda_tv,
                init_x=x0,
                projector_unroll=int(cfg.projector_unroll),
                checkpoint_projector=cfg.checkpoint_projector,
                gather_dtype=cfg.gather_dtype,
                recon_rel_tol=cfg.recon_rel_tol,
                recon_patience=(
                    int(cfg.recon_patience) if cfg.recon_patience is not None else 0
                ),
            )
            T_nom = jnp.stack(
                [jnp.asarray(geometry.pose_for_view(i), dtype=jnp.float32) for i in range(y.shape[0])],
                axis=0,
            )
# from ..utils.phasecorr import phase_corr_shift  # scaffolding: module inlined in this file
            vm_pred = jax.vmap(
                lambda T: forward_project_view_T(
                    T,
                    g,
                    d,
                    x_seed,
                    use_checkpoint=cfg.checkpoint_projector,
                    gather_dtype=cfg.gather_dtype,
                ),
                in_axes=0,
            )
            preds = vm_pred(T_nom)
            shift_uv = jax.vmap(phase_corr_shift)(preds, y)  # returns (du, dv)
            shifts = jnp.stack(shift_uv, axis=1).astype(jnp.float32)  # (n, 2)
            # Convert pixel shifts to world units using detector spacing
            dx = shifts[:, 0] * jnp.float32(d.du)
            dz = shifts[:, 1] * jnp.float32(d.dv)
            params0 = jnp.zeros((y.shape[0], 5), dtype=jnp.float32)
            params0 = params0.at[:, 3].set(dx)
            params0 = params0.at[:, 4].set(dz)

        # Run alignment at this level
        # Re-estimate L at each level using a fresh (streamed) power-method for stability
        cfg_level = replace(cfg, recon_L=None)
        x_lvl, params5, info = align(
            geometry, g, d, y, cfg=cfg_level, init_x=x0, init_params5=params0
        )
        loss_hist.extend(info.get("loss", []))
        x_init = x_lvl
        prev_factor = lvl["factor"]

    # Upsample to finest grid if last level not 1
    if levels and levels[-1]["factor"] != 1:
        x_final = upsample_volume(x_init, levels[-1]["factor"], (grid.nx, grid.ny, grid.nz))
    else:
        x_final = x_init

    return x_final, params5 if params5 is not None else jnp.zeros((projections.shape[0], 5), jnp.float32), {"loss": loss_hist, "factors": list(factors)}


# ===== scaffolding: the setup of tests/test_align_quick.py (grid, detector, geometry), with stand-in projections =====
import numpy as np  # scaffolding
import jax.numpy as jnp  # scaffolding

nx = ny = nz = 6  # scaffolding: test_align_reports_true_relative_improvement_scaling's sizes
n_views = 6  # scaffolding
grid = Grid(nx=nx, ny=ny, nz=nz, vx=1.0, vy=1.0, vz=1.0)  # scaffolding
det = Detector(nu=nx, nv=nz, du=1.0, dv=1.0, det_center=(0.0, 0.0))  # scaffolding
thetas = np.linspace(0, 180, n_views, endpoint=False)  # scaffolding
geom = ParallelGeometry(grid=grid, detector=det, thetas_deg=thetas)  # scaffolding
rng = np.random.default_rng(2)  # scaffolding
projs = jnp.asarray(rng.random((n_views, nz, nx)) * 1e-3, dtype=jnp.float32)  # scaffolding: stand-in for the test's simulated projections
cfg = AlignConfig(  # scaffolding
    outer_iters=3,  # scaffolding
    recon_iters=2,  # scaffolding
    lambda_tv=0.0,  # scaffolding
    lr_rot=5e-3,  # scaffolding
    lr_trans=1e-1,  # scaffolding
    early_stop=False,  # scaffolding
)  # scaffolding
try:  # scaffolding
    _x, _params5, info = align(geom, grid, det, projs, cfg=cfg)  # scaffolding
    _report({"jit(cond)"}, 3)  # scaffolding: the lax.cond step runs once per outer iteration (3)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
