# source: https://github.com/f0uriest/interpax/pull/77
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: with the PR's method: str = eqx.field(static=True), the string is part of the pytree structure, so the interpolator passes through jax.jit and evaluate compiles once for two calls.

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
from typing import Union

import equinox as eqx
import jax
import jax.numpy as jnp


class Interpolator1D(eqx.Module):
    """Convenience class for representing a 1D interpolated function."""

    x: jax.Array
    f: jax.Array
    derivs: dict
    method: str = eqx.field(static=True)
    extrap: Union[bool, float, tuple]
    period: Union[None, float]
    axis: int

    def __init__(self, x, f, method="cubic", extrap=False, period=None, **kwargs):  # (validation and derivative setup trimmed)
        self.x = jnp.asarray(x, dtype=float)
        self.f = jnp.asarray(f, dtype=float)
        self.axis = kwargs.get("axis", 0)
        self.method = method
        self.extrap = extrap
        self.period = period
        self.derivs = {"fx": jnp.gradient(self.f)}  # scaffolding: stands in for approx_df(x, f, method, axis)

    def __call__(self, xq, dx=0):
        # scaffolding: stands in for interp1d(xq, self.x, self.f, self.method, dx, ...)
        if self.method not in ("nearest", "linear", "cubic"):  # scaffolding
            raise ValueError(f"unknown method {self.method}")  # scaffolding
        return jnp.interp(xq, self.x, self.f)  # scaffolding


interp = Interpolator1D(jnp.linspace(0, 1, 8), jnp.linspace(0, 1, 8) ** 2, method="linear")  # scaffolding
xq = jnp.linspace(0, 1, 5)  # scaffolding
print(interp(xq))  # scaffolding: works outside jit


@jax.jit  # scaffolding: the PR says the object "can't pass through a normal jax.jit"
def evaluate(interp, xq):  # scaffolding
    return interp(xq)  # scaffolding


try:  # scaffolding
    evaluate(interp, xq)  # scaffolding
    evaluate(interp, xq + 0.01)  # scaffolding
    _report({"jit(evaluate)"}, 2)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
