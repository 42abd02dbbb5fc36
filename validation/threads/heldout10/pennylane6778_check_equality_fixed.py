# source: https://github.com/PennyLaneAI/pennylane/issues/6778
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: The fix from PR #7487: _check_equality compares parameters element by element and, when either is abstract (a tracer), only by identity, so no traced comparison is turned into a bool; the jitted circuit traces and compiles once.

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
import functools
import types

import jax
import jax.numpy as jnp

# --- scaffolding: minimal stand-ins for the pennylane pieces this circuit touches ---
_QUEUE = []  # scaffolding


class Operator:  # scaffolding
    num_params = 0

    def __init__(self, *params, wires=None):
        if wires is None:
            params, wires = params[: self.num_params], params[self.num_params]
        self.data = tuple(params)
        self.wires = tuple(wires) if isinstance(wires, (list, tuple)) else (wires,)
        self.hyperparameters = {}
        self.name = type(self).__name__
        _QUEUE.append(self)

    def matrix(self):
        raise NotImplementedError


class RX(Operator):  # scaffolding
    num_params = 1

    def matrix(self):
        c, s = jnp.cos(self.data[0] / 2), jnp.sin(self.data[0] / 2)
        return jnp.array([[c, -1j * s], [-1j * s, c]])


class Z(Operator):  # scaffolding
    def matrix(self):
        return jnp.array([[1.0, 0.0], [0.0, -1.0]], dtype=jnp.complex64)


class Adjoint:  # scaffolding
    def __init__(self, base):
        _QUEUE.remove(base)
        self.base = base
        self.data = base.data
        self.wires = base.wires
        self.hyperparameters = {"base": base}
        self.name = f"Adjoint({base.name})"
        _QUEUE.append(self)

    def matrix(self):
        return jnp.conj(self.base.matrix()).T


self_inverses = set()  # scaffolding: attribute lookup by name; RX is not self-inverse
symmetric_over_all_wires = set()  # scaffolding
symmetric_over_control_wires = set()  # scaffolding


class Wires:  # scaffolding
    @staticmethod
    def shared_wires(list_of_wires):
        return [w for w in list_of_wires[0] if all(w in ws for ws in list_of_wires[1:])]


def find_next_gate(wires, op_list):  # scaffolding: pennylane.transforms.optimization.optimization_utils
    for idx, op in enumerate(op_list):
        if len(Wires.shared_wires([wires, op.wires])) > 0:
            return idx
    return None


class QuantumScript:  # scaffolding
    def __init__(self, operations, measurements):
        self.operations = operations
        self.measurements = measurements

    def copy(self, operations):
        return QuantumScript(operations, self.measurements)


class _Expval:  # scaffolding
    def __init__(self, obs):
        _QUEUE.remove(obs)
        self.obs = obs


def _execute(tape):  # scaffolding: one-qubit statevector simulator
    state = jnp.array([1.0, 0.0], dtype=jnp.complex64)
    for op in tape.operations:
        state = op.matrix() @ state
    return jnp.real(jnp.conj(state) @ (tape.measurements[0].obs.matrix() @ state))


class _QNode:  # scaffolding
    def __init__(self, qfunc):
        functools.update_wrapper(self, qfunc)
        self.qfunc = qfunc
        self.transforms = []

    def __call__(self, *args):
        _QUEUE.clear()
        m = self.qfunc(*args)
        tape = QuantumScript(list(_QUEUE), [m])
        for t in self.transforms:
            [tape], _ = t(tape)
        return _execute(tape)


def _transform(tape_fn):  # scaffolding: qml.transform applied to a QNode
    def apply(qnode):
        qnode.transforms.append(tape_fn)
        return qnode
    return apply


qml = types.SimpleNamespace(  # scaffolding
    device=lambda name, **kw: name,
    qnode=lambda dev: _QNode,
    RX=RX, Z=Z, adjoint=Adjoint, expval=_Expval,
    transforms=types.SimpleNamespace(),
)
# --- end scaffolding stand-ins ---


def is_abstract(tensor):  # scaffolding: stand-in for pennylane.math.is_abstract
    return isinstance(tensor, jax.core.Tracer)


