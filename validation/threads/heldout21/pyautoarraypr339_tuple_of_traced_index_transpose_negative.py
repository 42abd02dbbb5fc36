# source: https://github.com/PyAutoLabs/PyAutoArray/pull/339
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: the PR blames tuple(native_index_for_slim_index_2d.T) for a TracerArrayConversionError under jit, but on jax 0.10.2 iterating a traced (2, N) index array yields two traced rows and the .at[].set scatter works: the jitted wrapper compiles once for two images.
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


from typing import Tuple

import jax
import jax.numpy as jnp
import numpy as np


def array_2d_via_indexes_from(
    array_2d_slim: np.ndarray,
    shape: Tuple[int, int],
    native_index_for_slim_index_2d: np.ndarray,
    xp=np,
) -> np.ndarray:
    array = xp.zeros(shape, dtype=array_2d_slim.dtype)

    if xp.__name__.startswith("jax"):
        array = array.at[tuple(native_index_for_slim_index_2d.T)].set(array_2d_slim)
    else:
        array[tuple(native_index_for_slim_index_2d.T)] = array_2d_slim

    return array


@jax.jit
def native_from(array_2d_slim, native_index_for_slim_index_2d):  # scaffolding: Array2D.native on the JAX simulator path, wrapped in jit by the user
    return array_2d_via_indexes_from(array_2d_slim, (4, 4), native_index_for_slim_index_2d, xp=jnp)


mask = np.zeros((4, 4), dtype=bool); mask[0, :] = True  # scaffolding: a masked 4x4 grid, 12 unmasked pixels
native_index_for_slim_index_2d = np.argwhere(~mask)
for k in range(2):  # scaffolding: two simulated images
    image = native_from(jnp.arange(12.0) + k, native_index_for_slim_index_2d)
_report({"jit(native_from)"}, 2)  # scaffolding
