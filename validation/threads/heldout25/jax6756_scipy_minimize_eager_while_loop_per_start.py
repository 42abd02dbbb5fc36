# source: https://github.com/jax-ml/jax/issues/6756
# expect: jit-in-loop-or-body at line 53
# runtime: COMPILES 3 CALLS 3
# why: jax.scipy.optimize.minimize is called eagerly inside the Python loop over starting points, so its BFGS lax.while_loop is re-staged with fresh closures and compiled again on every iteration (3 compiles for 3 starts).
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
import jax.scipy.optimize
import jax.random

jX = jnp.arange(-2, 8, 0.03) # A 1D evaluation grid
targetp = jnp.array(
    [1.3615158,  3.1700504,  0.3901142,  0.8582838,
     -0.24486497,  3.078153,  1.2610698,  2.276195,
     0.84759176,  1.563921, -0.91339713,  0.23969328]) # The "true" parameters

def fun(p): # This function was once auto-generated, so it looks silly
    arg1 = p[2] + p[3] * jnp.tanh(p[4]  + p[5] * jX)
    arg2 = p[6] + p[7] * jnp.log(jnp.abs(p[8] + p[9] * jnp.arctan(p[10] + p[11] * jX)))
    return p[0] + p[1] * arg1 * arg2

targety = fun(targetp)
def mse_loss(p):
    return ((fun(p) - targety) ** 2).mean()

key = jax.random.PRNGKey(1337)
keys = jax.random.split(key, 10)
keys = keys[:3]  # scaffolding: 3 starting points instead of 10

for k in keys: # Try optimize from different starting points
    x0 = targetp + jax.random.normal(k)
    optx = jax.scipy.optimize.minimize(mse_loss, x0, method='BFGS')
    print(optx.fun, optx.nfev)
_report({"jit(while)"}, len(keys))  # scaffolding: jit(while) is the BFGS while_loop that minimize runs eagerly
