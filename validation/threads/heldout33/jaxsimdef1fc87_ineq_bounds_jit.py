# source: https://github.com/ami-iit/jaxsim/commit/def1fc87950694d3d289856d22273f697260f589
# expect: trace-time-error at line 85
# runtime: ERROR TypeError
# why: _compute_ineq_bounds is wrapped in @jax.jit, so its Python-int argument n_collidable_points becomes a tracer and jnp.zeros(shape=(6 * tracer,)) cannot get a concrete shape while tracing; jaxsim's fix removed the jit.

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
import numpy as np  # scaffolding


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


@jax.jit
@js.common.named_scope
def _compute_ineq_bounds(n_collidable_points: int):

    n_constraints = 6 * n_collidable_points
    return jnp.zeros(shape=(n_constraints,))


# scaffolding: stand-in for RigidContacts.compute_contact_forces, which jaxsim runs inside its jitted step;
# the number of enabled collidable points is static model data there.
indices_of_enabled_collidable_points = np.arange(4)  # scaffolding


@jax.jit  # scaffolding
def compute_contact_forces(δ, mu):
    n_collidable_points = len(indices_of_enabled_collidable_points)

    # Construct the inequality constraints.
    G = _compute_ineq_constraint_matrix(
        inactive_collidable_points=(δ <= 0), mu=mu
    )
    h_bounds = _compute_ineq_bounds(n_collidable_points=n_collidable_points)

    # Construct the equality constraints.
    A = jnp.zeros((0, 3 * n_collidable_points))
    b = jnp.zeros((0,))
    return G, h_bounds, A, b


n_calls = 4  # scaffolding
try:  # scaffolding
    for step in range(n_calls):  # scaffolding: four simulation steps
        δ = jnp.linspace(-0.01, 0.01, 4) + 0.001 * step
        G, h_bounds, A, b = compute_contact_forces(δ, 0.5)
    _report({"jit(compute_contact_forces)"}, n_calls)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
