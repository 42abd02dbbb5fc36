# source: https://github.com/PennyLaneAI/pennylane/pull/6308
# expect: trace-time-error at line 76
# runtime: ERROR TracerBoolConversionError
# why: QutritBasisStatePreparation validates each entry of the basis state with Python membership tests and decomposes with range(state), so building it inside jit from a traced basis state fails.
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
# PennyLaneAI/pennylane PR #6308 ("Make qml.QutritBasisStatePreparation JIT compatible"): pennylane/templates/state_preparations/basis_qutrit.py at 814e991b10^
import numpy as np  # basis_qutrit.py
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding
from types import SimpleNamespace  # scaffolding


class _Op:  # scaffolding: qml.TShift / qml.TRY / qml.TRZ stand-ins that keep their parameters
    def __init__(self, *params, wires=None, subspace=None):
        self.parameters = list(params)
        self.wires = wires


qml = SimpleNamespace(  # scaffolding: qml.math dispatches to jax.numpy for jax inputs
    math=SimpleNamespace(stack=jnp.stack, shape=jnp.shape, is_abstract=lambda x: isinstance(x, jax.core.Tracer)),
    TShift=_Op, TRY=_Op, TRZ=_Op)


class Operation:  # scaffolding: keeps data and wires like pennylane's Operation
    def __init__(self, *params, wires=None, id=None):
        self.data = tuple(params)
        self.wires = wires


class QutritBasisStatePreparation(Operation):
    r"""Prepares a basis state on the given wires using a sequence of TShift gates."""  # docstring cut
    num_params = 1
    grad_method = None

    def __init__(self, basis_state, wires, id=None):
        basis_state = qml.math.stack(basis_state)

        # check if the `basis_state` param is batched
        batched = len(qml.math.shape(basis_state)) > 1

        state_batch = basis_state if batched else [basis_state]

        for i, state in enumerate(state_batch):
            shape = qml.math.shape(state)

            if len(shape) != 1:
                raise ValueError(
                    f"Basis states must be one-dimensional; state {i} has shape {shape}."
                )

            n_bits = shape[0]
            if n_bits != len(wires):
                raise ValueError(
                    f"Basis states must be of length {len(wires)}; state {i} has length {n_bits}."
                )

            if any(bit not in [0, 1, 2] for bit in state):
                raise ValueError(
                    f"Basis states must only consist of 0s, 1s, and 2s; state {i} is {state}"
                )

        # TODO: basis_state should be a hyperparameter, not a trainable parameter.
        # However, this breaks a test that ensures compatibility with batch_transform.
        # The transform should be rewritten to support hyperparameters as well.
        super().__init__(basis_state, wires=wires, id=id)

    @staticmethod
    def compute_decomposition(basis_state, wires):  # pylint: disable=arguments-differ
        r"""Representation of the operator as a product of other operators."""  # docstring cut

        op_list = []
        for wire, state in zip(wires, basis_state):
            for _ in range(0, state):
                op_list.append(qml.TShift(wire))
        return op_list


@jax.jit  # scaffolding: a jitted qutrit circuit taking the basis state as an argument
def prepare(basis_state):  # scaffolding
    op = QutritBasisStatePreparation(basis_state, wires=[0, 1])  # scaffolding
    ops = QutritBasisStatePreparation.compute_decomposition(op.data[0], op.wires)  # scaffolding
    return [p for o in ops for p in o.parameters]  # scaffolding


calls = 0  # scaffolding
try:  # scaffolding
    for s in ([1, 2], [0, 1], [2, 2]):  # scaffolding
        prepare(jnp.array(s))  # scaffolding
        calls += 1  # scaffolding
    _report({"jit(prepare)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
