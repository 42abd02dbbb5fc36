# source: https://github.com/jax-ml/jaxopt/issues/347
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: jax.vmap(jax.jit(osqp_run)) builds a BoxOSQP inside the jitted function; the solver object is created during tracing and is not part of the cache key, so two batches of 8 QPs compile once.
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
# google/jaxopt issue #347: ZedongPeng's batched BoxOSQP comment (2025-01-29), with the elided parts filled in
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding
from jaxopt import BoxOSQP  # scaffolding

eps = 1e-3  # scaffolding


def osqp_run(Q, new_c_vecter, A, l, u):  # scaffolding: the comment elides the arguments ("...")
    osqp = BoxOSQP(tol=eps, verbose=0, maxiter=4000, jit=True, implicit_diff=False, unroll=False)
    sol = osqp.run(None, params_obj=(Q, new_c_vecter), params_eq=A, params_ineq=(l, u)).params  # scaffolding: BoxOSQP takes params_eq=A, params_ineq=(l, u), not the comment's (A, b), (G, h)
    return sol.primal  # scaffolding


osqp_batch_jit_solve = jax.vmap(jax.jit(osqp_run))  # defined after osqp_run (scaffolding: the comment lists it first)

# scaffolding: two batches of 8 box-constrained QPs (the BoxOSQP tutorial problem with varying c)
Q = jnp.broadcast_to(2 * jnp.array([[2.0, 0.5], [0.5, 1]]), (8, 2, 2))
A = jnp.broadcast_to(jnp.array([[1.0, 1.0], [-1.0, 0.0], [0.0, -1.0]]), (8, 3, 2))
l = jnp.broadcast_to(jnp.array([1.0, -jnp.inf, -jnp.inf]), (8, 3))
u = jnp.broadcast_to(jnp.array([1.0, 0.0, 0.0]), (8, 3))
for k in range(2):  # scaffolding
    c = jnp.ones((8, 2)) * (1.0 + k) + jnp.arange(8.0)[:, None] / 8
    x = osqp_batch_jit_solve(Q, c, A, l, u)  # scaffolding
_report({"jit(osqp_run)", "vmap(jit(osqp_run))"}, 2)  # scaffolding
