# source: https://github.com/PennyLaneAI/pennylane/pull/6019
# expect: trace-time-error at line 39
# runtime: ERROR TracerArrayConversionError
# why: _givens_matrix (used by qml.BasisRotation's decomposition) takes np.abs of its inputs and branches in Python on the magnitudes, so it cannot be traced under jit.
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
# PennyLaneAI/pennylane PR #6019 ("qml.BasisRotation is not jax compatible"): _givens_matrix (pennylane/qchem/givens_decomposition.py at 1c242a6a3e^) under jax.jit
import numpy as np  # givens_decomposition.py (before the PR)
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding
from types import SimpleNamespace  # scaffolding

jax.config.update("jax_enable_x64", True)  # scaffolding
qml = SimpleNamespace(math=SimpleNamespace(  # scaffolding: qml.math dispatches to jax.numpy for jax inputs
    abs=jnp.abs, get_interface=lambda x: "jax", nan_to_num=jnp.nan_to_num, hypot=jnp.hypot,
    where=jnp.where, conj=jnp.conj, array=lambda x, like=None: jnp.array(x)))


def _givens_matrix(a, b, left=True, tol=1e-8):
    r"""Build a :math:`2 \times 2` Givens rotation matrix :math:`G`."""  # docstring cut
    abs_a, abs_b = np.abs(a), np.abs(b)
    if abs_a < tol:
        cosine, sine, phase = 1.0, 0.0, 1.0
    elif abs_b < tol:
        cosine, sine, phase = 0.0, 1.0, 1.0
    else:
        hypot = np.hypot(abs_a, abs_b)
        cosine = abs_b / hypot
        sine = abs_a / hypot
        phase = 1.0 * b / abs_b * a.conjugate() / abs_a

    if left:
        return np.array([[phase * cosine, -sine], [phase * sine, cosine]])

    return np.array([[phase * sine, cosine], [-phase * cosine, sine]])


givens = jax.jit(_givens_matrix)  # scaffolding: BasisRotation decomposes a traced unitary through this helper under jit
calls = 0  # scaffolding
try:  # scaffolding
    for a, b in ((0.3 + 0.1j, 0.5 - 0.2j), (0.6 + 0.0j, 0.1 + 0.4j), (0.2 - 0.3j, 0.7 + 0.1j)):  # scaffolding
        givens(jnp.asarray(a), jnp.asarray(b))  # scaffolding
        calls += 1  # scaffolding
    _report({"jit(_givens_matrix)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
