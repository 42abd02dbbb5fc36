# source: https://github.com/maja-jablonska/jaxtromet.py/blob/152b01bd6b124a03e37b3c1c036869ce74964618/jaxtromet/fits.py
# expect: trace-time-error at line 58
# runtime: ERROR ConcretizationTypeError
# why: mock_obs is a plain @jit, so an nmeasure passed by the caller is traced and jnp.repeat(ts, nmeasure) raises ConcretizationTypeError (the total number of repeats must be static); commit 19a9f49 added static_argnums=(6,).

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
from functools import partial

import jax
import jax.numpy as jnp
from jax import jit


@jit
def mock_obs(ts: jnp.array,
             phis: jnp.array,
             racs: jnp.array,
             decs: jnp.array,
             err: jnp.array,
             key,
             nmeasure=9) -> tuple:
    """
    Converts positions to comparable observables to real astrometric measurements
    (i.e. 1D positions along some scan angle, optionlly with errors added)
    Args:
        - ts,       jnp.array - Observation times, jyear.
        - phis,     jnp.array - Scanning angles (0 north, 90 east), degrees.
        - racs,     jnp.array - RAcosDec at each scan, mas
        - decs,     jnp.array - Dec at each scan, mas
        - err,      jnp.array - errors expected for the magnitudes (generate using jaxtromet.sigma_ast(mag))
        - nmeasure, int - optinal, number of measurements per transit (default 9)
    Returns:
        - copies of all entered parameters measured nmeasure times with errors
        - xs        ndarray - 1D projected displacements
    """
    ts = jnp.repeat(ts, nmeasure)
    phis = jnp.repeat(phis, nmeasure)
    errs = err*jax.random.normal(key, shape=ts.shape)
    racs = jnp.repeat(racs, nmeasure) + errs * jnp.sin(jnp.deg2rad(phis))
    decs = jnp.repeat(decs, nmeasure) + errs * jnp.cos(jnp.deg2rad(phis))
    xs = racs * jnp.sin(jnp.deg2rad(phis)) + decs * jnp.cos(jnp.deg2rad(phis))
    return ts, xs, phis, racs, decs


# scaffolding: stand-in scan times/angles/track for one source (README's mock_obs example, nmeasure given explicitly)
ts = jnp.array([2014.5, 2014.75, 2015.1, 2015.6])  # scaffolding
phis = jnp.array([0.75, 0.9, 40.0, 120.0])  # scaffolding
racs = jnp.array([1., 2., 1.5, 0.3])  # scaffolding
decs = jnp.array([0.9, 0.6, 0.2, -0.4])  # scaffolding
err = 0.1  # scaffolding
key, _ = jax.random.split(jax.random.PRNGKey(100), 2)
try:  # scaffolding
    t_obs, x_obs, phi_obs, rac_obs, dec_obs = mock_obs(ts, phis, racs, decs, err, key, 1)
    _report({"jit(mock_obs)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
