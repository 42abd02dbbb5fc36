# source: https://github.com/patemotter/jax-intro/blob/main/09_performance.ipynb
# expect: none
# runtime: COMPILES 3 CALLS 7
# why: variable-length inputs are padded to a few bucket sizes before the jitted call, so seven lengths compile only once per bucket used (3 compiles, 7 calls).
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

BUCKETS = [16, 32, 64, 128]

def pad_to_bucket(x, buckets=BUCKETS):
    """Pad sequence length to the next bucket size."""
    seq_len = x.shape[0]
    target_len = min(b for b in buckets if b >= seq_len)
    pad_amount = target_len - seq_len
    # Create padding configuration for each dimension:
    # - Axis 0 (sequence length): pad 0 at start, pad `pad_amount` at end
    # - All other axes (features): pad 0 at both start and end
    pad_config = [(0, pad_amount)] + [(0, 0)] * (x.ndim - 1)
    return jnp.pad(x, pad_config), seq_len

@jax.jit
def process_bucketed(x, actual_len):
    """Process with masking for padded elements."""
    # Create mask for valid elements
    mask = jnp.arange(x.shape[0]) < actual_len
    # Zero out padded elements
    x = jnp.where(mask[:, None], x, 0.0)
    return jnp.sum(x, axis=0)

# Simulate variable-length inputs
print(f"Buckets: {BUCKETS}")
print(f"\n{'Input len':>10} | {'Padded to':>10} | {'Compilations':>13}")
print("-" * 40)

comp_count = [0]
for length in [5, 12, 20, 30, 7, 25, 100]:
    x = jnp.ones((length, 8))
    x_padded, actual_len = pad_to_bucket(x)
    result = process_bucketed(x_padded, actual_len)
    print(f"{length:>10} | {x_padded.shape[0]:>10} | bucket {x_padded.shape[0]}")

print(f"\nOnly {len(BUCKETS)} unique shapes → at most {len(BUCKETS)} compilations,")
print(f"regardless of how many different input lengths you see.")
_report({"jit(process_bucketed)"}, 7)  # scaffolding
