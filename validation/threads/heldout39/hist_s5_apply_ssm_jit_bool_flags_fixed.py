# source: https://github.com/lindermanlab/S5/commit/18ead57d040159e61f0ffc5f5112837243b2d562
# expect: none
# runtime: COMPILES 0 CALLS 4
# why: The commit returns _apply_ssm un-jitted ('jitting this function breaks the bidirectional argument'); the flags stay Python bools and it runs (no jit of its own, so 0 compiles of jit(_apply_ssm)).

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
import jax  # scaffolding
from functools import partial
import jax.numpy as np

from dataclasses import dataclass
from typing import Callable, Optional


# scaffolding: s5/utils/quantization.py imports aqt; with precision None its helpers return these
def q_dot_maybe(precision: Optional[int]):  # scaffolding
    return np.dot  # scaffolding: the precision-None branch of the repo's q_dot_maybe


def q_had_maybe(precision: Optional[int]):  # scaffolding
    return np.multiply  # scaffolding: the precision-None branch of the repo's q_had_maybe


@dataclass
class QuantizationConfig:
    """Quantization configuration for S5.

    Attributes:
        a_precision: integer precision for A matrix operations.
        b_precision: integer precision for B matrix operations.
        c_precision: integer precision for C matrix operations.
        d_precision: integer precision for D matrix operations.
    """
    a_precision: Optional[int]
    b_precision: Optional[int]
    c_precision: Optional[int]
    d_precision: Optional[int]


@dataclass
class QuantizedOperations:
    """(Possibly quantized) operations for S5."""
    a_dot: Callable
    a_had: Callable
    b_dot: Callable
    c_dot: Callable
    d_had: Callable

    def __init__(self, q_config: QuantizationConfig):
        self.a_dot = q_dot_maybe(q_config.a_precision)
        self.a_had = q_had_maybe(q_config.a_precision)
        self.b_dot = q_dot_maybe(q_config.b_precision)
        self.c_dot = q_dot_maybe(q_config.c_precision)
        self.d_had = q_had_maybe(q_config.d_precision)


# Parallel scan operations
def quant_binary_operator(q_i, q_j, qdot_fn, qhad_fn):
    """ Binary operator for parallel scan of linear recurrence. Assumes a diagonal matrix A.
        Args:
            q_i: tuple containing A_i and Bu_i at position i       (P,), (P,)
            q_j: tuple containing A_j and Bu_j at position j       (P,), (P,)
        Returns:
            new element ( A_out, Bu_out )
    """
    A_i, b_i = q_i
    A_j, b_j = q_j

    def qadd_fn(x, y):
        """Add two quantized vectors, using the quantized dot function."""
        return qdot_fn(np.array([x, y]), np.ones((2,)))

    # return A_j * A_i, A_j * b_i + b_j
    # Bu_out = qadd_fn(qhad_fn(A_j, b_i), b_j)
    Bu_out = qhad_fn(A_j, b_i) + b_j  # TODO: work out if this is okay
    return qhad_fn(A_j, A_i), Bu_out


def build_apply_ssm(q_ops: QuantizedOperations) -> Callable:

    q_bin_op = jax.vmap(partial(quant_binary_operator, qdot_fn=q_ops.a_dot, qhad_fn=q_ops.a_had))

    def _apply_ssm(Lambda_bar, B_bar, C_tilde, input_sequence, conj_sym, bidirectional):
        """ Compute the LxH output of discretized SSM given an LxH input.
            Args:
                Lambda_bar (complex64): discretized diagonal state matrix    (P,)
                B_bar      (complex64): discretized input matrix             (P, H)
                C_tilde    (complex64): output matrix                        (H, P)
                input_sequence (float32): input sequence of features         (L, H)
                conj_sym (bool):         whether conjugate symmetry is enforced
                bidirectional (bool):    whether bidirectional setup is used,
                                      Note for this case C_tilde will have 2P cols
            Returns:
                ys (float32): the SSM outputs (S5 layer preactivations)      (L, H)
        """
        Lambda_elements = Lambda_bar * np.ones((input_sequence.shape[0],
                                                Lambda_bar.shape[0]))
        Bu_elements = jax.vmap(lambda u: q_ops.b_dot(B_bar, u))(input_sequence)

        _, xs = jax.lax.associative_scan(q_bin_op, (Lambda_elements, Bu_elements))

        if bidirectional:
            _, xs2 = jax.lax.associative_scan(q_bin_op,
                                              (Lambda_elements, Bu_elements),
                                              reverse=True)
            xs = np.concatenate((xs, xs2), axis=-1)

        if conj_sym:
            return jax.vmap(lambda x: 2*q_ops.c_dot(C_tilde, x).real)(xs)
        else:
            return jax.vmap(lambda x: q_ops.c_dot(C_tilde, x).real)(xs)

    return _apply_ssm  # NOTE: jitting this function breaks the bidirectional argument


# --- usage as in qS5SSM.setup / __call__ (self.apply_ssm(..., self.conj_sym, self.bidirectional)) ---
import numpy as onp  # scaffolding

H, P, L = 4, 8, 16  # scaffolding: small layer
rng = onp.random.default_rng(0)  # scaffolding
Lambda_bar = np.asarray(rng.uniform(0.5, 0.9, P) + 1j * rng.uniform(-0.1, 0.1, P)).astype(np.complex64)  # scaffolding
B_bar = np.asarray(rng.normal(size=(P, H)) + 0j).astype(np.complex64)  # scaffolding
C_tilde = np.asarray(rng.normal(size=(H, P)) + 0j).astype(np.complex64)  # scaffolding
q_ops = QuantizedOperations(QuantizationConfig(None, None, None, None))  # scaffolding: no quantization
apply_ssm = build_apply_ssm(q_ops)  # as in qS5SSM.setup
conj_sym, bidirectional = True, False  # scaffolding: the module's defaults
calls = 0  # scaffolding
try:  # scaffolding
    for step in range(4):  # scaffolding: four training batches
        input_sequence = np.asarray(rng.normal(size=(L, H)), dtype=np.float32)  # scaffolding
        ys = apply_ssm(Lambda_bar, B_bar, C_tilde, input_sequence, conj_sym, bidirectional)
        calls += 1  # scaffolding
    _report({"jit(_apply_ssm)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
