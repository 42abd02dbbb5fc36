# source: https://github.com/PennyLaneAI/pennylane/pull/6019
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: The PR computes the Givens matrix with qml.math and selects the zero-magnitude special cases with where, so it traces and compiles once.
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
# PennyLaneAI/pennylane PR #6019 ("qml.BasisRotation is not jax compatible"): _givens_matrix (pennylane/qchem/givens_decomposition.py at 1c242a6a3e) under jax.jit
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

    abs_a, abs_b = qml.math.abs(a), qml.math.abs(b)
    interface_a, interface_b = qml.math.get_interface(a), qml.math.get_interface(b)

    if interface_a != interface_b:
        raise TypeError(
            f"The interfaces of 'a' and 'b' do not match. Got {interface_a} and {interface_b}."
        )

    interface = interface_a

    aprod = qml.math.nan_to_num(abs_b * abs_a)
    hypot = qml.math.hypot(abs_a, abs_b)

    cosine = qml.math.where(abs_b < tol, 0.0, abs_b / hypot)
    cosine = qml.math.where(abs_a < tol, 1.0, cosine)

    sine = qml.math.where(abs_b < tol, 1.0, abs_a / hypot)
    sine = qml.math.where(abs_a < tol, 0.0, sine)

    phase = qml.math.where(abs_b < tol, 1.0, (1.0 * b * qml.math.conj(a)) / (aprod + 1e-15))
    phase = qml.math.where(abs_a < tol, 1.0, phase)

    if left:
        return qml.math.array([[phase * cosine, -sine], [phase * sine, cosine]], like=interface)

    return qml.math.array([[phase * sine, cosine], [-phase * cosine, sine]], like=interface)


givens = jax.jit(_givens_matrix)  # scaffolding: BasisRotation decomposes a traced unitary through this helper under jit
calls = 0  # scaffolding
try:  # scaffolding
    for a, b in ((0.3 + 0.1j, 0.5 - 0.2j), (0.6 + 0.0j, 0.1 + 0.4j), (0.2 - 0.3j, 0.7 + 0.1j)):  # scaffolding
        givens(jnp.asarray(a), jnp.asarray(b))  # scaffolding
        calls += 1  # scaffolding
    _report({"jit(_givens_matrix)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
