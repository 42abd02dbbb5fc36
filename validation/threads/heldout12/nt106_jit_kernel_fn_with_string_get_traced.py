# source: https://github.com/google/neural-tangents/issues/106
# expect: bad-static-spec at line 53
# runtime: ERROR TypeError
# why: the empirical kernel_fn is jitted without static_argnums, so its third positional argument get='ntk' (a string) is treated as a traced array argument and the call raises TypeError.

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
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding


class neural_tangents:  # scaffolding: stand-in namespace for the neural_tangents package
    @staticmethod
    def empirical_kernel_fn(f, vmap_axes=None):
        def kernel_fn(x1, x2, get, params):
            j1 = jax.jacobian(f)(params, x1).reshape(x1.shape[0], -1)
            j2 = jax.jacobian(f)(params, x2).reshape(x2.shape[0], -1)
            if get == 'ntk':
                return j1 @ j2.T
            return f(params, x1) @ f(params, x2).T
        return kernel_fn


def f(params, x):  # scaffolding: a one-layer network
    return jnp.tanh(x @ params)[:, 0]


params = jnp.ones((3, 1))  # scaffolding
x1 = jnp.ones((4, 3))  # scaffolding
x2 = jnp.ones((5, 3))  # scaffolding

kernel = jax.jit(neural_tangents.empirical_kernel_fn(f, vmap_axes=0))
try:  # scaffolding
    k = kernel(x1, x2, 'ntk', params)
    print(k.shape)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
