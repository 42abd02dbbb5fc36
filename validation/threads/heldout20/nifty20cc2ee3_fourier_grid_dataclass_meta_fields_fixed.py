# source: https://github.com/NIFTy-PPL/NIFTy/commit/20cc2ee36c2870decf88fb9c1315cdc48829aa6b
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: The commit registers FourierIntegralGrid as a dataclass with num, ndim and the distances as meta (static) fields and drops the assert, so the jitted covariance compiles once for 3 calls.

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


from collections import namedtuple
from dataclasses import dataclass, field
from typing import Callable, Union

import jax
import jax.numpy as jnp
import numpy as np
from jax.tree_util import Partial, register_dataclass
from numpy import typing as npt
from scipy.special import j0, sici


def j1(x):  # scaffolding: NIFTy's polynomial Bessel J1 (only used for ndim=2, not here)
    raise NotImplementedError


# src/re/multi_grid/matern.py (FourierIntegralGrid, make_integral_grid, spectrum2covariance; docstrings left out)
@dataclass
class FourierIntegralGrid:
    mode_lengths: jax.Array
    mode_binbounds: jax.Array
    min_dist: float
    max_dist: float
    num: int
    ndim: int
    weights: jax.Array

register_dataclass(
    FourierIntegralGrid,
    data_fields=["mode_lengths", "mode_binbounds", "weights"],
    meta_fields=["num", "min_dist", "max_dist", "ndim"],
)

def make_integral_grid(
    min_dist: float, max_dist: float, num: int, ndim: int, normalize: bool = True
) -> FourierIntegralGrid:
    mode_lengths = np.geomspace(1.0 / max_dist, 1.0 / min_dist, num, endpoint=False)
    mode_lengths = np.insert(mode_lengths, 0, 0.0)
    # Binbounds
    lk = np.log(mode_lengths[1:])
    dlk = (np.log(max_dist) - np.log(min_dist)) / num
    lk = np.append(lk - 0.5 * dlk, lk[-1] + 0.5 * dlk)
    mode_binbounds = np.insert(np.exp(lk), 0, 0.0)
    # norm_weights
    wgt = None
    if normalize:
        if ndim == 1:
            fkr = sici(mode_binbounds * max_dist)[0]
        elif ndim == 2:
            fkr = 1.0 - j0(mode_binbounds * max_dist)
        elif ndim == 3:
            fkr = sici(mode_binbounds * max_dist)[0] - np.sin(mode_binbounds * max_dist)
        else:
            raise NotImplementedError
        wgt = fkr[1:] - fkr[:-1]
        if (ndim == 1) or (ndim == 3):
            wgt *= 2.0 / np.pi
    return FourierIntegralGrid(
        min_dist=min_dist,
        max_dist=max_dist,
        num=num,
        ndim=ndim,
        mode_lengths=mode_lengths,
        mode_binbounds=mode_binbounds,
        weights=wgt,
    )

def spectrum2covariance(
    fig: FourierIntegralGrid, spec: npt.NDArray, *, ref_distance=1.0, normalize=True
):
    fct = [np.pi, 2.0 * np.pi, 2.0 * np.pi**2]

    def cov(r: npt.NDArray) -> npt.NDArray:
        k = jnp.expand_dims(fig.mode_binbounds, tuple(i for i in range(len(r.shape))))
        r = r[..., jnp.newaxis]
        kr = r * k
        if fig.ndim == 1:
            fkr = jnp.sin(kr)
        elif fig.ndim == 2:
            fkr = kr * j1(kr)
        elif fig.ndim == 3:
            fkr = jnp.sin(kr) - kr * jnp.cos(kr)
        else:
            raise NotImplementedError
        res0 = (k[..., 1:] ** fig.ndim - k[..., :-1] ** fig.ndim) / fig.ndim
        resn0 = (fkr[..., 1:] - fkr[..., :-1]) / r**fig.ndim
        res = jnp.where(r < ref_distance * 1e-10, res0, resn0) / fct[fig.ndim - 1]
        res = jnp.tensordot(res, spec, axes=(-1, 0))
        if normalize:
            res /= (fig.weights * spec).sum()
        return res

    return cov


fig = make_integral_grid(0.01, 10.0, 64, 3)  # scaffolding: a 3-d grid and a power-law spectrum
spec = (1.0 + fig.mode_lengths**2) ** -2.0
r = jnp.linspace(0.0, 5.0, 50)


@jax.jit
def covariance(fig, spec, r):  # scaffolding: the grid passed through jit, which the commit makes possible
    return spectrum2covariance(fig, spec)(r)


calls = 0
try:  # scaffolding
    for scale in (1.0, 2.0, 3.0):
        c = covariance(fig, scale * spec, r)
        calls += 1
    _report({"jit(covariance)"}, calls)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
