# source: https://github.com/qutip/qutip-jax/pull/52
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: With PR #52 eigs_jaxarray is jitted with its options static and picks eigh/eig (or eigvalsh/eigvals) with lax.cond on jnp.bool_(isherm), so the jitted trace distance compiles once for three pairs of states.
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


# qutip-jax at bd4f704 (PR #52 merged), flattened: src/qutip_jax/jaxarray.py (JaxArray),
# properties.py (isherm_jaxarray) and linalg.py (eigs_jaxarray); qutip itself is not installed
import numbers
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax import config, jit, lax, tree_util


class qutip:  # scaffolding: stand-in for the qutip package (only settings.core["atol"] is read)
    class settings:  # scaffolding
        core = {"atol": 1e-12}  # scaffolding: qutip's default atol


class Data:  # scaffolding: stand-in for qutip.core.data.base.Data (stores the shape)
    def __init__(self, shape):  # scaffolding
        self.shape = shape  # scaffolding


# --- src/qutip_jax/jaxarray.py ---
config.update("jax_enable_x64", True)


class JaxArray(Data):
    _jxa: jnp.ndarray
    shape: tuple

    def __init__(self, data, shape=None, copy=None):
        jxa = jnp.array(data, dtype=jnp.complex128)

        if shape is None:
            shape = data.shape
            if len(shape) == 0:
                shape = (1, 1)
            if len(shape) == 1:
                shape = (shape[0], 1)
        if not (
            isinstance(shape, tuple)
            and len(shape) == 2
            and isinstance(shape[0], numbers.Integral)
            and isinstance(shape[1], numbers.Integral)
            and shape[0] > 0
            and shape[1] > 0
        ):
            raise ValueError(
                """Shape must be a 2-tuple of positive ints, but is """
                + repr(shape)
            )
        if np.prod(shape) != np.prod(data.shape):
            raise ValueError("Shape of data does not match argument.")

        self._jxa = jxa.reshape(shape)
        Data.__init__(self, shape)

    def copy(self):
        return self.__class__(self._jxa, copy=True)

    def to_array(self):
        return np.array(self._jxa)

    def conj(self):
        return self.__class__(self._jxa.conj())

    def transpose(self):
        return self.__class__(self._jxa.T)

    def adjoint(self):
        return self.__class__(self._jxa.T.conj())

    def trace(self):
        return jnp.trace(self._jxa)

    def __add__(self, other):
        if isinstance(other, JaxArray):
            out = self._jxa + other._jxa
            return JaxArray._fast_constructor(out, out.shape)
        return NotImplemented

    def __sub__(self, other):
        if isinstance(other, JaxArray):
            out = self._jxa - other._jxa
            return JaxArray._fast_constructor(out, out.shape)
        return NotImplemented

    def __matmul__(self, other):
        if isinstance(other, JaxArray):
            out = self._jxa @ other._jxa
            return JaxArray._fast_constructor(out, out.shape)
        return NotImplemented

    @classmethod
    @partial(jit, static_argnames=["cls", "shape"])
    def _fast_constructor(cls, array, shape):
        out = cls.__new__(cls)
        Data.__init__(out, shape)
        out._jxa = array
        return out

    def _tree_flatten(self):
        children = (self._jxa,)  # arrays / dynamic values
        aux_data = {}  # static values
        return (children, aux_data)

    @classmethod
    def _tree_unflatten(cls, aux_data, children):
        # unflatten should not check data validity
        # jax can pass tracer, object, etc.
        out = cls.__new__(cls)
        out._jxa = children[0]
        shape = getattr(out._jxa, "shape", (1,1))
        Data.__init__(out, shape)
        return out


tree_util.register_pytree_node(
    JaxArray, JaxArray._tree_flatten, JaxArray._tree_unflatten
)


# --- src/qutip_jax/properties.py ---
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


# --- src/qutip_jax/linalg.py ---
def herm_with_vecs(data):
    evals, evecs = jnp.linalg.eigh(data)
    evals, evecs = evals.astype(data.dtype), evecs.astype(data.dtype)
    return evals, evecs

def nonherm_with_vecs(data):
    evals, evecs = jnp.linalg.eig(data)
    evals, evecs = evals.astype(data.dtype), evecs.astype(data.dtype)
    return evals, evecs

def herm_no_vecs(data):
    evals = jnp.linalg.eigvalsh(data)
    evals = evals.astype(data.dtype)
    return evals, None

def nonherm_no_vecs(data):
    evals = jnp.linalg.eigvals(data)
    evals = evals.astype(data.dtype)
    return evals, None


@partial(jit, static_argnums=[1, 2, 3, 4])
def eigs_jaxarray(data, isherm=None, vecs=True, sort='low', eigvals=0):
    """
    Return eigenvalues and eigenvectors for a `Data` of type `"jax"`. Takes no
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
    low_first = {"low": True, "high": False}[sort]
    isherm = isherm if isherm is not None else jnp.bool_(isherm_jaxarray(data))

    if vecs:
        evals, evecs = lax.cond(
            isherm, herm_with_vecs,
            nonherm_with_vecs, data._jxa
        )
    else:
        evals, evecs = lax.cond(
            isherm, herm_no_vecs,
            nonherm_no_vecs, data._jxa
        )
    
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

    return (evals, JaxArray(evecs, copy=False)) if vecs else evals


# --- user code: the trace distance of qutip.core.metrics.tracedist on the "jax" data layer, under jax.jit ---
@jax.jit  # scaffolding: PR #52's aim was 'trace_dist works with jax.jit'
def tracedist(A, B):  # scaffolding: tracedist's steps (diff = A - B; diff.dag() * diff; sqrt of the eigenenergies)
    diff = A - B  # scaffolding
    diff = diff.adjoint() @ diff  # scaffolding
    vals = eigs_jaxarray(diff, vecs=False)  # scaffolding: Qobj.eigenenergies() -> _data.eigs(..., vecs=False), isherm left to the data layer
    return 0.5 * jnp.sum(jnp.sqrt(jnp.abs(vals)))  # scaffolding


def rand_dm(key, n):  # scaffolding: random density matrix as a JaxArray
    x = jax.random.normal(key, (n, n)) + 1j * jax.random.normal(jax.random.fold_in(key, 1), (n, n))  # scaffolding
    rho = x @ x.conj().T  # scaffolding
    return JaxArray(rho / jnp.trace(rho))  # scaffolding


try:  # scaffolding
    for seed in range(3):  # scaffolding: three pairs of 4x4 states
        A = rand_dm(jax.random.PRNGKey(2 * seed), 4)  # scaffolding
        B = rand_dm(jax.random.PRNGKey(2 * seed + 1), 4)  # scaffolding
        d = tracedist(A, B)  # scaffolding
    print(float(d))  # scaffolding
    _report({"jit(tracedist)"}, 3)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
