# source: https://github.com/tatopenn-cell/Dense-Evolution/pull/265
# expect: none
# runtime: COMPILES 3 CALLS 4
# why: The per-index loop calls the same jitted helpers on fixed (hidden_dim,) vectors and scalars, so they compile once and are reused for every sequence length.

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

    window_sum = np.sum(processed_vettori[max(0, 2 - adaptive_radius_used):2], axis=0)
    window_lo = max(0, 2 - adaptive_radius_used)

    for i in range(2, n):
        lo = max(0, i - adaptive_radius_used)
        if i > 2:
            window_sum = window_sum + processed_vettori[i - 1]
            for dropped_idx in range(window_lo, lo):
                window_sum = window_sum - processed_vettori[dropped_idx]
            window_lo = lo
        baseline_mean = window_sum / (i - lo)

        state_A = jnp.array(baseline_mean)
        state_B = jnp.array(processed_vettori[i])

        ipg_raw = processed_vettori[i-1] - processed_vettori[i-2]
        norm_ipg_raw = np.linalg.norm(ipg_raw)
        ipg_vector = jnp.array(ipg_raw / norm_ipg_raw) if norm_ipg_raw > 1e-9 else jnp.array(ipg_raw)

        phi_ab = calculate_phi_ab(state_A, state_B, ipg_vector)
        E_A = jnp.linalg.norm(state_A)
        E_B = jnp.linalg.norm(state_B)

        v_dinamic = calculate_vettore_dinamico(E_A, E_B, phi_ab)
        trigger, _, _ = evaluate_phi_trigger(v_dinamic)

        is_dynamic = float(trigger) > GLOBAL_CONSTANTS['NON_STATIC_THRESHOLD_A']

        if is_dynamic:
            healed_vector = processed_vettori[i]
        else:
            healed_vector = np.median(processed_vettori[lo:i], axis=0)
            fallback_triggered_at_all = True

        out[i] = healed_vector
        reconstruction_errors_per_step.append(np.linalg.norm(out[i] - processed_vettori[i]))

    mean_reconstruction_error = np.mean(reconstruction_errors_per_step) if reconstruction_errors_per_step else 0.0

    metadata = {
        'fallback_triggered': fallback_triggered_at_all and had_nan_or_inf,
        'adaptive_radius_used': adaptive_radius_used,
        'reconstruction_error': mean_reconstruction_error,
    }

    return out, metadata


rng = np.random.default_rng(0)  # scaffolding
for n_steps in [50, 200, 1200, 300]:  # scaffolding: a new sequence length on almost every call, as in the MCP tool's calls
    vectors = rng.normal(size=(n_steps, 32))  # scaffolding: hidden_dim=32 as in the author's timing
    healed, metadata = enhanced_dense_healing_hybrid(vectors)  # scaffolding
_report({"jit(calculate_phi_ab)", "jit(calculate_vettore_dinamico)", "jit(evaluate_phi_trigger)"}, 4)  # scaffolding
