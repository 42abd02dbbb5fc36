# source: https://github.com/HNXJ/jaxfne/commit/5bcba751e7f363f24355b67b60221d368e040e0c
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: the commit keeps the finiteness flag as a JAX array (finite_flag = jnp.all(jnp.isfinite(source))) instead of bool(), so compile_mode_b traces and compiles once; the traced flag only sits in the discarded report.
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



# ===== jaxfne/fields.py (jaxfne @ 5bcba75): construct_source_tensor =====
from typing import Any  # scaffolding: fields.py's imports
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding
from types import SimpleNamespace  # scaffolding


def construct_source_tensor(
    *,
    mode: str,
    total_membrane_current: jax.Array | None = None,
    decomposed_cap_ion: jax.Array | None = None,
    synaptic_current: jax.Array | None = None,
    spike_proxy: jax.Array | None = None,
    scale: float = 1.0,
) -> tuple[jax.Array, dict[str, Any]]:
    """Construct a source tensor with source bookkeeping validation."""
    if mode == "total_membrane_current_proxy":
        if total_membrane_current is None:
            raise ValueError(
                "total_membrane_current is required for total_membrane_current_proxy"
            )
        if synaptic_current is not None:
            raise ValueError(
                "Double-counting detected: total_membrane_current_proxy already includes synaptic_current"
            )
        source = jnp.asarray(total_membrane_current) * jnp.asarray(
            scale, dtype=jnp.asarray(total_membrane_current).dtype
        )
        source_mode = "total_membrane_current_proxy"
    elif mode == "decomposed_cap_ion_plus_synaptic_proxy":
        if decomposed_cap_ion is None or synaptic_current is None:
            raise ValueError(
                "decomposed_cap_ion_plus_synaptic_proxy requires both decomposed_cap_ion and synaptic_current"
            )
        cap_ion = jnp.asarray(decomposed_cap_ion)
        syn = jnp.asarray(synaptic_current)
        source = (cap_ion + syn) * jnp.asarray(scale, dtype=cap_ion.dtype)
        source_mode = "decomposed_cap_ion_plus_synaptic_proxy"
    elif mode == "spike_proxy":
        if spike_proxy is None:
            raise ValueError("spike_proxy is required for spike_proxy")
        source = jnp.asarray(spike_proxy) * jnp.asarray(
            scale, dtype=jnp.asarray(spike_proxy).dtype
        )
        source_mode = "spike_proxy"
    elif mode == "invalid_double_count_mode":
        raise ValueError(
            "Double-counting detected: total_membrane_current_proxy + synaptic_current_proxy"
        )
    else:
        raise NotImplementedError(f"TODO: implement construct_source_tensor mode {mode!r}")

    # Compute finite check in a JIT-compatible way
    finite_flag = jnp.all(jnp.isfinite(source))
    report = {
        "source_mode": source_mode,
        "mode": source_mode,
        "source_shape": list(source.shape),
        "source_calibration_status": "uncalibrated_spike_only"
        if source_mode == "spike_proxy"
        else "toy_scale_A_per_reduced_not_empirical",
        "source_projection_mode": "proxy_no_field_solve",
        "source_decomposition": source_mode,
        "double_count_guard": "passed",
        "physical_amplitude_claim_allowed": False,
        "finite": finite_flag,  # JAX array, JIT-compatible
    }
    return source, report


# ===== tests/test_source_bookkeeping.py (jaxfne @ 5bcba75, unchanged since ffbbad4) =====
import numpy as np  # scaffolding: the test module's imports

jtfne = SimpleNamespace(construct_source_tensor=construct_source_tensor)  # scaffolding: stands for `import jaxfne as jtfne`


def test_source_construction_jit():
    """Verify that construct_source_tensor compiles under JIT when inputs are JAX arrays."""
    cap_ion = jnp.array([1.0, 2.0], dtype=jnp.float32)
    synaptic = jnp.array([0.5, 0.5], dtype=jnp.float32)
    
    @jax.jit
    def compile_mode_b(ci, syn):
        # We pass static string argument mode
        source, _ = jtfne.construct_source_tensor(
            mode="decomposed_cap_ion_plus_synaptic_proxy",
            total_membrane_current=jnp.zeros_like(ci),
            decomposed_cap_ion=ci,
            synaptic_current=syn
        )
        return source
        
    source = compile_mode_b(cap_ion, synaptic)
    assert np.allclose(source, cap_ion + synaptic)


try:  # scaffolding
    test_source_construction_jit()  # scaffolding: pytest runs it once
    _report({"jit(compile_mode_b)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
