# source: https://github.com/jax-ml/jax/issues/7561
# expect: unhashable-static at line 54
# runtime: ERROR ValueError
# why: x_limits = [-2, 2] is a list passed in a static_argnums position of the jitted _mesh_eval, so hashing it raises ValueError (non-hashable static argument), as in the reported traceback.

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
from functools import partial  # scaffolding
import jax.numpy as jnp  # scaffolding
from jax import jit, vmap  # scaffolding


def target_dist(x, t):  # scaffolding: a toy unnormalised log-density
    return -0.5 * jnp.sum(x ** 2) * t  # scaffolding


@partial(jit, static_argnums=(0, 1, 2, 4))  # scaffolding: limits and tick count static, as the error implies
def _mesh_eval(func, x_limits, y_limits, params, num_ticks):  # scaffolding
    xs = jnp.linspace(x_limits[0], x_limits[1], num_ticks)  # scaffolding
    ys = jnp.linspace(y_limits[0], y_limits[1], num_ticks)  # scaffolding
    X, Y = jnp.meshgrid(xs, ys)  # scaffolding
    pts = jnp.stack([X.ravel(), Y.ravel()], axis=1)  # scaffolding
    return X, Y, vmap(func, in_axes=(0, None))(pts, params).reshape(X.shape)  # scaffolding


def mesh_eval(func, x_limits, y_limits, params, num_ticks=101):  # scaffolding
    return _mesh_eval(func, x_limits, y_limits, params, num_ticks)


def callback(params, t):  # scaffolding
    x_limits = [-2, 2]  # scaffolding: the list shown in the error
    y_limits = [-4, 2]  # scaffolding
    X, Y, Z = mesh_eval(target_dist, x_limits, y_limits, 1)
    return Z  # scaffolding


try:  # scaffolding
    callback(None, 0)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
