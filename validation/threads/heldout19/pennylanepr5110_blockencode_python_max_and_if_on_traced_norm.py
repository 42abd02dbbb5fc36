# source: https://github.com/PennyLaneAI/pennylane/pull/5110
# expect: trace-time-error at line 59
# runtime: ERROR TracerBoolConversionError
# why: BlockEncode.__init__ normalises A with Python max() and a Python conditional on the traced norm, so constructing the operator inside jit fails.
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
# PennyLaneAI/pennylane PR #5110: BlockEncode.__init__ (pennylane/ops/qubit/matrix_ops.py at 7fd7796e1d^) constructed inside jax.jit, as in the PR's new test
import numpy as pnp  # scaffolding: pennylane.numpy stand-in
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding
from types import SimpleNamespace  # scaffolding

jax.config.update("jax_enable_x64", True)  # scaffolding
qml = SimpleNamespace(math=SimpleNamespace(  # scaffolding: qml.math dispatches to jax.numpy for jax inputs
    shape=jnp.shape, reshape=jnp.reshape, transpose=jnp.transpose, conj=jnp.conj,
    array=jnp.asarray, abs=jnp.abs, maximum=jnp.maximum, ones_like=jnp.ones_like))
norm = jnp.linalg.norm  # scaffolding: qml.math.norm
Wires = list  # scaffolding


class Operation:  # scaffolding: keeps data and hyperparameters like pennylane's Operation
    def __init__(self, *params, wires=None, id=None):
        self.data = tuple(params)
        self.wires = wires
        self.hyperparameters = {}


class BlockEncode(Operation):
    """Construct an operator which block encodes a given matrix A."""  # docstring cut

    def __init__(self, A, wires, id=None):
        shape_a = qml.math.shape(A)
        if shape_a == () or all(x == 1 for x in shape_a):
            A = qml.math.reshape(A, [1, 1])

        wires = Wires(wires)
        if pnp.sum(shape_a) <= 2:
            normalization = A if A > 1 else 1
            subspace = (1, 1, 2 ** len(wires))
        else:
            normalization = max(
                norm(A @ qml.math.transpose(qml.math.conj(A)), ord=pnp.inf),
                norm(qml.math.transpose(qml.math.conj(A)) @ A, ord=pnp.inf),
            )
            subspace = (*shape_a, 2 ** len(wires))

        A = qml.math.array(A) / normalization if normalization > 1 else A

        if subspace[2] < (subspace[0] + subspace[1]):
            raise ValueError(
                f"Block encoding a ({subspace[0]} x {subspace[1]}) matrix "
                f"requires a Hilbert space of size at least "
                f"({subspace[0] + subspace[1]} x {subspace[0] + subspace[1]})."
                f" Cannot be embedded in a {len(wires)} qubit system."
            )

        super().__init__(A, wires=wires, id=id)
        self.hyperparameters["norm"] = normalization
        self.hyperparameters["subspace"] = subspace


wires = [0, 1]  # scaffolding: the test's wires for a 2x2 input


@jax.jit
def f(A):
    op = BlockEncode(A, wires)
    return op.data[0], op.hyperparameters["norm"]  # scaffolding: the test returns qml.matrix(op); here the normalised block and its norm


calls = 0  # scaffolding
try:  # scaffolding
    for s in (0.1, 0.2, 0.3):  # scaffolding
        f(jnp.array([[s, 0.2], [0.3, 0.4]]))  # scaffolding
        calls += 1  # scaffolding
    _report({"jit(f)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
