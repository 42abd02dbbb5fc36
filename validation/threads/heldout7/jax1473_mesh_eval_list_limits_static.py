# source: https://github.com/jax-ml/jax/pull/1473
# expect: unhashable-static at line 64
# runtime: ERROR ValueError
# why: mesh_eval marks x_limits and y_limits static, but the example passes Python lists; lists are unhashable static arguments, so the jitted call raises ValueError on 0.10.2.

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

from jax import jit, vmap  # scaffolding: was from jax.api import jit, grad, vmap
import jax.numpy as np
import jax.scipy.stats.norm as norm


def diag_gaussian_logpdf(x, mean, log_std):
    # Evaluate a single point on a diagonal multivariate Gaussian.
    return np.sum(vmap(norm.logpdf)(x, mean, np.exp(log_std)))


@partial(jit, static_argnums=(0, 1, 2))
def mesh_eval(func, x_limits, y_limits, params, num_ticks=101):
    # Evaluate func on a 2D grid defined by x_limits and y_limits.
    x = np.linspace(*x_limits, num=num_ticks)
    y = np.linspace(*y_limits, num=num_ticks)
    X, Y = np.meshgrid(x, y)
    xy_vec = np.stack([X.ravel(), Y.ravel()]).T
    zs = vmap(func, in_axes=(0, None))(xy_vec, params)
    return X, Y, zs.reshape(X.shape)


def funnel_log_density(params):
    return norm.logpdf(params[0], 0, np.exp(params[1])) + \
           norm.logpdf(params[1], 0, 1.35)


x_limits = [-2, 2]
y_limits = [-4, 2]
target_dist = lambda x, _: np.exp(funnel_log_density(x))
approx_dist = lambda x, params: np.exp(diag_gaussian_logpdf(x, *params))
params = (np.zeros(2), np.zeros(2))  # scaffolding

try:  # scaffolding
    X, Y, Z = mesh_eval(target_dist, x_limits, y_limits, 1)
    X, Y, Z = mesh_eval(approx_dist, x_limits, y_limits, params)
    _report({"jit(mesh_eval)"}, 2)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
