# source: https://github.com/pnkraemer/probdiffeq/pull/84
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: TaylorMode.__call__ is jitted as a method of a field-less eqx.Module (self is an empty pytree) with vector_field and num static; four calls with the same module-level field and num compile once.
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


# odefilter/taylor_series.py at db9a32a8 (PR #84 "Jitting"; module docstring and the method docstring examples shortened)
from functools import partial
from typing import Callable, List, Tuple

import equinox as eqx
import jax
from jax.experimental.jet import jet
from jaxtyping import Array, Float


class TaylorMode(eqx.Module):
    """Taylor-mode initialisation."""

    @partial(jax.jit, static_argnames=("vector_field", "num"))
    def __call__(
        self,
        *,
        vector_field: Callable[..., Float[Array, " d"]],
        initial_values: Tuple[Float[Array, " d"], ...],
        num: int
    ) -> List[Float[Array, " d"]]:
        """Recursively differentiate the initial value of an \
         ODE with **Taylor-mode** automatic differentiation."""
        # Number of positional arguments in f
        num_arguments = len(initial_values)

        # Initial Taylor series (u_0, u_1, ..., u_k)
        primals = vector_field(*initial_values)
        taylor_coeffs = [*initial_values, primals]
        for _ in range(num - 1):
            series = _subsets(taylor_coeffs[1:], num_arguments)
            primals, series_new = jet(
                vector_field, primals=initial_values, series=series
            )
            taylor_coeffs = [*initial_values, primals, *series_new]

        return taylor_coeffs


def _subsets(set, n):
    """Compute specific subsets until exhausted.

    See example below.

    Examples
    --------
    >>> a = (1, 2, 3, 4, 5)
    >>> print(_subsets(a, n=1))
    [(1, 2, 3, 4, 5)]
    >>> print(_subsets(a, n=2))
    [(1, 2, 3, 4), (2, 3, 4, 5)]
    >>> print(_subsets(a, n=3))
    [(1, 2, 3), (2, 3, 4), (3, 4, 5)]
    """

    def mask(i):
        return None if i == 0 else i

    return [set[mask(k) : mask(k + 1 - n)] for k in range(n)]



import jax.numpy as jnp  # scaffolding


f = lambda x, dx: dx**2*(1-jnp.sin(x))  # scaffolding: the docstring's second-order example field
taylor_mode = TaylorMode()  # scaffolding
for k in range(4):  # scaffolding: new initial values, same vector field and num
    u0 = (jnp.ones(1)*0.5 + 0.1 * k, jnp.ones(1)*0.2)  # scaffolding
    tcoeffs = taylor_mode(vector_field=f, initial_values=u0, num=4)  # scaffolding
print([float(c[0]) for c in tcoeffs])  # scaffolding
_report({"jit(__call__)"}, 4)  # scaffolding
