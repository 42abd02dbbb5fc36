# source: https://github.com/GalSim-developers/JAX-GalSim/pull/140
# expect: jit-in-loop-or-body at line 56
# runtime: COMPILES 3 CALLS 3
# why: _MoffatCalculateSRFromHLR is not jitted and runs lax.fori_loop eagerly over a body closure defined anew on every call, so each Moffat construction traces and compiles the loop (as jit(scan)) again: 3 compiles for 3 same-shape calls.
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


import jax
import jax.numpy as jnp
from jax.tree_util import Partial as partial


def _MoffatCalculateSRFromHLR(re, rm, beta):
    """
    The basic equation that is relevant here is the flux of a Moffat profile
    out to some radius.

    flux(R) = int( (1+r^2/rd^2 )^(-beta) 2pi r dr, r=0..R )
            = (pi rd^2 / (beta-1)) (1 - (1+R^2/rd^2)^(1-beta) )
    For now, we can ignore the first factor.  We call the second factor fluxfactor below,
    or in this function f(R).
    We are given two values of R for which we know that the ratio of their fluxes is 1/2:
    f(re) = 0.5 * f(rm)

    nb1. rd aka r0 aka the scale radius
    nb2. In GalSim definition rm = 0 (ex. no truncated Moffat) means in reality rm=+Inf.
         BUT the case rm==0 is already done, so HERE rm != 0
    """

    # fix loop iteration is faster and reach eps=1e-6 (single precision)
    def body(i, xcur):
        x = (1 + jnp.power(1 + (rm / xcur) ** 2, 1 - beta)) / 2
        x = jnp.power(x, 1 / (1 - beta))
        x = jnp.sqrt(x - 1)
        return re / x

    rd = jax.lax.fori_loop(0, 1000, body, re)

    return rd


# scaffolding: Moffat(beta, half_light_radius=..., trunc=...) solves for the scale radius in
# __init__, eagerly, for every profile built (e.g. a PSF per galaxy / per exposure)
for k in range(3):  # scaffolding
    r0 = _MoffatCalculateSRFromHLR(jnp.asarray(1.0 + 0.1 * k), jnp.asarray(5.0), jnp.asarray(2.5))  # scaffolding

_report({"jit(scan)", "jit(while)", "jit(_MoffatCalculateSRFromHLR)"}, 3)  # scaffolding
