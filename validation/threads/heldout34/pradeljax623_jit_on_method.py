# source: https://github.com/chrischizinski/pradel-jax/commit/623f29c063d966925526e9cfa5755f0d47b995bf
# expect: trace-time-error at line 56
# runtime: ERROR TypeError
# why: OptimizedPradelModel decorates the method _vectorized_log_likelihood with a bare @jax.jit, so the model instance self becomes the first traced argument; a plain Python object is not a valid JAX type and the call raises TypeError (the commit notes the override 'crashed' and removes it).

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
import jax
import jax.numpy as jnp
import numpy as np
from typing import Dict, List, Optional, Tuple, Any


def inv_logit(x: jnp.ndarray) -> jnp.ndarray:  # (pradel_jax/models/pradel.py)
    return jax.nn.sigmoid(x)


def exp_link(x: jnp.ndarray) -> jnp.ndarray:  # (pradel_jax/models/pradel.py)
    return jnp.exp(x)


class PradelModel:  # scaffolding: stand-in for pradel_jax.models.PradelModel
    def _split_parameters(self, parameters, design_matrices):
        return {"phi": parameters[0:1], "p": parameters[1:2], "f": parameters[2:3]}


class OptimizedPradelModel(PradelModel):
    """
    Performance-optimized Pradel model with vectorized likelihood computation.

    Eliminates O(n²) scaling by removing Python loops and using pure JAX operations.
    Expected performance improvement: 100-1000x for large datasets.
    """

    @jax.jit
    def _vectorized_log_likelihood(
        self,
        phi: jnp.ndarray,
        p: jnp.ndarray,
        f: jnp.ndarray,
        capture_matrix: jnp.ndarray,
    ) -> float:
        """
        Fully vectorized log-likelihood computation using JAX.

        Processes all individuals and occasions simultaneously using broadcasting.
        No Python loops - pure JAX vectorized operations.
        """
        n_individuals, n_occasions = capture_matrix.shape

        # Vectorized capture probabilities for all individuals and occasions
        # Shape: (n_individuals, n_occasions-1)
        capture_probs = jnp.broadcast_to(
            phi[:, None], (n_individuals, n_occasions - 1)
        ) * jnp.broadcast_to(p[:, None], (n_individuals, n_occasions - 1))

        # Get captures at consecutive time points
        # Shape: (n_individuals, n_occasions-1)
        captures_t = capture_matrix[:, :-1]  # Captures at time t
        captures_t1 = capture_matrix[:, 1:]  # Captures at time t+1

        # Vectorized likelihood contributions for recapture events
        # Use broadcasting for all individuals and occasions simultaneously
        log_recapture = jnp.log(
            capture_probs + 1e-10
        )  # Add small epsilon for numerical stability
        log_no_recapture = jnp.log(1 - capture_probs + 1e-10)

        # Vectorized conditional logic using jnp.where
        # Only contribute to likelihood when captured at time t
        recapture_contributions = jnp.where(
            captures_t == 1,
            jnp.where(captures_t1 == 1, log_recapture, log_no_recapture),
            0.0,
        )

        # Sum contributions across occasions for each individual
        individual_recapture_loglik = jnp.sum(recapture_contributions, axis=1)

        # First capture contributions - vectorized across all individuals
        was_captured = jnp.sum(capture_matrix, axis=1) > 0
        first_capture_loglik = jnp.where(was_captured, jnp.log(p + 1e-10), 0.0)

        # Total log-likelihood for each individual
        individual_loglik = individual_recapture_loglik + first_capture_loglik

        # Sum across all individuals
        return jnp.sum(individual_loglik)

    def log_likelihood(
        self,
        parameters: jnp.ndarray,
        data_context,
        design_matrices,
    ) -> float:
        """
        Optimized log-likelihood computation with vectorized operations.
        """
        # Split parameters by type
        param_split = self._split_parameters(parameters, design_matrices)

        # Get design matrices
        X_phi = design_matrices["phi"].matrix
        X_p = design_matrices["p"].matrix
        X_f = design_matrices["f"].matrix

        # Calculate linear predictors using efficient matrix operations
        eta_phi = X_phi @ param_split["phi"]
        eta_p = X_p @ param_split["p"]
        eta_f = X_f @ param_split["f"]

        # Apply link functions
        phi = inv_logit(eta_phi)  # Survival probability (0-1)
        p = inv_logit(eta_p)  # Detection probability (0-1)
        f = exp_link(eta_f)  # Recruitment rate (positive)

        # Get capture matrix
        capture_matrix = data_context.capture_matrix

        # Use vectorized likelihood computation
        return self._vectorized_log_likelihood(phi, p, f, capture_matrix)


# scaffolding: stand-in data (intercept-only design matrices, random capture histories)
class _DM:  # scaffolding
    def __init__(self, m):
        self.matrix = m


class _Ctx:  # scaffolding
    def __init__(self, c):
        self.capture_matrix = c


rng = np.random.default_rng(0)  # scaffolding
n_ind, n_occ = 50, 7  # scaffolding
ctx = _Ctx(jnp.asarray(rng.integers(0, 2, size=(n_ind, n_occ)), dtype=jnp.float32))  # scaffolding
dms = {k: _DM(jnp.ones((n_ind, 1))) for k in ("phi", "p", "f")}  # scaffolding
model = OptimizedPradelModel()  # scaffolding
try:  # scaffolding
    for params in (jnp.array([0.2, 0.5, -1.0]), jnp.array([0.3, 0.4, -1.2])):  # scaffolding
        model.log_likelihood(params, ctx, dms)
    _report({"jit(_vectorized_log_likelihood)"}, 2)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
