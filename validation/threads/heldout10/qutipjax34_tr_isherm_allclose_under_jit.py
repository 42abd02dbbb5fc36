# source: https://github.com/qutip/qutip-jax/issues/34
# expect: trace-time-error at line 76
# runtime: ERROR TracerBoolConversionError
# why: Qobj.tr() decides whether to return the real part by testing self.isherm, and for a JAX array isherm is computed with jnp.allclose on the matrix; inside a jitted function the matrix is traced, so the Python `and`/conditional expression converts a traced boolean and tracing raises.

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
import types
from functools import partial

import jax
import jax.numpy as np
from jax import jit
import jax.numpy as jnp


@partial(jit, static_argnames=["tol"])
def _isherm(matrix, tol):
    return jnp.allclose(matrix, matrix.T.conj(), atol=tol, rtol=0)


def _isherm_jaxarray(matrix, tol=None):  # scaffolding: qutip_jax isherm specialisation, reduced
    if matrix.shape[0] != matrix.shape[1]:
        return False
    return _isherm(matrix, tol or 1e-12)


_data = types.SimpleNamespace(isherm=_isherm_jaxarray, trace=jnp.trace)  # scaffolding


class Qobj:  # scaffolding: reduced to data, isherm and tr
    def __init__(self, arg):
        self._data = jnp.asarray(arg)
        self._isherm = None

    @property
    def isherm(self):
        if self._isherm is not None:
            return self._isherm
        self._isherm = _data.isherm(self._data)
        return self._isherm

    def tr(self):
        """Trace of a quantum object.

        Returns
        -------
        trace : float
            Returns the trace of the quantum object.

        """
        out = _data.trace(self._data)
        # This ensures that trace can return something that is not a number such
        # as a `tensorflow.Tensor` in qutip-tensorflow.
        return out.real if (self.isherm
                        and hasattr(out, "real")
                        ) else out


qutip = types.SimpleNamespace(Qobj=Qobj, settings=types.SimpleNamespace(core={}))  # scaffolding

qutip.settings.core["default_dtype"] = "jax"
@jax.jit
def tmp(a):
    m = qutip.Qobj(np.array([[1., a], [np.conjugate(a), 1.]]))
    return m.tr()

try:  # scaffolding
    tmp(1.-1.j)
    _report({"jit(tmp)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
