# source: https://github.com/QuantEcon/lecture-python.myst/commit/ef9b075454690b23a2310ca3520722c4c91836dd
# expect: trace-time-error at line 139
# runtime: ERROR ConcretizationTypeError
# why: wealth_time_series is jitted with the series length n traced, and the scan's xs=jnp.arange(n-1) needs a concrete n, so the first call raises ConcretizationTypeError.

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


import numpy as np
import jax
import jax.numpy as jnp
import jax.random as jr
from collections import namedtuple

# lectures/wealth_dynamics.md (before the commit): the model, update and time-series cells, then the call cell
# Create a namedtuple to hold model parameters
WealthDynamics = namedtuple('WealthDynamics', [
    'w_hat',   # savings parameter
    's_0',     # savings parameter
    'c_y',     # labor income parameter
    'μ_y',     # labor income parameter
    'σ_y',     # labor income parameter
    'c_r',     # rate of return parameter
    'μ_r',     # rate of return parameter
    'σ_r',     # rate of return parameter
    'a',       # aggregate shock parameter
    'b',       # aggregate shock parameter
    'σ_z',     # aggregate shock parameter
    'z_mean',  # mean of z process
    'z_var',   # variance of z process
    'y_mean',  # mean of y process
    'R_mean'   # mean of R process
])

def create_wealth_dynamics(w_hat=1.0,
                          s_0=0.75,
                          c_y=1.0,
                          μ_y=1.0,
                          σ_y=0.2,
                          c_r=0.05,
                          μ_r=0.1,
                          σ_r=0.5,
                          a=0.5,
                          b=0.0,
                          σ_z=0.1):
    """
    Factory function to create a WealthDynamics instance.
    """
    # Record stationary moments
    z_mean = b / (1 - a)
    z_var = σ_z**2 / (1 - a**2)
    exp_z_mean = jnp.exp(z_mean + z_var / 2)
    R_mean = c_r * exp_z_mean + jnp.exp(μ_r + σ_r**2 / 2)
    y_mean = c_y * exp_z_mean + jnp.exp(μ_y + σ_y**2 / 2)
    
    # Test stability condition
    α = R_mean * s_0
    if α >= 1:
        raise ValueError("Stability condition failed.")
    
    return WealthDynamics(
        w_hat=w_hat, s_0=s_0, c_y=c_y, μ_y=μ_y, σ_y=σ_y,
        c_r=c_r, μ_r=μ_r, σ_r=σ_r, a=a, b=b, σ_z=σ_z,
        z_mean=z_mean, z_var=z_var, y_mean=y_mean, R_mean=R_mean
    )

def update_states(wdy, w, z, key):
    """
    Update one period, given current wealth w and persistent state z.
    Returns new wealth and new persistent state.
    """
    key1, key2, key3 = jr.split(key, 3)
    
    # Update persistent state
    zp = wdy.a * z + wdy.b + wdy.σ_z * jr.normal(key1)
    
    # Generate income
    y = wdy.c_y * jnp.exp(zp) + jnp.exp(wdy.μ_y + wdy.σ_y * jr.normal(key2))
    
    # Update wealth
    wp = y
    wp = jnp.where(w >= wdy.w_hat,
                   wp + (wdy.c_r * jnp.exp(zp) + 
                         jnp.exp(wdy.μ_r + wdy.σ_r * jr.normal(key3))) * wdy.s_0 * w,
                   wp)
    
    return wp, zp

def wealth_time_series(wdy, w_0, n, key):
    """
    Generate a single time series of length n for wealth given
    initial value w_0.

    The initial persistent state z_0 for each household is drawn from
    the stationary distribution of the AR(1) process.

        * wdy: an instance of WealthDynamics
        * w_0: scalar
        * n: int
        * key: PRNGKey for random number generation
    """
    
    def scan_fn(carry, x):
        w, z, key = carry
        key, subkey = jr.split(key)
        w_new, z_new = update_states(wdy, w, z, subkey)
        return (w_new, z_new, key), w_new
    
    # Initialize
    key1, key2 = jr.split(key)
    z_0 = wdy.z_mean + jnp.sqrt(wdy.z_var) * jr.normal(key1)
    
    # Use scan to generate time series
    _, w_series = jax.lax.scan(scan_fn, (w_0, z_0, key2), jnp.arange(n-1))
    
    # Prepend initial value
    return jnp.concatenate([jnp.array([w_0]), w_series])

# JIT compile for performance
wealth_time_series = jax.jit(wealth_time_series)

wdy = create_wealth_dynamics()
ts_length = 200
key = jr.PRNGKey(42)
calls = 0
try:  # scaffolding
    w = wealth_time_series(wdy, wdy.y_mean, ts_length, key)
    calls += 1
    w = wealth_time_series(wdy, wdy.y_mean, ts_length, jr.PRNGKey(0))  # scaffolding: a second path
    calls += 1
    _report({"jit(wealth_time_series)"}, calls)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
