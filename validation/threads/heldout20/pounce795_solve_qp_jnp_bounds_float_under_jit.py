# source: https://github.com/jkitchin/pounce/issues/795
# expect: trace-time-error at line 57
# runtime: ERROR ConcretizationTypeError
# why: _expand_bounds calls float(ub[i]) on jnp bounds; under jax.jit the index is staged, so float() of the tracer raises.
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
# jkitchin/pounce issue #795: pounce.jax.solve_qp's bound folding (python/pounce/jax/_qp.py) under jax.jit
from typing import Optional

import jax
import jax.numpy as jnp
import numpy as np

jax.config.update("jax_enable_x64", True)  # scaffolding: the layer works in float64


def _make_qp_vjp(n, m, p, tol, max_iter, check_psd):  # scaffolding: the Rust interior-point host solve
    def fn(P, c, G, h, A, b, warm_x):  # scaffolding: bounds are inactive in the report's fixture
        return jnp.linalg.solve(P, -c)  # scaffolding
    return fn  # scaffolding


def _warm_primal(warm_start, n):  # scaffolding: cold start
    return jnp.zeros((0,))  # scaffolding


def _expand_bounds(G, h, lb, ub, n):
    """Fold finite variable bounds into G/h as extra rows.

    Returns ``(G_full, h_full)`` as dense jnp arrays. ``x_i ≤ ub_i`` and
    ``−x_i ≤ −lb_i``."""
    rows = []
    rhs = []
    if G is not None and G.shape[0] > 0:
        rows.append(G)
        rhs.append(h)
    if ub is not None:
        for i in range(n):
            if np.isfinite(float(ub[i])):
                e = jnp.zeros(n).at[i].set(1.0)
                rows.append(e[None, :])
                rhs.append(jnp.asarray(ub[i]).reshape(1))
    if lb is not None:
        for i in range(n):
            if np.isfinite(float(lb[i])):
                e = jnp.zeros(n).at[i].set(-1.0)
                rows.append(e[None, :])
                rhs.append((-jnp.asarray(lb[i])).reshape(1))
    if not rows:
        return jnp.zeros((0, n)), jnp.zeros((0,))
    return jnp.concatenate(rows, axis=0), jnp.concatenate(rhs, axis=0)



def solve_qp(
    *,
    P,
    c,
    G=None,
    h=None,
    A=None,
    b=None,
    lb=None,
    ub=None,
    tol: Optional[float] = None,
    max_iter: Optional[int] = None,
    warm_start=None,
    check_psd: Optional[bool] = None,
):
    P = jnp.asarray(P, dtype=jnp.float64)
    c = jnp.asarray(c, dtype=jnp.float64)
    n = c.shape[0]
    G0 = jnp.zeros((0, n)) if G is None else jnp.asarray(G, dtype=jnp.float64)
    h0 = jnp.zeros((0,)) if h is None else jnp.asarray(h, dtype=jnp.float64)
    A0 = jnp.zeros((0, n)) if A is None else jnp.asarray(A, dtype=jnp.float64)
    b0 = jnp.zeros((0,)) if b is None else jnp.asarray(b, dtype=jnp.float64)
    G_full, h_full = _expand_bounds(G0, h0, lb, ub, n)
    warm_x = _warm_primal(warm_start, n)
    fn = _make_qp_vjp(n, G_full.shape[0], A0.shape[0], tol, max_iter, check_psd)
    return fn(P, c, G_full, h_full, A0, b0, warm_x)


# the report's fixture: n=2, P=2I, c=(-1, 2), bounds inactive at the solution
P = 2.0 * jnp.eye(2)
c = jnp.array([-1.0, 2.0])
lb = jnp.full(2, -10.0)
ub = jnp.full(2, 10.0)
try:  # scaffolding
    x = jax.jit(lambda c: solve_qp(P=P, c=c, lb=lb, ub=ub))(c)
    print(x)  # scaffolding
    _report({"jit(<lambda>)"}, 1)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
