# source: https://github.com/MIT-Lu-Lab/MPAX/issues/1
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: PR #2 replaces the two-sided form by the general form create_lp(c, A, b, G, h, l, u), whose shapes are fixed by the inputs; the jitted, vmapped builder compiles once for two calls.
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
import dataclasses
from typing import List, NamedTuple, Union

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental.sparse import BCOO, BCSR, bcoo_concatenate, empty


# scaffolding: mpax is not installed; its problem containers (mpax/utils.py) as small stand-ins
@dataclasses.dataclass
class TwoSidedQpProblem:
    variable_lower_bound: List[float]
    variable_upper_bound: List[float]
    constraint_lower_bound: List[float]
    constraint_upper_bound: List[float]
    constraint_matrix: Union[BCSR, BCOO]
    objective_constant: float
    objective_vector: List[float]
    objective_matrix: Union[BCSR, BCOO]


class QuadraticProgrammingProblem(NamedTuple):
    num_variables: int
    num_constraints: int
    variable_lower_bound: jnp.ndarray
    variable_upper_bound: jnp.ndarray
    isfinite_variable_lower_bound: jnp.ndarray
    isfinite_variable_upper_bound: jnp.ndarray
    objective_matrix: BCOO
    objective_vector: jnp.ndarray
    objective_constant: float
    constraint_matrix: BCSR
    constraint_matrix_t: BCSR
    right_hand_side: jnp.ndarray
    num_equalities: int
    equalities_mask: jnp.ndarray
    inequalities_mask: jnp.ndarray
# end scaffolding


def create_lp(c, A, b, G, h, l, u):
    """Create a boxed linear program from arrays.
            max  cx
            s.t. Ax = b
                 Gx >= h
                 l <= x <= u

    Parameters
    ----------
    c : jnp.ndarray
        The objective vector.
    A : jnp.ndarray, BCOO or BCSR
        The matrix of equality constraints.
    b : jnp.ndarray
        The right hand side of equality constraints.
    G : jnp.ndarray, BCOO or BCSR
        The matrix for inequality constraints.
    b : jnp.ndarray
        The right hand side of inequality constraints.
    l : jnp.ndarray
        The lower bound of the variables.
    u : jnp.ndarray
        The upper bound of the variables.

    Returns
    -------
    QuadraticProgrammingProblem
        The boxed linear program.
    """
    if isinstance(A, jnp.ndarray):
        A = BCOO.fromdense(A, nse=A.shape[0] * A.shape[1])
    elif isinstance(A, BCSR):
        A = A.to_bcoo()
    elif isinstance(A, BCOO):
        pass
    else:
        raise ValueError(
            "Unsupported matrix format. "
            "The constraint matrix must be one of the following types: "
            "jnp.ndarray, BCOO, or BCSR."
        )

    if isinstance(G, jnp.ndarray):
        G = BCOO.fromdense(G, nse=G.shape[0] * G.shape[1])
    elif isinstance(G, BCSR):
        G = G.to_bcoo()
    elif isinstance(G, BCOO):
        pass
    else:
        raise ValueError(
            "Unsupported matrix format. "
            "The constraint matrix must be one of the following types: "
            "jnp.ndarray, BCOO, or BCSR."
        )
    constraint_matrix = bcoo_concatenate([A, G], dimension=0)
    problem = QuadraticProgrammingProblem(
        num_variables=c.shape[0],
        num_constraints=A.shape[0] + G.shape[0],
        variable_lower_bound=jnp.array(l),
        variable_upper_bound=jnp.array(u),
        isfinite_variable_lower_bound=jnp.isfinite(l),
        isfinite_variable_upper_bound=jnp.isfinite(u),
        objective_matrix=empty(
            shape=(len(c), len(c)), dtype=float, sparse_format="bcoo"
        ),
        objective_vector=jnp.array(c),
        objective_constant=0.0,
        constraint_matrix=BCSR.from_bcoo(constraint_matrix),
        constraint_matrix_t=BCSR.from_bcoo(constraint_matrix.T),
        right_hand_side=jnp.concatenate([b, h]),
        num_equalities=b.shape[0],
        equalities_mask=jnp.concatenate(
            [jnp.full(len(b), True), jnp.full(len(h), False)]
        ),
        inequalities_mask=jnp.concatenate(
            [jnp.full(len(b), False), jnp.full(len(h), True)]
        ),
    )
    return problem


# The reporter's setup (maximize sum(x) subject to A @ x <= 1, batched over random A),
# with the general-form create_lp of PR #2 (G x >= h with G = -A, h = -1); the solver call
# is replaced by a stand-in reduction of the built problem.  # scaffolding
def solve_mpax(A):
    m, n = A.shape
    lp = create_lp(
        -jnp.ones(n),
        jnp.zeros((0, n)),
        jnp.zeros(0),
        -A,
        -jnp.ones(m),
        jnp.zeros(n),
        jnp.full(n, jnp.inf),
    )
    return jnp.sum(lp.right_hand_side)  # scaffolding: stands in for solver.optimize(lp)


A = jax.random.uniform(jax.random.PRNGKey(0), (4, 3, 5))
solve = jax.vmap(jax.jit(solve_mpax))  # scaffolding: one wrapper, called twice
x = solve(A)
x = solve(A)
_report({"jit(solve_mpax)"}, 2)
