# source: https://github.com/hypernicon/jax-notes/blob/7ada3197083b9ee45857507fe30abb446a4a631b/notebooks/jax-indexing.ipynb
# expect: trace-time-error at line 56
# runtime: ERROR IndexError
# why: Under jax.jit the slice bound first_invalid_index = valid_counts.max() is a tracer, so indices[..., :first_invalid_index] raises IndexError (dynamic slice bound) while tracing; the same function works eagerly in cell 16.

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
import jax  # scaffolding: imports from earlier cells
import jax.numpy as jnp  # scaffolding

key = jax.random.key(0)  # scaffolding: the notebook's key comes from earlier cells


# cell 15
def nearest_neighbor_search(query, keys, threshold, max_to_take=None):
    assert query.ndim == keys.ndim
    assert query.shape[-1] == keys.shape[-1]

    distances = jnp.linalg.norm(query[..., None, :] - keys[..., None, :, :], axis=-1)

    # Sort results by distance
    indices = jnp.argsort(distances, axis=-1)
    sorted_distances = jnp.take_along_axis(distances, indices, axis=-1)

    threshold_mask = sorted_distances > threshold

    # Get the last index where the distance is less than the threshold
    valid_counts = jnp.argmax(threshold_mask, axis=-1)
    first_invalid_index = valid_counts.max()

    if max_to_take is not None:
        first_invalid_index = min(first_invalid_index, max_to_take)
        valid_counts = jnp.minimum(valid_counts, max_to_take)

    indices = indices[..., :first_invalid_index]
    print(indices.shape)

    # Use the first valid index to index into the keys
    key_indices = indices[..., None]
    sorted_keys = jnp.take_along_axis(keys[None, ...], key_indices, axis=-2)

    return sorted_keys, valid_counts, indices


# cell 16
import math

key, subkey_1, subkey_2 = jax.random.split(key, 3)

num_queries = 8
num_keys = 1024
key_dim = 32

expected_threshold = 2 * key_dim // math.log(num_keys, 2)

query = jax.random.normal(subkey_1, (num_queries, key_dim), dtype=jnp.float32)
keys = jax.random.normal(subkey_2, (num_keys, key_dim), dtype=jnp.float32)

key_result, valid_counts, indices = nearest_neighbor_search(query, keys, expected_threshold)

print("expected_threshold", expected_threshold)
print("key_result shape", key_result.shape)
print("valid_counts shape", valid_counts.shape)

print("valid_counts", valid_counts)
print("indices", indices[0])


# cell 17
jit_nearest_neighbor_search = jax.jit(nearest_neighbor_search)

try:  # scaffolding
    key_result, valid_counts, indices = jit_nearest_neighbor_search(query, keys, expected_threshold)
    _report({"jit(nearest_neighbor_search)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
