# source: https://github.com/infer-actively/pymdp/commit/8fcc2c508b1c1e8007231e04538d590d6904fe6a
# expect: trace-time-error at line 53
# runtime: ERROR ConcretizationTypeError
# why: _mi_from_pA accumulates the mutual information with float(jnp.sum(...)) (and the gate takes float(Pa[0]), float(Pa[1])), so once the training step that calls _mi_gated_update is jitted, float() of a traced value raises ConcretizationTypeError.

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


import jax
import numpy as np
from jax import numpy as jnp

import equinox as eqx


class Agent(eqx.Module):  # scaffolding: pymdp.agent.Agent cut to the two fields the update touches
    A: list
    pA: list


# examples/renormalising_generative_models/hierarchy.py (before the commit; docstrings cut)
def _mi_from_pA(pA_list: list[jnp.ndarray]) -> float:
    total_mi = 0.0
    for A_m in pA_list:
        # A_m shape: (n_patches, n_obs, n_states)
        totals = A_m.sum(axis=(1, 2), keepdims=True)  # (n_patches, 1, 1)
        A_norm = A_m / jnp.clip(totals, 1e-16, None)  # (n_patches, n_obs, n_states)
        log_A = jnp.log(jnp.clip(A_norm, 1e-16, None))
        joint = jnp.sum(A_norm * log_A, axis=(1, 2))  # (n_patches,)
        p_s = A_norm.sum(axis=1)  # (n_patches, n_states)
        p_o = A_norm.sum(axis=2)  # (n_patches, n_obs)
        h_s = jnp.sum(p_s * jnp.log(jnp.clip(p_s, 1e-16, None)), axis=1)
        h_o = jnp.sum(p_o * jnp.log(jnp.clip(p_o, 1e-16, None)), axis=1)
        total_mi += float(jnp.sum(joint - h_s - h_o))
    return total_mi


def _mi_gated_update(
    agent_prior: Agent,
    agent_posterior: Agent,
    beta: float = 512.0,
    eta: float = 512.0,
) -> Agent:
    pa = agent_prior.pA
    qa = agent_posterior.pA

    mi_pa = _mi_from_pA(pa)
    mi_qa = _mi_from_pA(qa)

    # Softmax gate
    mi_arr = jnp.array([mi_pa, mi_qa]) * beta
    Pa = jnp.exp(mi_arr - mi_arr.max())
    Pa = Pa / Pa.sum()
    Pa0, Pa1 = float(Pa[0]), float(Pa[1])

    # Gated asymptotic blend
    scale = eta / (eta + Pa1)
    pA_new = [(Pa0 * pa_m + Pa1 * qa_m) * scale for pa_m, qa_m in zip(pa, qa)]

    # Recompute A: normalize along obs axis (axis 1)
    A_new = [pa_m / pa_m.sum(axis=1, keepdims=True) for pa_m in pA_new]

    return eqx.tree_at(lambda x: (x.A, x.pA), agent_posterior, (A_new, pA_new))


# scaffolding: the MI-gated update inside the jitted training step, for two observed examples
def random_pA(key, n_patches=4, n_obs=5, n_states=3, n_mod=2):
    return [jax.random.uniform(k, (n_patches, n_obs, n_states)) + 0.1 for k in jax.random.split(key, n_mod)]


@jax.jit
def train_step(agent_prior, agent_posterior):
    return _mi_gated_update(agent_prior, agent_posterior)


calls = 0
try:  # scaffolding
    for seed in (0, 1):
        pa, qa = random_pA(jax.random.PRNGKey(seed)), random_pA(jax.random.PRNGKey(seed + 10))
        prior = Agent(A=[p / p.sum(axis=1, keepdims=True) for p in pa], pA=pa)
        posterior = Agent(A=[q / q.sum(axis=1, keepdims=True) for q in qa], pA=qa)
        new_agent = train_step(prior, posterior)
        calls += 1
    _report({"jit(train_step)"}, calls)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
