# source: https://github.com/Astera-org/simplexity/commit/3c1303232aa03573dff8b9381353a68425233d66
# expect: trace-time-error at line 99
# runtime: ERROR ConcretizationTypeError
# why: Built without vocab_sizes, SequentialConditional falls back to int() on context.vocab_sizes, which is a tracer inside the eqx.filter_jit observation_probability_distribution, so the first call raises.
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


from dataclasses import dataclass
from typing import Literal

import equinox as eqx
import jax
import jax.numpy as jnp

ComponentType = Literal["hmm", "ghmm"]
FactoredState = tuple[jax.Array, ...]


@dataclass
class ConditionalContext:  # simplexity/generative_processes/structures/protocol.py, as in the repo
    states: FactoredState
    component_types: tuple[ComponentType, ...]
    transition_matrices: tuple[jax.Array, ...]
    normalizing_eigenvectors: tuple[jax.Array, ...]
    vocab_sizes: jax.Array
    num_variants: tuple[int, ...]


def compute_obs_dist_for_variant(component_type, state, transition_matrix, normalizing_eigenvector=None):  # utils/factoring_utils.py, hmm branch only (scaffolding)
    obs_state = state @ transition_matrix  # [V, S]
    return jnp.sum(obs_state, axis=1)  # [V]


class SequentialConditional(eqx.Module):
    control_maps: tuple[jax.Array | None, ...]
    vocab_sizes_py: tuple[int, ...] | None

    def __init__(
        self,
        control_maps: tuple[jax.Array | None, ...],
        vocab_sizes: jax.Array,
    ):
        self.control_maps = tuple(control_maps)
        self.vocab_sizes_py = tuple(int(v) for v in vocab_sizes) if vocab_sizes is not None else None

    def compute_joint_distribution(self, context: ConditionalContext) -> jax.Array:
        num_factors = len(context.vocab_sizes)
        states = context.states
        component_types = context.component_types
        transition_matrices = context.transition_matrices
        normalizing_eigenvectors = context.normalizing_eigenvectors
        num_variants = context.num_variants

        # Root distribution (factor 0, variant 0)
        transition_matrix_root = transition_matrices[0][0]  # [V_0, S_0, S_0]
        norm_root = normalizing_eigenvectors[0][0] if component_types[0] == "ghmm" else None
        p_root = compute_obs_dist_for_variant(component_types[0], states[0], transition_matrix_root, norm_root)  # [V_0]
        joint = p_root

        # Iteratively extend with conditional factors
        for i in range(1, num_factors):
            num_var_i = num_variants[i]
            ks = jnp.arange(num_var_i, dtype=jnp.int32)

            def get_dist_i(k: jax.Array, i: int = i) -> jax.Array:
                transition_matrix_k = transition_matrices[i][k]
                norm_k = normalizing_eigenvectors[i][k] if component_types[i] == "ghmm" else None
                return compute_obs_dist_for_variant(component_types[i], states[i], transition_matrix_k, norm_k)

            all_pi = jax.vmap(get_dist_i)(ks)  # [K_i, V_i]

            cm = self.control_maps[i]  # [V_{i-1}]
            cond = all_pi[cm]  # [V_{i-1}, V_i]

            # Use precomputed Python ints for reshape (JIT-compatible)
            if self.vocab_sizes_py is not None:
                prev_vocab_size = self.vocab_sizes_py[i - 1]
                curr_vocab_size = self.vocab_sizes_py[i]
            else:
                prev_vocab_size = int(context.vocab_sizes[i - 1])
                curr_vocab_size = int(context.vocab_sizes[i])
            left = joint.reshape(-1, prev_vocab_size)  # [P, V_{i-1}]
            extended = left[..., None] * cond[None, ...]  # [P, V_{i-1}, V_i]
            joint = extended.reshape(joint.shape + (curr_vocab_size,))

        return joint.reshape(-1)


class FactoredGenerativeProcess(eqx.Module):  # scaffolding: cut-down factored_generative_process.py
    component_types: tuple
    transition_matrices: tuple
    normalizing_eigenvectors: tuple
    structure: SequentialConditional
    vocab_sizes: jax.Array
    num_variants: tuple

    def _make_context(self, state: FactoredState) -> ConditionalContext:
        return ConditionalContext(
            states=state,
            component_types=self.component_types,
            transition_matrices=self.transition_matrices,
            normalizing_eigenvectors=self.normalizing_eigenvectors,
            vocab_sizes=self.vocab_sizes,
            num_variants=self.num_variants,
        )

    @eqx.filter_jit
    def observation_probability_distribution(self, state: FactoredState) -> jax.Array:
        context = self._make_context(state)
        return self.structure.compute_joint_distribution(context)


# scaffolding: two HMM factors (K=1 and K=2 variants, V=2 and V=3 tokens, S=2 states)
T0 = jnp.ones((1, 2, 2, 2)) / 4.0
T1 = jnp.ones((2, 3, 2, 2)) / 6.0
vocab_sizes = jnp.array([2, 3])
structure = SequentialConditional(control_maps=(None, jnp.array([0, 1])), vocab_sizes=None)  # vocab_sizes is optional before the commit
process = FactoredGenerativeProcess(("hmm", "hmm"), (T0, T1), (jnp.ones((1, 2)), jnp.ones((2, 2))), structure, vocab_sizes, (1, 2))
state = (jnp.array([0.5, 0.5]), jnp.array([0.5, 0.5]))
calls = 0  # scaffolding
try:  # scaffolding
    for _ in range(3):  # scaffolding
        probs = process.observation_probability_distribution(state)
        calls += 1  # scaffolding
    _report({"jit(observation_probability_distribution)"}, calls)  # scaffolding
except jax.errors.ConcretizationTypeError as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
