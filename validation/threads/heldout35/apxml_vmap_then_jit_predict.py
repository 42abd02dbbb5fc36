# source: https://apxml.com/courses/getting-started-with-jax/chapter-4-automatic-vectorization-vmap/combining-vmap-jit-grad
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: jax.jit(jax.vmap(predict)) is built once at module level and called twice with the same shapes, so it compiles once; the eager vmap call beside it is not jitted.

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
import time

# Define a function that works on single data points
def predict(params, x):
    # A simple linear model: w*x + b
    w, b = params
    return w * x + b

# Create some example parameters and a batch of data
key = jax.random.PRNGKey(0)
params = (jnp.array(2.0), jnp.array(1.0)) # (w, b)
batch_x = jnp.arange(10000.0)

# 1. Vectorize the predict function using vmap
# Map over batch_x (axis 0), but keep params the same (None)
batched_predict_vmap = jax.vmap(predict, in_axes=(None, 0))

# 2. Compile the vectorized function using jit
jitted_batched_predict = jax.jit(batched_predict_vmap)

# --- Timing Comparison ---
# Run the vmap version (without JIT)
start_time = time.time()
result_vmap = batched_predict_vmap(params, batch_x).block_until_ready()
duration_vmap = time.time() - start_time
print(f"vmap only duration: {duration_vmap:.6f} seconds")

# Run the JIT-compiled vmap version (includes compile time on first run)
start_time = time.time()
result_jit_vmap = jitted_batched_predict(params, batch_x).block_until_ready()
duration_jit_vmap_first = time.time() - start_time
print(f"jit(vmap(...)) duration (first run): {duration_jit_vmap_first:.6f} seconds")

# scaffolding: the stored excerpt ends here; the timed second run below stands in for the page's "second run"
start_time = time.time()  # scaffolding
result_jit_vmap = jitted_batched_predict(params, batch_x).block_until_ready()  # scaffolding
duration_jit_vmap_second = time.time() - start_time  # scaffolding
print(f"jit(vmap(...)) duration (second run): {duration_jit_vmap_second:.6f} seconds")  # scaffolding
_report({"jit(predict)"}, 2)  # scaffolding
