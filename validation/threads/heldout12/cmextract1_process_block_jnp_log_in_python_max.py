# source: https://github.com/google-research/cryptanalytic-model-extraction/issues/1
# expect: trace-time-error at line 52
# runtime: ERROR TracerBoolConversionError
# why: inside the jitted process_block, jnp.log(ratios.shape[1]) is a traced value (jax >= 0.2 stages every jnp call), so Python's max(MIN_SAME_SIZE, ...) has to convert a tracer to bool and tracing fails; the extraction only worked with JAX_DISABLE_JIT=1.

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
import random

import jax
import jax.numpy as jnp
import numpy as np

# src/global_vars.py (the constants process_block reads)
BLOCK_ERROR_TOL = 1e-3
BLOCK_MULTIPLY_FACTOR = 2
MIN_SAME_SIZE = 4 # this is most likely what should be changed


# src/layer_recovery.py
@jax.jit
def process_block(ratios, other_ratios):
    """
    Let jax efficiently compute pairwise similarity by blocking things.
    """
    differences = jnp.abs(ratios[:,jnp.newaxis,:] - other_ratios[jnp.newaxis,:,:])
    differences = differences / jnp.abs(ratios[:,jnp.newaxis,:]) + differences / jnp.abs(other_ratios[jnp.newaxis,:,:])

    close = differences < BLOCK_ERROR_TOL * jnp.log(ratios.shape[1])

    pairings = jnp.sum(close, axis=2) >= max(MIN_SAME_SIZE,BLOCK_MULTIPLY_FACTOR*(jnp.log(ratios.shape[1])-2))

    return pairings


# graph_solve, step 2 (all-pairs similarity of the ratios), trimmed to the process_block calls
rs = np.random.RandomState(0)  # scaffolding
all_ratios = rs.rand(60, 16) + 0.5  # scaffolding: 60 recovered ratio vectors of a 16-wide layer
all_ratios_f32 = np.array(all_ratios, dtype=np.float32)
ratios_group = [all_ratios_f32[i:i+1000] for i in range(0,len(all_ratios),1000)]
random.seed(0)  # scaffolding
calls = 0  # scaffolding
try:  # scaffolding
    for batch_index, ratios in enumerate(ratios_group):
        axis = list(range(all_ratios.shape[1]))
        random.shuffle(axis)
        axis = axis[:3]  # scaffolding: 20 directions cut to 3
        for dim in axis:
            scaled_all_ratios =  all_ratios_f32 / all_ratios_f32[:,dim:dim+1]
            scaled_ratios = ratios / ratios[:,dim:dim+1]

            batch_pairings = process_block(scaled_ratios, scaled_all_ratios)
            calls += 1  # scaffolding
            print(dim, int(np.array(batch_pairings).sum()))  # scaffolding
    _report({"jit(process_block)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
    print("ERROR", type(e).__name__)  # scaffolding
