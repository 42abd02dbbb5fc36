# source: https://github.com/qutip/qutip-jax/commit/4727189ca5bfe970e7821c5691a70749897ece77
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: after the commit isherm stays a (possibly traced) jnp.bool and _eigs_jaxarray computes both eigh and eig and selects with jnp.where, so the jitted ground-state energy compiles once for 4 drive strengths.

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


import types
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax import jit

qutip = types.SimpleNamespace(settings=types.SimpleNamespace(core={"atol": 1e-12}))  # scaffolding: qutip is not installed


@jax.tree_util.register_pytree_node_class
class JaxArray:  # scaffolding: cut-down qutip_jax.jaxarray.JaxArray (a pytree holding _jxa and a static shape)
    def __init__(self, data, shape=None, copy=None):  # scaffolding
        jxa = jnp.asarray(data)  # scaffolding
        self._jxa = jxa  # scaffolding
        self.shape = tuple(jxa.shape) if shape is None else shape  # scaffolding

    def tree_flatten(self):  # scaffolding
        return (self._jxa,), self.shape  # scaffolding

    @classmethod
    def tree_unflatten(cls, shape, children):  # scaffolding
        return cls(children[0], shape)  # scaffolding


# --- qutip_jax/properties.py ---
@partial(jit, static_argnames=["tol"])
def _isherm(matrix, tol):
    return jnp.allclose(matrix, matrix.T.conj(), atol=tol, rtol=0)


# jitting this makes it 100x slower for nonsquare.
# splitting it like this seems ideal.
def isherm_jaxarray(matrix, tol=None):
    if matrix.shape[0] != matrix.shape[1]:
        return False
    if tol is None:
        tol = qutip.settings.core["atol"]
    return _isherm(matrix._jxa, tol)


# --- qutip_jax/linalg.py (after the commit) ---
@partial(jit, static_argnums=[2, 3, 4])
def _eigs_jaxarray(data, isherm, vecs, eigvals, low_first):
    """
    Internal function to dispatch the eigenvalue solver to `eigh`, `eig`,
    `eigvalsh` or `eigvals` based on the parameters.
    """
    if vecs:
        evals_herm, evecs_herm = jnp.linalg.eigh(data)
        evals_nonherm, evecs_nonherm = jnp.linalg.eig(data)

        evals = jnp.where(isherm, evals_herm, evals_nonherm)
        evecs = jnp.where(isherm, evecs_herm, evecs_nonherm)
    
    else:
        evals_herm= jnp.linalg.eigvalsh(data)
        evals_nonherm = jnp.linalg.eigvals(data)

        evals = jnp.where(isherm, evals_herm, evals_nonherm)
        evecs = None

    perm = jnp.argsort(evals.real)
    evals = evals[perm]
    if not low_first:
        evals = evals[::-1]
    evals = evals[:eigvals]

    if vecs:
        evecs = evecs[:, perm]
        if not low_first:
            evecs = evecs[:, ::-1]
        evecs = evecs[:, :eigvals]

    return evals, evecs


# Can't jit it if we accept isherm=None
def eigs_jaxarray(data, isherm=None, vecs=True, sort='low', eigvals=0):
    """
    Return eigenvalues and eigenvectors for a `Data` of type `"jax"`.  Takes no
    special keyword arguments; see the primary documentation in :func:`.eigs`.
    """
    N = data.shape[0]
    if data.shape[0] != data.shape[1]:
        raise TypeError("Can only diagonalize square matrices")
    if sort not in ('low', 'high'):
        raise ValueError("'sort' must be 'low' or 'high'")
    if eigvals > N:
        raise ValueError("Number of requested eigen vals/vecs must be <= N.")
    eigvals = eigvals or N
    # Let dict raise keyerror of
    low_first = {"low": True, "high": False}[sort]
    isherm = isherm if isherm is not None else jnp.bool(isherm_jaxarray(data))

    evals, evecs = _eigs_jaxarray(data._jxa, isherm, vecs, eigvals, low_first)

    return (evals, JaxArray(evecs, copy=False)) if vecs else evals


# --- driver: ground-state energy of a driven two-level system, jitted over the drive strength --- scaffolding
sz = np.array([[1, 0], [0, -1]], dtype=np.complex64)  # scaffolding
sx = np.array([[0, 1], [1, 0]], dtype=np.complex64)  # scaffolding


@jax.jit  # scaffolding
def ground_energy(g):  # scaffolding
    H = JaxArray(0.5 * sz + g * sx)  # scaffolding
    evals, evecs = eigs_jaxarray(H)  # scaffolding: what qutip.Qobj.eigenenergies dispatches to
    return evals[0].real  # scaffolding


for g in (0.1, 0.2, 0.3, 0.4):  # scaffolding
    e0 = ground_energy(g)  # scaffolding
print(round(float(e0), 4))  # scaffolding: -sqrt(0.25 + g**2)
_report({"jit(ground_energy)"}, 4)  # scaffolding
