# source: https://github.com/patemotter/jax-intro/blob/main/04_vmap.ipynb
# expect: none
# runtime: COMPILES 3 CALLS 21
# why: the notebook jits three batched forwards (a Python loop over rows, a manually batched forward, jax.vmap) once each, warms them up and times them; the loop version unrolls at trace time but compiles only once.
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


# @title Setup { display-mode: "form" }

import jax
import jax.numpy as jnp
import numpy as np
# import matplotlib.pyplot as plt  # scaffolding: plotting not needed
import time

# plt.style.use / rcParams lines omitted  # scaffolding

print(f"JAX version: {jax.__version__}")
print(f"Devices:     {jax.devices()}")

# @title Reconstruct MLP from Notebooks 01-02 { display-mode: "form" }

def init_mlp_params(key, layer_sizes):
    """Initialize MLP parameters with He initialization."""
    params = []
    for i in range(len(layer_sizes) - 1):
        key, w_key, b_key = jax.random.split(key, 3)
        fan_in = layer_sizes[i]
        fan_out = layer_sizes[i + 1]
        w = jax.random.normal(w_key, (fan_in, fan_out)) * jnp.sqrt(2.0 / fan_in)
        b = jnp.zeros(fan_out)
        params.append((w, b))
    return params

def mlp_forward(params, x):
    """Forward pass for a SINGLE input vector."""
    for i, (w, b) in enumerate(params):
        x = x @ w + b
        if i < len(params) - 1:
            x = jnp.maximum(x, 0)
    return x

key = jax.random.PRNGKey(42)
params = init_mlp_params(key, [8, 64, 32, 1])
print("MLP reconstructed: 8 → 64 → 32 → 1")

key = jax.random.PRNGKey(0)
x_batch = jax.random.normal(key, (100, 8))  # scaffolding: 1000 -> 100 rows (the jitted Python loop unrolls per row)

# --- Approach 1: Python loop ---
def batch_loop(params, x_batch):
    return jnp.array([mlp_forward(params, xi) for xi in x_batch])

# --- Approach 2: Manual batching (rewrite forward pass for batches) ---
def mlp_forward_batched(params, x):
    """Forward pass rewritten to handle batch dimension."""
    for i, (w, b) in enumerate(params):
        x = x @ w + b  # Works because @ broadcasts over batch dim
        if i < len(params) - 1:
            x = jnp.maximum(x, 0)
    return x

# --- Approach 3: vmap ---
batch_vmap = jax.vmap(mlp_forward, in_axes=(None, 0))
# in_axes=(None, 0) means: don't map over params, map over axis 0 of x

# Warm up JIT
batch_loop_jit = jax.jit(batch_loop)
batch_manual_jit = jax.jit(mlp_forward_batched)
batch_vmap_jit = jax.jit(batch_vmap)

_ = batch_loop_jit(params, x_batch)
_ = batch_manual_jit(params, x_batch)
_ = batch_vmap_jit(params, x_batch)

# Time them
results = {}
for name, fn in [("Python loop", batch_loop_jit),
                 ("Manual batch", batch_manual_jit),
                 ("vmap", batch_vmap_jit)]:
    start = time.time()
    for _ in range(5):  # scaffolding: 100 -> 5
        out = fn(params, x_batch)
        out[0].block_until_ready() if isinstance(out, jnp.ndarray) else out.block_until_ready() if hasattr(out, 'block_until_ready') else jax.tree.map(lambda x: x.block_until_ready(), out)
    elapsed = time.time() - start
    results[name] = elapsed / 5  # scaffolding: 100 -> 5

print(f"{'Method':<20} | {'Time (ms)':>10} | {'vs vmap':>10}")
print("-" * 48)
vmap_time = results["vmap"]
for name, t in results.items():
    print(f"{name:<20} | {t*1000:>8.3f} ms | {t/vmap_time:>8.1f}x")

# Verify all give the same result
out_loop = batch_loop_jit(params, x_batch)
out_manual = batch_manual_jit(params, x_batch)
out_vmap = batch_vmap_jit(params, x_batch)
print(f"\nAll equal? loop≈manual: {jnp.allclose(out_loop.squeeze(), out_manual.squeeze(), atol=1e-5)}, "
      f"manual≈vmap: {jnp.allclose(out_manual.squeeze(), out_vmap.squeeze(), atol=1e-5)}")
_report({"jit(batch_loop)", "jit(mlp_forward_batched)", "jit(mlp_forward)"}, 21)  # scaffolding
