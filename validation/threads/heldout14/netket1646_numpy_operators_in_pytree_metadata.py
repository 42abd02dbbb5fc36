# source: https://github.com/netket/netket/issues/1646
# expect: unhashable-static at line 135
# runtime: ERROR ValueError
# why: PauliStringsJax.tree_flatten puts the numpy array of Pauli strings into the pytree metadata; when a second, equal operator reaches the jitted expect, JAX compares the metadata and the array comparison raises.
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
import types

import numpy as np
import jax
import jax.numpy as jnp
from jax.tree_util import register_pytree_node_class


# scaffolding: netket is not installed. Small stand-ins for the pieces the reproducer touches:
# Chain graph, Qubit hilbert space, an RBM, an exact sampler, MCState.expect (a jitted local
# energy over all basis states), Heisenberg -> PauliStrings -> PauliStringsJax.
class Chain:
    def __init__(self, length, pbc=True):
        self.n_nodes = length
        self.edges = [(i, (i + 1) % length) for i in range(length if pbc else length - 1)]


class Qubit:
    def __init__(self, N):
        self.size = N

    def __hash__(self):
        return hash(("Qubit", self.size))

    def __eq__(self, other):
        return isinstance(other, Qubit) and other.size == self.size

    def all_states(self):
        return jnp.array(np.array(np.unravel_index(np.arange(2**self.size), (2,) * self.size)).T, dtype=jnp.float32)


class RBM:
    def init(self, key, n):
        return {"w": 0.01 * jax.random.normal(key, (n, n)), "b": jnp.zeros(n)}

    def apply(self, params, x):
        return jnp.sum(jnp.log(jnp.cosh(x @ params["w"] + params["b"])), axis=-1)


class ExactSampler:
    def __init__(self, hilbert):
        self.hilbert = hilbert


@jax.jit
def _expect(params, states, O):
    logpsi = RBM().apply(params, states)
    p = jnp.exp(2 * (logpsi - jnp.max(logpsi)))
    p = p / jnp.sum(p)
    return jnp.sum(p * O.diagonal(states))


class MCState:
    def __init__(self, sampler, model):
        self.sampler = sampler
        self.parameters = model.init(jax.random.PRNGKey(0), sampler.hilbert.size)

    def expect(self, O):
        return _expect(self.parameters, self.sampler.hilbert.all_states(), O)


class PauliStrings:
    def __init__(self, hilbert, operators, weights):
        self.hilbert, self.operators, self.weights = hilbert, operators, weights

    def to_jax_operator(self):
        return PauliStringsJax(self.hilbert, self.operators, self.weights)


class Heisenberg:
    def __init__(self, hilbert, graph):
        self.hilbert, self.graph = hilbert, graph

    def to_pauli_strings(self):
        ops, w = [], []
        for i, j in self.graph.edges:
            for p in "XYZ":
                s = ["I"] * self.hilbert.size
                s[i] = s[j] = p
                ops.append("".join(s))
                w.append(1.0)
        return PauliStrings(self.hilbert, np.array(ops), np.array(w))


@register_pytree_node_class
class PauliStringsJax:
    def __init__(self, hilbert, operators, weights, dtype=jnp.float32):
        self.hilbert = hilbert
        self.operators = operators
        self.weights = jnp.asarray(weights, dtype=dtype)
        self.dtype = dtype
        self._z_data = jnp.asarray([[c == "Z" for c in s] for s in operators], dtype=dtype)
        self._x_flip_masks_stacked = jnp.asarray([[c in "XY" for c in s] for s in operators], dtype=dtype)

    def _setup(self):  # scaffolding
        pass

    def diagonal(self, states):  # scaffolding: the diagonal (ZZ) part of the local energy only
        spins = 1 - 2 * states
        zz = jnp.where(jnp.sum(self._z_data, 1) == 2, jnp.prod(jnp.where(self._z_data[None] > 0, spins[:, None, :], 1.0), -1), 0.0)
        return zz @ self.weights

    def tree_flatten(self):
        self._setup()
        data = (self.weights, self._x_flip_masks_stacked, self._z_data)
        metadata = {
            "hilbert": self.hilbert,
            "operators": self.operators,
            "dtype": self.dtype,
        }
        return data, metadata

    @classmethod
    def tree_unflatten(cls, metadata, data):
        (weights, xm, zd) = data
        hi = metadata["hilbert"]
        operators = metadata["operators"]
        dtype = metadata["dtype"]

        op = cls(hi, operators, weights, dtype=dtype)
        op._x_flip_masks_stacked = xm
        op._z_data = zd
        op._initialized = True
        return op


nk = types.SimpleNamespace(  # scaffolding
    graph=types.SimpleNamespace(Chain=Chain),
    hilbert=types.SimpleNamespace(Qubit=Qubit),
    models=types.SimpleNamespace(RBM=RBM),
    sampler=types.SimpleNamespace(ExactSampler=ExactSampler),
    vqs=types.SimpleNamespace(MCState=MCState),
    operator=types.SimpleNamespace(Heisenberg=Heisenberg),
)

# Define the Hilbert space
graph = nk.graph.Chain(4, pbc=True)
hi = nk.hilbert.Qubit(graph.n_nodes)

# Define the model
ma = nk.models.RBM()

# Define the MC variational state
sampler = nk.sampler.ExactSampler(hi)
vs = nk.vqs.MCState(sampler, ma)

# Define the Hamiltonian

hamiltonian = nk.operator.Heisenberg(hi, graph)
hamiltonian_pauli2 = hamiltonian.to_pauli_strings()
hamiltonian_pauli1 = hamiltonian.to_pauli_strings()
hamiltonian_jax2 = hamiltonian_pauli2.to_jax_operator()
hamiltonian_jax1 = hamiltonian_pauli1.to_jax_operator()

try:  # scaffolding
    vs.expect(hamiltonian_jax1)
    vs.expect(hamiltonian_jax2)
    _report({"jit(_expect)"}, 2)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
