# source: https://github.com/esa/torchquad/pull/165
# expect: bad-static-spec at line 86
# runtime: ERROR TypeError
# why: calculate_result is wrapped by a decorator whose wrap(*args, **kwargs) has no functools.wraps, so jax.jit(self.calculate_result, static_argnames=["dim", "n_per_dim"]) sees no parameter of those names; dim and n_per_dim, passed positionally, are traced, and [n_per_dim] * dim (a list times a tracer) raises TypeError.

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
import warnings

import jax
import jax.numpy as anp  # scaffolding: torchquad uses autoray's anp, dispatching to jax.numpy here


def expand_func_values_and_squeeze_integral(f):
    """This decorator ensures that the trailing dimension of integrands is indeed the integrand dimension."""

    def wrap(*args, **kwargs):
        # i.e we only have one dimension, or the second dimension (that of the integrand) is 1
        is_1d = len(args[1].shape) == 1 or (
            len(args[1].shape) == 2 and args[1].shape[1] == 1
        )
        if is_1d:
            warnings.warn(
                "DEPRECATION WARNING: In future versions of torchquad, an array-like object will be returned."
            )
            return anp.squeeze(
                f(args[0], anp.expand_dims(args[1], axis=1), *args[2:], **kwargs)
            )
        return f(*args, **kwargs)

    return wrap


class Trapezoid:  # scaffolding: NewtonCotes.calculate_result + Trapezoid._apply_composite_rule in one class
    @expand_func_values_and_squeeze_integral
    def calculate_result(self, function_values, dim, n_per_dim, hs):
        # Reshape the output to be [integrand_dim,N,N,...] points instead of [integrand_dim,dim*N] points
        integrand_shape = function_values.shape[1:]
        dim_shape = [n_per_dim] * dim
        new_shape = [*integrand_shape, *dim_shape]
        einsum = "".join([chr(i + 65) for i in range(len(function_values.shape))])
        reshaped_function_values = anp.einsum(
            f"{einsum}->{einsum[1:]}{einsum[0]}", function_values
        )
        reshaped_function_values = reshaped_function_values.reshape(new_shape)
        result = self._apply_composite_rule(reshaped_function_values, dim, hs)
        return result

    @staticmethod
    def _apply_composite_rule(cur_dim_areas, dim, hs):
        # We collapse dimension by dimension
        for cur_dim in range(dim):
            cur_dim_areas = (
                hs[cur_dim] / 2.0 * (cur_dim_areas[..., 0:-1] + cur_dim_areas[..., 1:])
            )
            cur_dim_areas = anp.sum(cur_dim_areas, axis=len(cur_dim_areas.shape) - 1)
        return cur_dim_areas


self = Trapezoid()  # scaffolding
dim, n_per_dim = 2, 5  # scaffolding
function_values = anp.ones((n_per_dim ** dim, 3))  # scaffolding: a 3-valued integrand on the grid
hs = anp.full((dim,), 0.25)  # scaffolding
self._jax_jit_calculate_result = jax.jit(
    self.calculate_result, static_argnames=["dim", "n_per_dim"]
)
jit_calculate_result = self._jax_jit_calculate_result
try:  # scaffolding
    jit_calculate_result(function_values, dim, int(n_per_dim), hs)
    print("COMPILES 1 CALLS 1")  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
