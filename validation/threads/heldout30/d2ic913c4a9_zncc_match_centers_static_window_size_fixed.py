# source: https://github.com/EmileRouxSMB/D2IC/commit/913c4a9cefb16986a1d9c16fa19aa1f2d617a920
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: win and search are static_argnames of _match_centers_jax and _extract_windows_jax, so the window sizes are Python ints while tracing; the two frames (same win/search) share one compile and recover the imposed shifts.
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



# from __future__ import annotations  # scaffolding: cannot follow the harness; annotations here evaluate fine without it

from dataclasses import dataclass
from functools import partial
from typing import Any

import jax
from jax import lax
import jax.numpy as jnp

# from .solver_base import SolverBase  # scaffolding: package-relative imports replaced by the stand-ins below
# from .types import Array  # scaffolding
# from .mesh_assets import MeshAssets  # scaffolding
# from .dataclasses import InitMotionConfig  # scaffolding
from types import SimpleNamespace  # scaffolding
Array = jax.Array  # scaffolding: d2ic.types.Array
MeshAssets = Any  # scaffolding


class SolverBase:  # scaffolding: d2ic.solver_base.SolverBase (abstract compile/solve)
    pass  # scaffolding


@dataclass(frozen=True)  # scaffolding: d2ic.dataclasses.InitMotionConfig, only the fields used here
class InitMotionConfig:  # scaffolding
    win: int = 7  # scaffolding
    search: int = 3  # scaffolding
    max_centers: Any = None  # scaffolding
    score_min: Any = None  # scaffolding


@dataclass(frozen=True)
class TranslationZNCCResult:
    """
    Coarse motion estimate at element centers.
    """
    u_centers: Array  # (Ne, 2)
    scores: Array     # (Ne,)


class TranslationZNCCSolver(SolverBase):
    """
    Translation-only patch matching around each element center using ZNCC.

    The solver evaluates a zero-mean normalized cross-correlation (ZNCC) score
    between a reference patch and a grid of candidate patches in the deformed
    image, then returns the argmax translation per element center.

    The heavy lifting runs in JAX for normalization/scoring, while the outer
    loop stays in Python to control memory and allow per-center boundary checks.
    """

    def __init__(self, config: InitMotionConfig, chunk_size: int = 128) -> None:
        if config.win % 2 == 0:
            raise ValueError("InitMotionConfig.win must be odd for ZNCC matching.")
        self.config = config
        self.chunk_size = max(1, int(chunk_size))
        self._compiled = False
        self._zncc_argmax = jax.jit(_zncc_argmax)

    def compile(self, assets: Any) -> None:
        # Shapes are determined at runtime; keep a compile hook for API parity.
        self._compiled = True

    def solve(self, state: Any, def_image: Array) -> TranslationZNCCResult:
        if not self._compiled:
            raise RuntimeError("TranslationZNCCSolver.compile() must be called before solve().")

        assets: MeshAssets = state.assets
        ref_image = jnp.asarray(state.ref_image)
        def_image_jnp = jnp.asarray(def_image)
        centers = jnp.asarray(assets.element_centers_xy)

        max_centers = self.config.max_centers
        if max_centers is not None:
            centers = centers[: int(max_centers)]

        win = int(self.config.win)
        search = int(self.config.search)
        score_min = self.config.score_min

        u_centers, scores = _match_centers_jax(
            centers,
            ref_image,
            def_image_jnp,
            win=win,
            search=search,
        )
        if score_min is not None:
            valid = scores >= float(score_min)
            u_centers = jnp.where(valid[:, None], u_centers, jnp.zeros_like(u_centers))
            scores = jnp.where(valid, scores, jnp.nan)

        return TranslationZNCCResult(
            u_centers=u_centers,
            scores=scores,
        )


# ---------------------------------------------------------------------
# JAX kernels + helpers
# ---------------------------------------------------------------------

@jax.jit
def _zncc_argmax(template: Array, windows: Array) -> tuple[jnp.ndarray, jnp.ndarray]:
    template = template - jnp.mean(template)
    template = template / (jnp.std(template) + 1e-12)
    windows = windows - jnp.mean(windows, axis=(1, 2), keepdims=True)
    windows = windows / (jnp.std(windows, axis=(1, 2), keepdims=True) + 1e-12)
    scores = jnp.mean(windows * template, axis=(1, 2))
    best_idx = jnp.argmax(scores)
    best_score = scores[best_idx]
    return best_idx, best_score


