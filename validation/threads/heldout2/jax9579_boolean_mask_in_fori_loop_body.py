# source: https://github.com/jax-ml/jax/issues/9579
# expect: trace-time-error at line 48
# runtime: ERROR NonConcreteBooleanIndexError
# why: biject_alpha runs as a fori_loop body, where i and idx are traced, so the mask (i-1) == idx is traced and alpha[mask] has a data-dependent size: the trace raises an error.

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


from jax import random 
import jax
import jax.numpy as jnp

def biject_alpha(idx, val):
    alpha, i, key = val
    # hyperparameters for randomisation
    cdf_bins=20

    key, consume = random.split(key)
    samples = random.uniform(consume, (cdf_bins-1,), maxval=1.0)
    samples = jnp.hstack((jnp.array([0.0]), samples))
    montonous = jnp.cumsum(samples)
    cdf = montonous/montonous[-1]

    # idx of first occurenece
    mask = (i-1) == idx
    start_idx = jnp.select(mask, jnp.arange(len(mask)))

    # biject slice
    alpha_i = alpha[mask]
    bijected_alpha = cdf[(alpha_i//(1/cdf_bins)).astype(int)]
    alpha = jax.lax.dynamic_update_slice(alpha, bijected_alpha, start_idx)
    return (alpha, i, key)

def cosInterpolateRandomized(x, xp, fp, consume):
    i = jnp.clip(jnp.searchsorted(xp, x, side='right'), 1, len(xp) - 1)
    dx = xp[i] - xp[i - 1]
    alpha = (x - xp[i - 1])/dx 
    alpha, _, _ = jax.lax.fori_loop(0, len(xp)-1, biject_alpha, (alpha, i, consume))
    return alpha  # scaffolding: the rest is cut off in the thread

xp = jnp.linspace(0.0, 1.0, 5)  # scaffolding
try:  # scaffolding
    cosInterpolateRandomized(jnp.linspace(0.0, 1.0, 11), xp, jnp.sin(xp), random.PRNGKey(0))  # scaffolding
    _report({"jit(biject_alpha)"}, 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
