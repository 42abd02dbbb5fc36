# source: https://github.com/tobyLovick/blackjax_ns_gw/blob/e20a1b6bd819d4fc4fcf299435c825a82405a6ca/src/blackjax_injections.py
# expect: jit-in-loop-or-body at line 87
# runtime: COMPILES 3 CALLS 9
# why: The script's loop over injections re-defines @jax.jit interpolate_psd (and the other jitted prior/likelihood functions) in its body, so every injection gets a new function object and recompiles, although shapes and code are the same.

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
import os
import json
import types  # scaffolding

import jax
import jax.numpy as jnp
import numpy as np

# scaffolding: jimgw's H1, L1, V1 detector objects, ripple/blackjax/astropy imports and the on-disk
# injections are replaced by stand-ins; only the loop over injections and its PSD set-up are kept
H1, L1, V1 = (types.SimpleNamespace(name=n) for n in ("H1", "L1", "V1"))  # scaffolding
asd_paths = {"H1": None, "L1": None, "V1": None}  # scaffolding
rng = np.random.RandomState(0)  # scaffolding
selected_dirs = ["injection_95", "injection_96", "injection_97"]  # scaffolding: injection_dirs[95:100]
n_calls = 0  # scaffolding

for i, injection_dir in enumerate(selected_dirs):
    print(f"\n=== Processing {injection_dir} ===")

    # Load detector data as JAX arrays for this injection
    detector_data = {  # scaffolding: np.load(...) of the injection's .npy files
        'frequencies': jnp.linspace(0.0, 2048.0, 8193),
        'H1': jnp.array(rng.randn(8193)),
        'L1': jnp.array(rng.randn(8193)),
        'V1': jnp.array(rng.randn(8193)),
    }

    print(f"Loaded detector data as JAX arrays")

    # Configure detector frequency range
    freq_range = {'min': 20.0, 'max': 1024.0}

    freq_mask = (detector_data['frequencies'] >= freq_range['min']) & (detector_data['frequencies'] <= freq_range['max'])
    filtered_frequencies = detector_data['frequencies'][freq_mask]

    # Configure detectors
    detectors = [H1, L1, V1]
    detector_names = ['H1', 'L1', 'V1']

    for det, name in zip(detectors, detector_names):
        det.frequencies = filtered_frequencies  
        det.data = detector_data[name][freq_mask]

    print(f"Configured {len(detectors)} detectors with {len(filtered_frequencies)} frequency points")

    # Load PSD data for all detectors
    def load_psd_data(asd_paths):
        psd_data = {}
        for name, path in asd_paths.items():
            f_np, asd_vals_np = np.linspace(10.0, 2048.0, 2000), np.full(2000, 1e-23)  # scaffolding: np.loadtxt(path, unpack=True)
            psd_data[name] = {
                'frequencies': jnp.array(f_np),
                'psd': jnp.array(asd_vals_np**2)
            }
        return psd_data

    psd_data = load_psd_data(asd_paths)

    @jax.jit
    def interpolate_psd(det_frequencies, psd_frequencies, psd_values):
        return jnp.interp(det_frequencies, psd_frequencies, psd_values)

    # Configure detector PSDs
    for det in detectors:
        det.psd = interpolate_psd(
            det.frequencies,
            psd_data[det.name]['frequencies'],
            psd_data[det.name]['psd']
        )
        n_calls += 1  # scaffolding

    print(f"Configured PSDs for {len(detectors)} detectors")
    # scaffolding: the rest of the loop body (priors, jitted likelihood, nested-sampling run, plots) is cut

_report({"jit(interpolate_psd)"}, n_calls)  # scaffolding
