# source: https://github.com/uwplasma/GKX/commit/96a65ce6bd458339cbd1e4a54de9952a7ec792c0
# expect: trace-time-error at line 138
# runtime: ERROR ValueError
# why: The concrete magnetic shear is lifted through jnp.asarray before the is-it-traced check, which always yields a tracer inside a trace, so building a twist-shift cache under jit raises the code's own 'traced magnetic shear' ValueError.
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
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np


def _is_tracer(x) -> bool:
    return isinstance(x, jax.core.Tracer)


@dataclass(frozen=True)
class SpectralGrid:  # scaffolding: the grid attributes the twist-shift policy reads
    ky: np.ndarray
    boundary: str = "linked"
    x0: float = 10.0
    y0: float = 10.0


@dataclass(frozen=True)
class _TwistShiftCachePolicy:
    boundary: str
    use_twist_shift: bool
    use_ntft: bool
    y0: float
    shat_arr: jnp.ndarray
    x0_eff: float
    jtwist: int
    kxfac_val: float
    kx_eff: jnp.ndarray
    kx_grid: jnp.ndarray


def _default_twist_y0(grid: SpectralGrid) -> float:
    y0 = getattr(grid, "y0", None)
    if y0 is not None:
        return float(y0)
    if grid.ky.size > 1:
        return float(1.0 / float(grid.ky[1] - grid.ky[0]))
    return 1.0


def _host_twist_shear(shat_arr: jnp.ndarray) -> float | None:
    return None if _is_tracer(shat_arr) else float(np.asarray(shat_arr))


def _edge_metric_scalar(value: jnp.ndarray) -> float:
    return float(value[0]) if value.ndim else float(value)


def _twist_shift_geometric_factor(
    shat: float, *, gds21: jnp.ndarray, gds22: jnp.ndarray
) -> float:
    gds22_min = _edge_metric_scalar(gds22)
    if gds22_min == 0.0:
        return 0.0
    return float(2.0 * shat * _edge_metric_scalar(gds21) / gds22_min)


def _jtwist_and_x0_target(
    grid: SpectralGrid,
    *,
    y0: float,
    x0_eff: float,
    twist_shift_geo_fac: float,
) -> tuple[int, float]:
    jtwist_val = getattr(grid, "jtwist", None)
    if twist_shift_geo_fac == 0.0:
        return int(jtwist_val) if jtwist_val is not None else 1, x0_eff
    jtwist = (
        int(jtwist_val)
        if jtwist_val is not None
        else int(np.round(twist_shift_geo_fac))
    )
    jtwist = 1 if jtwist == 0 else jtwist
    return jtwist, float(y0) * abs(jtwist) / abs(twist_shift_geo_fac)


def _scaled_twist_shift_kx(
    grid: SpectralGrid,
    *,
    use_ntft: bool,
    x0_eff: float,
    x0_target: float,
    kx_eff: jnp.ndarray,
    kx_grid: jnp.ndarray,
) -> tuple[jnp.ndarray, jnp.ndarray, float]:
    grid_x0 = float(getattr(grid, "x0", x0_eff))
    if use_ntft:
        if grid_x0 != 0.0:
            kx_eff = kx_eff * (grid_x0 / float(x0_eff))
        return kx_eff, kx_grid, x0_eff
    if x0_target != 0.0 and x0_target != x0_eff:
        scale = float(x0_eff) / float(x0_target)
        return kx_eff * scale, kx_grid * scale, x0_target
    return kx_eff, kx_grid, x0_eff


def _resolve_twist_shift_policy(
    grid: SpectralGrid,
    geom_data: Any,
    *,
    gds21: jnp.ndarray,
    gds22: jnp.ndarray,
    kx_eff: jnp.ndarray,
    kx_grid: jnp.ndarray,
) -> _TwistShiftCachePolicy:
    boundary = str(getattr(grid, "boundary", "periodic")).lower()
    use_twist_shift = boundary in {"linked", "fix aspect", "continuous drifts"}
    use_ntft = bool(getattr(grid, "non_twist", False))
    y0 = _default_twist_y0(grid)
    shat_arr = jnp.asarray(geom_data.s_hat, dtype=kx_eff.dtype)
    shat_host = _host_twist_shear(shat_arr)
    x0_eff = float(getattr(grid, "x0", 1.0))
    jtwist = 0
    x0_target = x0_eff
    if use_twist_shift:
        if shat_host is None:
            raise ValueError(
                "traced magnetic shear is not supported with twist-shift boundaries"
            )
        twist_shift_geo_fac = _twist_shift_geometric_factor(
            shat_host, gds21=gds21, gds22=gds22
        )
        jtwist, x0_target = _jtwist_and_x0_target(
            grid, y0=y0, x0_eff=x0_eff, twist_shift_geo_fac=twist_shift_geo_fac
        )
        if use_ntft and twist_shift_geo_fac != 0.0:
            x0_eff = x0_target
        kx_eff, kx_grid, x0_eff = _scaled_twist_shift_kx(
            grid,
            use_ntft=use_ntft,
            x0_eff=x0_eff,
            x0_target=x0_target,
            kx_eff=kx_eff,
            kx_grid=kx_grid,
        )
    kxfac_val = float(getattr(grid, "kxfac", 1.0))
    return _TwistShiftCachePolicy(
        boundary=boundary,
        use_twist_shift=use_twist_shift,
        use_ntft=use_ntft,
        y0=float(y0),
        shat_arr=shat_arr,
        x0_eff=x0_eff,
        jtwist=jtwist,
        kxfac_val=kxfac_val,
        kx_eff=kx_eff,
        kx_grid=kx_grid,
    )


@dataclass(frozen=True)
class FluxTubeGeometry:  # scaffolding: concrete Cyclone-like geometry, built outside the trace
    s_hat: float = 0.8
    gds21: jnp.ndarray = None
    gds22: jnp.ndarray = None


theta = jnp.linspace(-jnp.pi, jnp.pi, 16)
geom = FluxTubeGeometry(gds21=-0.8 * 0.2 * theta, gds22=(0.8 * 0.2) ** 2 * theta**2 + 1.0)
grid = SpectralGrid(ky=np.arange(4) / 10.0)


@jax.jit  # scaffolding: the linear cache is built inside a trace (e.g. jit(grad) over a drive gradient)
def build_and_scale(kx, drive):
    policy = _resolve_twist_shift_policy(grid, geom, gds21=geom.gds21, gds22=geom.gds22, kx_eff=kx, kx_grid=kx)
    return drive * policy.kx_eff ** 2


try:  # scaffolding
    for k in range(3):  # scaffolding
        out = build_and_scale(jnp.linspace(-1.0, 1.0, 8), jnp.float32(1.0 + k))
    _report({"jit(build_and_scale)"}, 3)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
