# source: https://github.com/tatopenn-cell/Dense-Evolution/pull/265
# expect: none
# runtime: COMPILES 3 CALLS 4
# why: Same vmapped jitted helpers as the positive, but every call has the same sequence length, so the batch shape repeats and the helpers compile once.

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
# --- from dense_evolution/mitigation/healing.py (docstrings and unused helpers trimmed) ---
import numpy as np
import jax
import jax.numpy as jnp
from typing import Tuple

GLOBAL_CONSTANTS = {
    'TARGET_SIGMA_IDEALE': 10.0,
    'THRESHOLD_DELTA_PREEMP': 0.2,
    'SEMANTIC_LEARNING_RATE': 0.05,
    'V_DINAMIC_K_COEFF': 5.0,
    'V_STATIC_K_PRIME_COEFF': 1.0,
    'V_DINAMIC_MIN_EFFECTIVE_VALUE': 0.01,
    'MAX_SEMANTIC_DISTANCE': jnp.sqrt(2.0),
    'WEIGHT_SEMANTIC': 0.6,
    'WEIGHT_COHERENCE': 0.4,
    'NON_STATIC_THRESHOLD_A': 1e-2,
    'DAMPING_BOOST_ON_STASIS': 0.1,
    'EPSILON_DISSIPATION_BASE': 0.01
}

@jax.jit
def calculate_phi_ab(state_A: jnp.ndarray, state_B: jnp.ndarray, ipg_vector: jnp.ndarray) -> jnp.ndarray:
    """Calcola il fattore di allineamento e coerenza spaziale Phi_AB."""
    semantic_change = state_B - state_A
    norm_change = jnp.linalg.norm(semantic_change)
    norm_ipg = jnp.linalg.norm(ipg_vector)

    alignment = jnp.where(
        (norm_change > 1e-12) & (norm_ipg > 1e-12),
        jnp.real(jnp.vdot(semantic_change, ipg_vector)) / (norm_change * norm_ipg),
        0.0
    )
    semantic_alignment = (alignment + 1.0) / 2.0

    distance_A_B = jnp.linalg.norm(state_A - state_B)
    coherence_component = 1.0 - (distance_A_B / GLOBAL_CONSTANTS['MAX_SEMANTIC_DISTANCE'])

    phi_ab = (semantic_alignment * GLOBAL_CONSTANTS['WEIGHT_SEMANTIC']) + (coherence_component * GLOBAL_CONSTANTS['WEIGHT_COHERENCE'])
    return jnp.clip(phi_ab, 0.0, 1.0)

@jax.jit
def calculate_vettore_dinamico(E_A: jnp.ndarray, E_B: jnp.ndarray, Phi_AB: jnp.ndarray) -> jnp.ndarray:
    """Calcola il Vettore Dinamico (V_dinamic) come variazione logaritmica differenziale energetica."""
    valid_inputs = (E_A > 1e-12) & (E_B > 1e-12)
    ratio = jnp.where(valid_inputs, E_B / E_A, 1.0)
    log_ratio_clamped = jnp.clip(jnp.log(ratio), -5.0, 5.0)
    v_vita = GLOBAL_CONSTANTS['V_DINAMIC_K_COEFF'] * log_ratio_clamped * Phi_AB
    return jnp.where(valid_inputs, v_vita, 0.0)

@jax.jit
def evaluate_phi_trigger(deterministic_dq_dt_a: jnp.ndarray) -> Tuple[jnp.ndarray, jnp.ndarray, jnp.ndarray]:
    """Valuta lo stato del Phi-Trigger calcolando i coefficienti di damping condizionati."""
    magnitude_change_a = jnp.abs(deterministic_dq_dt_a)
    trigger_active = magnitude_change_a > GLOBAL_CONSTANTS['NON_STATIC_THRESHOLD_A']

    lambda_step = jnp.where(trigger_active, 0.05, 0.05 + GLOBAL_CONSTANTS['DAMPING_BOOST_ON_STASIS'])
    epsilon_dissip = jnp.where(trigger_active, GLOBAL_CONSTANTS['EPSILON_DISSIPATION_BASE'],
                                GLOBAL_CONSTANTS['EPSILON_DISSIPATION_BASE'] + GLOBAL_CONSTANTS['DAMPING_BOOST_ON_STASIS'])

    return jnp.where(trigger_active, 1.0, 0.0), lambda_step, epsilon_dissip

