# source: https://github.com/PennyLaneAI/pennylane/pull/1894
# expect: trace-time-error at line 63
# runtime: ERROR TracerBoolConversionError
# why: zyz_decomposition (via _convert_to_su2) branches in Python on math.allclose of the traced unitary, so jitting a function that decomposes a traced matrix fails at the first check.
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
# PennyLaneAI/pennylane PR #1894: _convert_to_su2 and zyz_decomposition before the PR (pennylane/transforms/decompositions/single_qubit_unitary.py at d201dd52^)
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
    r"""Check unitarity of a matrix and convert it to :math:`SU(2)` if possible.

    Args:
        U (array[complex]): A matrix, presumed to be :math:`2 \times 2` and unitary.

    Returns:
        array[complex]: A :math:`2 \times 2` matrix in :math:`SU(2)` that is
        equivalent to U up to a global phase.
    """
    # Check unitarity
    if not math.allclose(math.dot(U, math.T(math.conj(U))), math.eye(2), atol=1e-7):
        raise ValueError("Operator must be unitary.")

    # Compute the determinant
    det = U[0, 0] * U[1, 1] - U[0, 1] * U[1, 0]

    # Convert to SU(2) if it's not close to 1
    if not math.allclose(det, [1.0]):
        exp_angle = -1j * math.cast_like(math.angle(det), 1j) / 2
        U = math.cast_like(U, exp_angle) * math.exp(exp_angle)

    return U


def zyz_decomposition(U, wire):
    r"""Recover the decomposition of a single-qubit matrix :math:`U` in terms of
    elementary operations.
    """
    U = _convert_to_su2(U)

    # Check if the matrix is diagonal; only need to check one corner.
    # If it is diagonal, we don't need a full Rot, just return an RZ.
    if math.allclose(U[0, 1], [0.0]):
        omega = 2 * math.angle(U[1, 1])
        return [qml.RZ(omega, wires=wire)]

    # If the top left element is 0, can only use the off-diagonal elements. We
    # have to be very careful with the math here to ensure things that get
    # multiplied together are of the correct type in the different interfaces.
    if math.allclose(U[0, 0], [0.0]):
        phi = 0.0
        theta = -np.pi
        omega = 1j * math.log(U[0, 1] / U[1, 0]) - np.pi
    else:
        # If not diagonal, compute the angle of the RY
        cos2_theta_over_2 = math.abs(U[0, 0] * U[1, 1])
        theta = 2 * math.arccos(math.sqrt(cos2_theta_over_2))

        el_division = U[0, 0] / U[1, 0]
        tan_part = math.cast_like(math.tan(theta / 2), el_division)
        omega = 1j * math.log(tan_part * el_division)
        phi = -omega - math.cast_like(2 * math.angle(U[0, 0]), omega)

    return [qml.Rot(math.real(phi), math.real(theta), math.real(omega), wires=wire)]



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
