# source: https://github.com/ami-iit/jaxsim/commit/def1fc87950694d3d289856d22273f697260f589
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: The neighbouring jitted helper _compute_ineq_constraint_matrix uses len() of a traced argument to size jnp.tile; len() reads the static shape, so it traces fine and compiles once across steps with the same number of points.

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
import functools  # scaffolding
import types  # scaffolding

import jax
import jax.numpy as jnp


def named_scope(fn, name=None):  # from jaxsim/api/common.py (type hints dropped)
    """Apply a JAX named scope to a function for improved profiling and clarity."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        with jax.named_scope(name or fn.__name__):
            return fn(*args, **kwargs)

    return wrapper


js = types.SimpleNamespace(common=types.SimpleNamespace(named_scope=named_scope))  # scaffolding


@jax.jit
@js.common.named_scope
def _compute_ineq_constraint_matrix(
    inactive_collidable_points, mu
):
    """
    Compute the inequality constraint matrix for a single collidable point.

    Rows 0-3: enforce the friction pyramid constraint,
    Row 4: last one is for the non negativity of the vertical force
    Row 5: contact complementarity condition
    """
    G_single_point = jnp.array(
        [
            [1, 0, -mu],
            [0, 1, -mu],
            [-1, 0, -mu],
            [0, -1, -mu],
            [0, 0, -1],
            [0, 0, 0],
        ]
    )
    G = jnp.tile(G_single_point, (len(inactive_collidable_points), 1, 1))
    G = G.at[:, 5, 2].set(inactive_collidable_points)

    G = jax.scipy.linalg.block_diag(*G)
    return G


n_calls = 4  # scaffolding
for step in range(n_calls):  # scaffolding: four simulation steps, penetration changes, point count does not
    δ = jnp.linspace(-0.01, 0.01, 4) + 0.003 * step
    G = _compute_ineq_constraint_matrix(inactive_collidable_points=(δ <= 0), mu=0.5)
_report({"jit(_compute_ineq_constraint_matrix)"}, n_calls)
