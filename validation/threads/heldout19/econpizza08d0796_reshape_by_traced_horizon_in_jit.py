# source: https://github.com/gboehl/econpizza/commit/08d0796db6f35c413ee28496cc7d32835c5db290
# expect: trace-time-error at line 60
# runtime: ERROR TypeError
# why: get_stst_jacobian_jit is a plain @jax.jit, so horizon and nvars are traced and jac.reshape(((horizon-1)*nvars, ...)) gets a traced shape and raises TypeError.
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

import jax
import time
import jax.numpy as jnp
import scipy.sparse as ssp
import scipy.sparse.linalg  # scaffolding: makes ssp.linalg available
from functools import partial  # scaffolding: was `from jax._src.api import partial` (grgrjax's jax_print unused)


def accumulate(i_and_j, carry):
    # accumulate effects over different horizons
    jac, horizon = carry
    i = i_and_j // (horizon-2)
    j = i_and_j % (horizon-2)
    jac = jac.at[i+1, :, j+1].add(jac[i, :, j])
    return jac, horizon


@jax.jit
def get_stst_jacobian_jit(derivatives, horizon, nvars):
    # load derivatives
    (jac_f2xLag, jac_f2x, jac_f2xPrime), jac_f2do, jac_do2x = derivatives

    # jacobian is quasi-kronecker of f2do x do2x
    jac = jnp.tensordot(jac_f2do[:, ::-1],
                        jac_do2x[..., ::-1, :], jac_f2do.ndim-2)
    jac = jnp.moveaxis(jac, 0, 1)

    # add direct effects of x on f
    jac = jac.at[0, :, 0, :].add(jac_f2x[..., 0])
    jac = jac.at[0, :, 1, :].add(jac_f2xPrime[..., 0])
    jac = jac.at[1, :, 0, :].add(jac_f2xLag[..., 0])

    # accumulate and flatten
    jac, _ = jax.lax.fori_loop(0, (horizon-2)**2, accumulate, (jac, horizon))
    jac = jac.reshape(((horizon-1)*nvars, (horizon-1)*nvars))
    return jac

def lu_factor_from_sparse(lu):
    """Translate the output of scipy.sparse.linalg.splu to something that jax.scipy.linalg.lu_solve understands
    """
    pr = lu.perm_r
    pc = lu.perm_c
    n = len(pr)
    pr = jnp.empty(n, dtype=int).at[pr].set(jnp.arange(n))
    lu_factor = lu.L.toarray() - jnp.eye(n) + lu.U.toarray()  # scaffolding: .A was removed from scipy sparse matrices
    return (lu_factor, pr), pc

def get_stst_jacobian(model, derivatives, horizon, nvars, verbose):
    """Calculate the steady state jacobian
    """
    st = time.time()
    # do the accumulation in jitted jax
    jac = get_stst_jacobian_jit(derivatives, horizon, nvars)
    # store result
    model['cache']['jac'] = jac
    # use sparse SuperLU because it is wayyy faster
    sparse_jac = ssp.csc_matrix(jac)
    sparse_jac_lu = ssp.linalg.splu(sparse_jac)
    model['cache']['jac_factorized'] = lu_factor_from_sparse(sparse_jac_lu)
    if verbose:
        duration = time.time() - st
        print(
            f"(get_jacobian:) Jacobian accumulation and decomposition done ({duration:1.3f}s).")

    return 0

nvars, m, horizon = 3, 2, 12  # scaffolding: a small model
k = jax.random.split(jax.random.PRNGKey(0), 5)  # scaffolding
derivatives = (  # scaffolding: (jac_f2xLag, jac_f2x, jac_f2xPrime), jac_f2do, jac_do2x
    (jax.random.normal(k[0], (nvars, nvars, 1)), 5 * jnp.eye(nvars)[..., None] + 0.1 * jax.random.normal(k[1], (nvars, nvars, 1)),
     0.1 * jax.random.normal(k[2], (nvars, nvars, 1))),
    0.01 * jax.random.normal(k[3], (nvars, horizon - 1, m)),
    0.01 * jax.random.normal(k[4], (m, horizon - 1, nvars)),
)
model = {'cache': {}}  # scaffolding
try:  # scaffolding
    for rep in range(3):  # scaffolding: the steady-state Jacobian is rebuilt, e.g. per parameter draw
        get_stst_jacobian(model, derivatives, horizon, nvars, False)
    _report({"jit(get_stst_jacobian_jit)"}, 3)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
