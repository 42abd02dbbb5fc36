# source: https://github.com/TomGeorge1234/SIMPL/commit/71215fff6c07bf78a7b2bc47ada1fbbe907c824f
# expect: none
# runtime: COMPILES 0 CALLS 8
# why: The commit converts the modes to NumPy for the per-trial loop and returns jnp arrays at the end, so no JAX op is compiled per trial length.

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
import jax.numpy as jnp
import numpy as np


class SIMPL:  # scaffolding: only the static helper of the SIMPL class
    # src/simpl/simpl.py (docstring left out)
    @staticmethod
    def _per_trial_initial_states(mode_l, trial_slices):
        T, D = mode_l.shape
        # Convert to numpy for the loop to avoid JAX tracing overhead
        mode_np = np.array(mode_l)
        mu0_all = np.zeros((T, D))
        sigma0_all = np.zeros((T, D, D))
        for trial_slice in trial_slices:
            modes = mode_np[trial_slice]
            mu = modes.mean(axis=0)
            sigma = (1 / len(modes)) * ((modes - mu).T @ (modes - mu))
            mu0_all[trial_slice.start] = mu
            sigma0_all[trial_slice.start] = sigma
        return jnp.array(mu0_all), jnp.array(sigma0_all)


T, D = 600, 2  # scaffolding: 8 trials of different lengths, as recorded sessions have
trial_boundaries = np.array([0, 40, 95, 160, 230, 300, 380, 470])
trial_slices = [slice(trial_boundaries[i], trial_boundaries[i + 1]) for i in range(len(trial_boundaries) - 1)]
trial_slices.append(slice(trial_boundaries[-1], T))
mode_l = jax.random.normal(jax.random.PRNGKey(0), (T, D))
_COMPILED.clear()  # scaffolding: count only what the helper compiles
mu0_all, sigma0_all = SIMPL._per_trial_initial_states(mode_l, trial_slices)
_report({"jit(_mean)", "jit(dynamic_slice)", "jit(matmul)", "jit(subtract)", "jit(transpose)", "jit(multiply)", "jit(scatter)", "jit(_squeeze)", "jit(broadcast_in_dim)", "jit(convert_element_type)"}, len(trial_slices))