@partial(jax.jit, static_argnames=("win", "search"))
def _extract_windows_jax(patch: Array, win: int, search: int) -> Array:
    """Return all ``win``-sized windows from ``patch`` as ``(N, win, win)``."""
    windows_per_axis = 2 * search + 1
    ys, xs = jnp.meshgrid(
        jnp.arange(windows_per_axis, dtype=jnp.int32),
        jnp.arange(windows_per_axis, dtype=jnp.int32),
        indexing="ij",
    )
    offsets = jnp.stack([ys.reshape(-1), xs.reshape(-1)], axis=1)

    def slice_at(offset):
        return lax.dynamic_slice(patch, (offset[0], offset[1]), (win, win))

    return jax.vmap(slice_at)(offsets)


@partial(jax.jit, static_argnames=("win", "search"))
def _match_centers_jax(
    centers: Array,
    ref_image: Array,
    def_image: Array,
    *,
    win: int,
    search: int,
) -> tuple[Array, Array]:
    r = win // 2
    h_ref, w_ref = ref_image.shape[:2]
    h_def, w_def = def_image.shape[:2]
    patch_size = win + 2 * search
    windows_per_axis = 2 * search + 1

    def match_one(center_xy):
        x = jnp.rint(center_xy[0]).astype(jnp.int32)
        y = jnp.rint(center_xy[1]).astype(jnp.int32)

        tpl_ok = (y - r >= 0) & (y + r < h_ref) & (x - r >= 0) & (x + r < w_ref)
        xs = x - search
        ys = y - search
        xe = x + search
        ye = y + search
        patch_ok = (ys - r >= 0) & (ye + r < h_def) & (xs - r >= 0) & (xe + r < w_def)
        ok = tpl_ok & patch_ok

        tpl_start = jnp.array([y - r, x - r], dtype=jnp.int32)
        tpl_start = jnp.clip(tpl_start, jnp.array([0, 0]), jnp.array([h_ref - win, w_ref - win]))
        patch_start = jnp.array([ys - r, xs - r], dtype=jnp.int32)
        patch_start = jnp.clip(
            patch_start,
            jnp.array([0, 0]),
            jnp.array([h_def - patch_size, w_def - patch_size]),
        )

        template = lax.dynamic_slice(ref_image, tpl_start, (win, win))
        patch = lax.dynamic_slice(def_image, patch_start, (patch_size, patch_size))
        windows = _extract_windows_jax(patch, win=win, search=search)
        best_idx, best_score = _zncc_argmax(template, windows)

        ky = best_idx // windows_per_axis
        kx = best_idx % windows_per_axis
        yy = ys + ky
        xx = xs + kx
        disp = jnp.array([xx - x, yy - y], dtype=jnp.float32)
        disp = jnp.where(ok, disp, jnp.zeros_like(disp))
        score = jnp.where(ok, best_score, jnp.nan)
        return disp, score

    return lax.map(match_one, centers)


# scaffolding: a reference image with texture, two deformed frames shifted by (dx, dy), 4 element centers,
# as the pipeline's init-motion step calls solver.compile(assets) once and solver.solve(state, frame) per frame
yy, xx = jnp.mgrid[0:40, 0:40]  # scaffolding
def _img(dx, dy):  # scaffolding
    return jnp.sin(0.7 * (xx - dx)) * jnp.cos(0.45 * (yy - dy)) + 0.3 * jnp.sin(0.2 * (xx - dx) * (yy - dy) / 7.0)  # scaffolding
assets = SimpleNamespace(element_centers_xy=jnp.array([[14.0, 14.0], [25.0, 14.0], [14.0, 25.0], [25.0, 25.0]]))  # scaffolding
state = SimpleNamespace(assets=assets, ref_image=_img(0, 0))  # scaffolding
solver = TranslationZNCCSolver(InitMotionConfig(win=7, search=3))  # scaffolding
solver.compile(assets)  # scaffolding
try:  # scaffolding
    for shift in [(1, 2), (2, 1)]:  # scaffolding
        res = solver.solve(state, _img(*shift))  # scaffolding
        print("shift", shift, "estimated", res.u_centers[0].tolist())  # scaffolding
    _report({"jit(_match_centers_jax)"}, 2)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
