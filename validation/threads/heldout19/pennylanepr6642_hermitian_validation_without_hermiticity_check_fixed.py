# source: https://github.com/PennyLaneAI/pennylane/pull/6642
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: The PR removes the hermiticity check, so _validate_input only inspects static shapes and the jitted matrix computation compiles once.
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
# PennyLaneAI/pennylane PR #6642: qml.Hermitian's input validation (pennylane/ops/qubit/observables.py at c5fd5bcaf8) reached from a jitted matrix computation
from collections.abc import Sequence  # observables.py
from typing import Optional  # observables.py

import numpy as np  # observables.py
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding
from types import SimpleNamespace  # scaffolding

TensorLike = WiresLike = object  # scaffolding
qml = SimpleNamespace(math=SimpleNamespace(  # scaffolding: qml.math dispatches to jax.numpy for jax inputs
    is_abstract=lambda x: isinstance(x, jax.core.Tracer), allclose=jnp.allclose, T=lambda x: x.T,
    conj=jnp.conj, asarray=jnp.asarray))


class Observable:  # scaffolding: keeps data and wires like pennylane's Observable
    def __init__(self, *params, wires=None, id=None):
        self.data = tuple(params)
        self.wires = wires


class Hermitian(Observable):
    """An arbitrary Hermitian observable."""  # docstring and class attributes cut
    _num_basis_states = 2

    def __init__(self, A: TensorLike, wires: WiresLike, id: Optional[str] = None):
        A = np.array(A) if isinstance(A, list) else A
        if not qml.math.is_abstract(A):
            if isinstance(wires, Sequence) and not isinstance(wires, str):
                if len(wires) == 0:
                    raise ValueError(
                        "Hermitian: wrong number of wires. At least one wire has to be given."
                    )
                expected_mx_shape = self._num_basis_states ** len(wires)
            else:
                # Assumably wires is an int; further validation checks are performed by calling super().__init__
                expected_mx_shape = self._num_basis_states

            Hermitian._validate_input(A, expected_mx_shape)

        super().__init__(A, wires=wires, id=id)

    @staticmethod
    def _validate_input(A: TensorLike, expected_mx_shape: Optional[int] = None):
        """Validate the input matrix."""
        if len(A.shape) != 2 or A.shape[0] != A.shape[1]:
            raise ValueError("Observable must be a square matrix.")

        if expected_mx_shape is not None and A.shape[0] != expected_mx_shape:
            raise ValueError(
                f"Expected input matrix to have shape {expected_mx_shape}x{expected_mx_shape}, but "
                f"a matrix with shape {A.shape[0]}x{A.shape[0]} was passed."
            )

    @staticmethod
    def compute_matrix(A: TensorLike) -> TensorLike:  # pylint: disable=arguments-differ
        r"""Representation of the operator as a canonical matrix in the computational basis (static method).

        The canonical matrix is the textbook matrix representation that does not consider wires.
        Implicitly, this assumes that the wires of the operator correspond to the global wire order.

        .. seealso:: :meth:`~.Hermitian.matrix`

        Args:
            A (tensor_like): hermitian matrix

        Returns:
            tensor_like: canonical matrix

        **Example**

        >>> A = np.array([[6+0j, 1-2j],[1+2j, -1]])
        >>> qml.Hermitian.compute_matrix(A)
        [[ 6.+0.j  1.-2.j]
         [ 1.+2.j -1.+0.j]]
        """
        A = qml.math.asarray(A)
        Hermitian._validate_input(A)
        return A



@jax.jit  # scaffolding: qml.matrix(qml.Hermitian(A, wires=0)) inside a jitted function reaches compute_matrix
def f(A):  # scaffolding
    op = Hermitian(A, wires=0)  # scaffolding
    return Hermitian.compute_matrix(*op.data)  # scaffolding


calls = 0  # scaffolding
try:  # scaffolding
    for b in (1.0, 2.0, 3.0):  # scaffolding
        f(jnp.array([[6.0 + 0j, b - 2j], [b + 2j, -1.0]]))  # scaffolding: the docstring's matrix with varying entries
        calls += 1  # scaffolding
    _report({"jit(f)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
