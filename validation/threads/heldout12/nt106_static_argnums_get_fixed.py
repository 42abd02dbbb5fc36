# source: https://github.com/google/neural-tangents/issues/106
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: the kernel function is jitted once with static_argnums=[2] so the get string is a compile-time constant, and repeated kernels on same-shaped inputs reuse one compile.

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

kernel = jax.jit(neural_tangents.empirical_kernel_fn(f, vmap_axes=0), static_argnums=[2])
for i in range(3):  # scaffolding
    x1 = jnp.full((4, 3), float(i))  # scaffolding
    x2 = jnp.full((5, 3), float(i) + 1.0)  # scaffolding
    k = kernel(x1, x2, 'ntk', params)

_report({"jit(kernel_fn)"}, 3)  # scaffolding