# --- from tools/ia_utils/vector_healing.py: enhanced_dense_healing_hybrid, 'phi' trigger mode only
# (the trigger_mode argument, the 'adaptive' branch, the import guard and comments are trimmed) ---
def enhanced_dense_healing_hybrid(
    vettori: np.ndarray,
    radius_baseline: int = None,
) -> (np.ndarray, dict):
    n, hidden_dim = vettori.shape

    if n == 0:
        return np.empty((0, hidden_dim)), {'fallback_triggered': False, 'adaptive_radius_used': 0,
                                            'reconstruction_error': 0.0}

    had_nan_or_inf = bool(np.isnan(vettori).any() or np.isinf(vettori).any())

    processed_vettori = np.copy(vettori)
    processed_vettori[np.isinf(processed_vettori)] = np.nan

    all_nan_cols = np.all(np.isnan(processed_vettori), axis=0)
    safe_for_mean = np.where(all_nan_cols, 0.0, processed_vettori)
    col_means = np.nanmean(safe_for_mean, axis=0)
    processed_vettori = np.where(np.isnan(processed_vettori), col_means, processed_vettori)

    out = np.copy(processed_vettori)

    if radius_baseline is None:
        if n < 3:
            adaptive_radius_used = 0
        else:
            adaptive_radius_used = min(20, max(3, n // 3))
    else:
        adaptive_radius_used = radius_baseline

    fallback_triggered_at_all = False
    reconstruction_errors_per_step = []

    if n > 0:
        reconstruction_errors_per_step.append(np.linalg.norm(out[0] - processed_vettori[0]))
    if n > 1:
        reconstruction_errors_per_step.append(np.linalg.norm(out[1] - processed_vettori[1]))

    idx = np.arange(2, n)
    if idx.size:
        radius = adaptive_radius_used
        lo_arr = np.maximum(0, idx - radius)

        prefix_sum = np.concatenate(
            [np.zeros((1, hidden_dim)), np.cumsum(processed_vettori, axis=0)], axis=0
        )
        window_counts = (idx - lo_arr).astype(np.float64)
        baseline_means = (prefix_sum[idx] - prefix_sum[lo_arr]) / window_counts[:, None]

        ipg_raw = processed_vettori[idx - 1] - processed_vettori[idx - 2]
        norm_ipg_raw = np.linalg.norm(ipg_raw, axis=1)
        safe_norm = np.where(norm_ipg_raw > 1e-9, norm_ipg_raw, 1.0)
        ipg_vectors = np.where((norm_ipg_raw > 1e-9)[:, None], ipg_raw / safe_norm[:, None], ipg_raw)

        state_A = jnp.asarray(baseline_means)
        state_B = jnp.asarray(processed_vettori[idx])
        ipg_vector_batch = jnp.asarray(ipg_vectors)

        phi_ab = jax.vmap(calculate_phi_ab)(state_A, state_B, ipg_vector_batch)
        E_A = jnp.linalg.norm(state_A, axis=1)
        E_B = jnp.linalg.norm(state_B, axis=1)
        v_dinamic = jax.vmap(calculate_vettore_dinamico)(E_A, E_B, phi_ab)
        trigger, _, _ = jax.vmap(evaluate_phi_trigger)(v_dinamic)

        is_dynamic_arr = np.asarray(trigger) > GLOBAL_CONSTANTS['NON_STATIC_THRESHOLD_A']

        dynamic_idx = idx[is_dynamic_arr]
        out[dynamic_idx] = processed_vettori[dynamic_idx]

        for i, lo in zip(idx[~is_dynamic_arr], lo_arr[~is_dynamic_arr]):
            out[i] = np.median(processed_vettori[lo:i], axis=0)
            fallback_triggered_at_all = True

        reconstruction_errors_per_step.extend(
            np.linalg.norm(out[idx] - processed_vettori[idx], axis=1).tolist()
        )

    mean_reconstruction_error = np.mean(reconstruction_errors_per_step) if reconstruction_errors_per_step else 0.0

    metadata = {
        'fallback_triggered': fallback_triggered_at_all and had_nan_or_inf,
        'adaptive_radius_used': adaptive_radius_used,
        'reconstruction_error': mean_reconstruction_error,
    }

    return out, metadata


rng = np.random.default_rng(0)  # scaffolding
for n_steps in [200, 200, 200, 200]:  # scaffolding: the same length recurs on every call
    vectors = rng.normal(size=(n_steps, 32))  # scaffolding: hidden_dim=32 as in the author's timing
    healed, metadata = enhanced_dense_healing_hybrid(vectors)  # scaffolding
_report({"jit(calculate_phi_ab)", "jit(calculate_vettore_dinamico)", "jit(evaluate_phi_trigger)"}, 4)  # scaffolding
