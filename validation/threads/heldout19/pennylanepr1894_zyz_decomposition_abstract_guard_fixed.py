# source: https://github.com/PennyLaneAI/pennylane/pull/1894
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: The merged PR drops the unitarity and det checks, computes the angles branch-free with arcsin/arctan2, and keeps the diagonal shortcut only when math.is_abstract(U) is false, so the jitted decomposition compiles once.
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
# PennyLaneAI/pennylane PR #1894: _convert_to_su2 and zyz_decomposition after the PR (pennylane/transforms/decompositions/single_qubit_unitary.py at d201dd52)
import numpy as np
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding
from types import SimpleNamespace  # scaffolding

jax.config.update("jax_enable_x64", True)  # scaffolding: as the PR's jit test does

# scaffolding: pennylane.math dispatches to jax.numpy for jax inputs; these stand-ins do the same
math = SimpleNamespace(
    allclose=jnp.allclose, dot=jnp.dot, T=lambda x: x.T, conj=jnp.conj, eye=jnp.eye,
    cast_like=lambda x, like: jnp.asarray(x).astype(jnp.result_type(like)), angle=jnp.angle,
    exp=jnp.exp, abs=jnp.abs, arccos=jnp.arccos, sqrt=jnp.sqrt, tan=jnp.tan, log=jnp.log,
    real=jnp.real, imag=jnp.imag, clip=jnp.clip, arcsin=jnp.arcsin, arctan2=jnp.arctan2,
    is_abstract=lambda x: isinstance(x, jax.core.Tracer),
)


class _Op:  # scaffolding: qml.RZ / qml.Rot stand-ins that keep their parameters
    def __init__(self, *params, wires):
        self.parameters = list(params)
        self.wires = wires


qml = SimpleNamespace(RZ=_Op, Rot=_Op)  # scaffolding


def _convert_to_su2(U):
    r"""Convert a 2x2 unitary matrix to :math:`SU(2)`.

    Args:
        U (array[complex]): A matrix, presumed to be :math:`2 \times 2` and unitary.

    Returns:
        array[complex]: A :math:`2 \times 2` matrix in :math:`SU(2)` that is
        equivalent to U up to a global phase.
    """
    # Compute the determinant
    det = U[0, 0] * U[1, 1] - U[0, 1] * U[1, 0]

    exp_angle = -1j * math.cast_like(math.angle(det), 1j) / 2
    return U * math.exp(exp_angle)


def zyz_decomposition(U, wire):
    r"""Recover the decomposition of a single-qubit matrix :math:`U` in terms of
    elementary operations.
    """
    U = _convert_to_su2(U)

    # If the value of U is not abstract, we can include a conditional statement
    # that will check if the off-diagonal elements are 0; if so, just use one RZ
    if not math.is_abstract(U):
        if math.allclose(U[0, 1], 0.0):
            return [qml.RZ(2 * math.angle(U[1, 1]), wires=wire)]

    # Derive theta from the off-diagonal element. Clip to ensure valid arcsin input
    element = math.clip(math.abs(U[0, 1]), 0, 1)
    theta = 2 * math.arcsin(element)

    # Compute phi and omega from the angles of the top row; use atan2 to keep
    # the angle within -np.pi and np.pi, and add very small values to avoid the
    # undefined case of 0/0. We add a smaller value to the imaginary part than
    # the real part because it is imag / real in the definition of atan2.
    angle_U00 = math.arctan2(math.imag(U[0, 0]) + 1e-128, math.real(U[0, 0]) + 1e-64)
    angle_U10 = math.arctan2(math.imag(U[1, 0]) + 1e-128, math.real(U[1, 0]) + 1e-64)

    phi = -angle_U10 - angle_U00
    omega = angle_U10 - angle_U00

    return [qml.Rot(phi, theta, omega, wires=wire)]



@jax.jit  # scaffolding: the PR's jit integration test compiles a circuit whose unitary is traced
def decompose(U):  # scaffolding
    op = zyz_decomposition(U, 0)[0]  # scaffolding
    return jnp.stack([jnp.real(p) for p in op.parameters])  # scaffolding


U = jnp.array([  # from the docstring example
    [-0.28829348 - 0.78829734j, 0.30364367 + 0.45085995j],
    [0.53396245 - 0.10177564j, 0.76279558 - 0.35024096j]
])
calls = 0  # scaffolding
try:  # scaffolding
    for _ in range(3):  # scaffolding
        decompose(U)  # scaffolding
        calls += 1  # scaffolding
    _report({"jit(decompose)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
