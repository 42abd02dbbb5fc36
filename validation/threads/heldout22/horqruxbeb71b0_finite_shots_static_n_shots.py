# source: https://github.com/pasqal-io/horqrux/commit/beb71b0086d080f39c2ac96fb678cbbc3fb08eb9
# expect: trace-time-error at line 84
# runtime: ERROR NotImplementedError
# why: With n_shots static the jitted finite_shots still raises NotImplementedError on jax 0.10.2, because singledispatch does not match the tracer to the overload registered for jax.Array.
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
from dataclasses import dataclass, field
from functools import singledispatch
from typing import Any, Iterable, Union

import jax
import jax.numpy as jnp
from jax import Array
from jax.experimental import checkify


# scaffolding: minimal stand-ins for horqrux's primitives, observables and state helpers (one qubit)
@jax.tree_util.register_dataclass
@dataclass
class Primitive:
    param: str = field(metadata=dict(static=True))

    def unitary(self, values):
        theta = values[self.param]
        c, s = jnp.cos(theta / 2), jnp.sin(theta / 2)
        return jnp.array([[c, -1j * s], [-1j * s, c]])


@jax.tree_util.register_dataclass
@dataclass
class Observable:
    qubit_support: tuple = field(metadata=dict(static=True))

    def tensor(self, values):
        return jnp.array([[1.0, 0.0], [0.0, -1.0]], dtype=jnp.complex64)


class DensityMatrix:
    array: Array


State = Array


def apply_gates(state, gates, values):
    for g in gates:
        state = g.unitary(values) @ state
    return state


def num_qubits(state):
    return state.ndim


def expand_operator(operator, qubit_support, full_support):
    return operator


@singledispatch
def eigen_probabilities(state: Any, eigvecs: Array) -> Array:
    raise NotImplementedError(
        f"eigen_probabilities is not implemented for the state type {type(state)}."
    )


@eigen_probabilities.register
def _(state: Array, eigvecs: Array) -> Array:
    inner_prod = jnp.matmul(jnp.conjugate(eigvecs.T), state.flatten())
    return jnp.abs(inner_prod) ** 2


def eigen_sample(
    state: State,
    observables: list[Observable],
    values: dict[str, float],
    n_qubits: int,
    n_shots: int,
    key: Any = jax.random.PRNGKey(0),
) -> Array:
    qubits = tuple(range(n_qubits))
    d = 2**n_qubits
    mat_obs = list(
        map(
            lambda observable: expand_operator(
                observable.tensor(values), observable.qubit_support, qubits
            ).reshape((d, d)),
            observables,
        )
    )
    eigs = jax.vmap(jnp.linalg.eigh)(jnp.stack(mat_obs))
    eigvecs, eigvals = align_eigenvectors(eigs.eigenvalues, eigs.eigenvectors)
    probs = eigen_probabilities(state, eigvecs)
    return jax.random.choice(key=key, a=eigvals, p=probs, shape=(n_shots,)).mean(axis=0)


@jax.vmap
def validate_permutation_matrix(P: Array) -> Array:
    rows = P.sum(axis=0)
    columns = P.sum(axis=1)
    ones = jnp.ones(P.shape[0], dtype=rows.dtype)
    return ((ones == rows) & (ones == columns)).min()


def checkify_valid_permutation(P: Array) -> None:
    checkify.check(
        jnp.all(validate_permutation_matrix(P)),
        "Did not calculate valid permutation matrix",
    )


def align_eigenvectors(eigenvalues: Array, eigenvectors: Array) -> tuple[Array, Array]:
    eigenvector = eigenvectors[0]
    P = jax.vmap(lambda mat: permutation_matrix(mat, eigenvector))(eigenvectors)
    checkify.checkify(checkify_valid_permutation)(P)
    aligned_eigenvalues = jax.vmap(jnp.dot)(eigenvalues, P).T
    return eigenvector, aligned_eigenvalues


def permutation_matrix(mat: Array, eigenvector_matrix: Array) -> Array:
    return (jnp.linalg.inv(mat) @ eigenvector_matrix).real > 0.5


def finite_shots(
    state: State,
    gates: Union[Primitive, Iterable[Primitive]],
    observables: list[Observable],
    values: dict[str, float],
    n_shots: int = 100,
    key: Any = jax.random.PRNGKey(0),
) -> Array:
    output_gates = apply_gates(state, gates, values)
    n_qubits = num_qubits(output_gates)
    if isinstance(state, DensityMatrix):
        d = 2**n_qubits
        output_gates.array = output_gates.array.reshape((d, d))
    return eigen_sample(output_gates, observables, values, n_qubits, n_shots, key)


jitted_finite_shots = jax.jit(finite_shots, static_argnums=(4,))


state = jnp.array([1.0, 0.0], dtype=jnp.complex64)  # scaffolding: |0>, RX(theta), <Z>
gates = [Primitive("theta")]
observables = [Observable((0,))]
try:  # scaffolding
    for k in range(3):  # scaffolding: the up/down shifted evaluations of the GPSR backward pass
        values = {"theta": jnp.float32(0.3 + 0.1 * k)}
        key = jax.random.PRNGKey(k)
        f = jitted_finite_shots(state, gates, observables, values, 100, key)
    _report({"jit(finite_shots)"}, 3)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
