# source: https://github.com/eelregit/pmwd/commit/01970dccefee04b78f44ba4e2afe6baee3600f68
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: After the commit linear_modes drops the real flag and its static_argnums, using plain @jit @checkpoint, so the three-argument call compiles once.
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



import dataclasses
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.tree_util.register_dataclass, data_fields=[], meta_fields=["ptcl_grid_shape", "ptcl_spacing"])
@dataclasses.dataclass(frozen=True)
class Configuration:  # scaffolding: pmwd.Configuration cut to the fields used (all static)
    ptcl_grid_shape: tuple = (8, 8, 8)  # scaffolding
    ptcl_spacing: float = 4.0  # scaffolding
    float_dtype = jnp.float32  # scaffolding

    @property
    def box_vol(self):  # scaffolding
        return (self.ptcl_spacing * self.ptcl_grid_shape[0]) ** 3  # scaffolding


@partial(jax.tree_util.register_dataclass, data_fields=["A_s_1e9", "n_s"], meta_fields=[])
@dataclasses.dataclass
class Cosmology:  # scaffolding: pmwd.Cosmology cut to two parameters
    A_s_1e9: float  # scaffolding
    n_s: float  # scaffolding


def linear_power(k, a, cosmo, conf):  # scaffolding: pmwd.boltzmann.linear_power replaced by a power law
    return cosmo.A_s_1e9 * jnp.where(k > 0, k, 1.0) ** (cosmo.n_s - 4.0)  # scaffolding


def fftfreq(shape, spacing, dtype=jnp.float32):  # scaffolding: pmwd.pm_util.fftfreq
    kvec = [jnp.fft.fftfreq(n, d=spacing / (2 * jnp.pi)).astype(dtype) for n in shape[:-1]]  # scaffolding
    kvec.append(jnp.fft.rfftfreq(shape[-1], d=spacing / (2 * jnp.pi)).astype(dtype))  # scaffolding
    return [k.reshape([-1 if i == j else 1 for j in range(len(shape))]) for i, k in enumerate(kvec)]  # scaffolding


def fftfwd(x, norm=None):  # scaffolding: pmwd.pm_util.fftfwd
    return jnp.fft.rfftn(x, norm="ortho")  # scaffolding


def fftinv(x, shape=None, norm=None):  # scaffolding: pmwd.pm_util.fftinv
    return jnp.fft.irfftn(x, s=shape, norm="ortho")  # scaffolding


# pmwd/modes.py (docstrings cut)
from functools import partial

from jax import jit, checkpoint, custom_vjp
from jax import random
import jax.numpy as jnp



# TODO follow pmesh to fill the modes in Fourier space
@partial(jit, static_argnames=('real', 'unit_abs'))
def white_noise(seed, conf, real=False, unit_abs=False):
    key = random.PRNGKey(seed)

    # sample linear modes on Lagrangian particle grid
    modes = random.normal(key, shape=conf.ptcl_grid_shape,
                          dtype=conf.float_dtype)

    if real and not unit_abs:
        return modes

    modes = fftfwd(modes, norm='ortho')

    if unit_abs:
        modes /= jnp.abs(modes)

    if real:
        modes = fftinv(modes, shape=conf.ptcl_grid_shape, norm='ortho')

    return modes


@custom_vjp
def _safe_sqrt(x):
    return jnp.sqrt(x)


def _safe_sqrt_fwd(x):
    y = _safe_sqrt(x)
    return y, y


def _safe_sqrt_bwd(y, y_cot):
    x_cot = jnp.where(y != 0, 0.5 / y * y_cot, 0)
    return (x_cot,)


_safe_sqrt.defvjp(_safe_sqrt_fwd, _safe_sqrt_bwd)


@jit
@checkpoint
def linear_modes(modes, cosmo, conf, a=None):
    kvec = fftfreq(conf.ptcl_grid_shape, conf.ptcl_spacing,
                   dtype=conf.float_dtype)
    k = jnp.sqrt(sum(k**2 for k in kvec))

    if a is not None:
        a = jnp.asarray(a, dtype=conf.float_dtype)

    Plin = linear_power(k, a, cosmo, conf)

    if jnp.isrealobj(modes):
        modes = fftfwd(modes, norm='ortho')

    modes *= _safe_sqrt(Plin * conf.box_vol)

    if jnp.isrealobj(modes):
        modes = fftinv(modes, shape=conf.ptcl_grid_shape,
                       norm=conf.ptcl_spacing)

    return modes


conf = Configuration()  # scaffolding
calls = 0  # scaffolding
try:  # scaffolding
    for seed, A in enumerate([2.0, 2.1, 2.2]):  # scaffolding: the quickstart's modes -> linear_modes for a few cosmologies
        cosmo = Cosmology(A_s_1e9=A, n_s=0.96)  # scaffolding
        modes = white_noise(seed, conf)
        modes = linear_modes(modes, cosmo, conf)
        calls += 1  # scaffolding
    _report({"jit(linear_modes)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