def _check_equality(items1, items2) -> bool:
    """Checks if two data objects are equal, considering abstractness."""

    for d1, d2 in zip(items1, items2, strict=True):
        if is_abstract(d1) or is_abstract(d2):
            if d1 is not d2:
                return False
        elif d1 != d2:
            return False

    return True


def _ops_equal(op1: Operator, op2: Operator) -> bool:
    """Checks if two operators are equal up to class, data, hyperparameters, and wires"""
    return (
        op1.__class__ is op2.__class__
        and _check_equality(op1.data, op2.data)
        and _check_equality(op1.wires, op2.wires)
        and (op1.hyperparameters == op2.hyperparameters)
    )


def _are_inverses(op1, op2):
    """Checks if two operators are inverses of each other

    Args:
        op1 (~.Operator)
        op2 (~.Operator)

    Returns:
        Bool
    """
    # op1 is self-inverse and the next gate is also op1
    if op1 in self_inverses and op1.name == op2.name:
        return True

    # op1 is an `Adjoint` class and its base is equal to op2
    if isinstance(op1, Adjoint) and _ops_equal(op1.base, op2):
        return True

    # op2 is an `Adjoint` class and its base is equal to op1
    if isinstance(op2, Adjoint) and _ops_equal(op2.base, op1):
        return True

    return False


def cancel_inverses(tape: QuantumScript):
    """Quantum function transform to remove any operations that are applied next to their
    (self-)inverses or adjoint."""
    # Make a working copy of the list to traverse
    list_copy = tape.operations.copy()
    operations = []

    while len(list_copy) > 0:
        current_gate = list_copy[0]
        list_copy.pop(0)

        # Find the next gate that acts on at least one of the same wires
        next_gate_idx = find_next_gate(current_gate.wires, list_copy)

        # If no such gate is found queue the operation and move on
        if next_gate_idx is None:
            operations.append(current_gate)
            continue

        # Otherwise, get the next gate
        next_gate = list_copy[next_gate_idx]

        # If either of the two flags is true, we can potentially cancel the gates
        if _are_inverses(current_gate, next_gate):
            # If the wires are the same, then we can safely remove both
            if current_gate.wires == next_gate.wires:
                list_copy.pop(next_gate_idx)
                continue
            # If wires are not equal, there are two things that can happen.
            # 1. There is not full overlap in the wires; we cannot cancel
            if len(Wires.shared_wires([current_gate.wires, next_gate.wires])) != len(
                current_gate.wires
            ):
                operations.append(current_gate)
                continue

            # 2. There is full overlap, but the wires are in a different order.
            # If the wires are in a different order, gates that are "symmetric"
            # over all wires (e.g., CZ), can be cancelled.
            if current_gate in symmetric_over_all_wires:
                list_copy.pop(next_gate_idx)
                continue
            # For other gates, as long as the control wires are the same, we can still
            # cancel (e.g., the Toffoli gate).
            if current_gate in symmetric_over_control_wires:
                # TODO[David Wierichs]: This assumes single-qubit targets of controlled gates
                if (
                    len(Wires.shared_wires([current_gate.wires[:-1], next_gate.wires[:-1]]))
                    == len(current_gate.wires) - 1
                ):
                    list_copy.pop(next_gate_idx)
                    continue
        # Apply gate any cases where
        # - there is no wire symmetry
        # - the control wire symmetry does not apply because the control wires are not the same
        # - neither of the flags are_self_inverses and are_inverses are true
        operations.append(current_gate)
        continue

    new_tape = tape.copy(operations=operations)

    def null_postprocessing(results):
        """A postprocesing function returned by a transform that only converts the batch of results
        into a result for a single ``QuantumTape``.
        """
        return results[0]

    return [new_tape], null_postprocessing


qml.transforms.cancel_inverses = _transform(cancel_inverses)  # scaffolding


@qml.transforms.cancel_inverses
@qml.qnode(qml.device('default.qubit'))
def circuit(x):
    qml.adjoint(qml.RX(x+0.1, 0))
    qml.RX(x,0)
    return qml.expval(qml.Z(0))

try:  # scaffolding
    jax.jit(circuit)(jax.numpy.array(0.5))
    _report({"jit(circuit)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
