# source: https://github.com/hmankodiya/jax-implementations/blob/36c41a6db4ff967ef2917fcbb0e132e9719188ca/time_checker/checker.ipynb
# expect: none
# runtime: COMPILES 12 CALLS 24
# why: the two @jax.jit functions are redefined inside the loop over N, but every N is a new input shape anyway: each compiles once per size and its timed second call hits the cache (12 compiles for 24 calls), the same as if they were defined once outside the loop.
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


# cell 1
import time

import numpy as np
# import matplotlib.pyplot as plt  # scaffolding: matplotlib is not installed; no-op stand-in below


class _NoPlot:  # scaffolding: matplotlib.pyplot stand-in, every call is a no-op
    def __getattr__(self, name):  # scaffolding
        return lambda *a, **k: None  # scaffolding


plt = _NoPlot()  # scaffolding

import jax
import jax.numpy as jnp
# cell 2
# Setup for varying N (keeping K and D constant)
D = 128
Ns = [1<<i for i in range(2, 15)]
Ns = Ns[:6]  # scaffolding: the first 6 sizes (N = 4..128) instead of 13 (up to 16384) to run in seconds on CPU
# cell 3
broadcast_times = []
vmap_times = []

# Benchmark each size
for N in Ns:
    key = jax.random.PRNGKey(0)
    x = jax.random.normal(key, (N, D))
    y = jax.random.normal(key, (N, D))

    @jax.jit
    def compute_norm_broadcast(x, y):
        x_i = x[:, None, :]
        y_j = y[None, :, :]
        return jnp.sum((x_i - y_j) ** 2, axis=-1)

    @jax.jit
    def compute_norm_vmap(x, y):
        def squared_euclidean(xi):
            return jnp.sum((xi - y) ** 2, axis=1)

        return jax.vmap(squared_euclidean)(x)

    # Warm-up
    _ = compute_norm_broadcast(x, y).block_until_ready()
    _ = compute_norm_vmap(x, y).block_until_ready()

    # Time broadcasting
    start = time.time()
    _ = compute_norm_broadcast(x, y).block_until_ready()
    broadcast_times.append(time.time() - start)

    # Time vmap
    start = time.time()
    _ = compute_norm_vmap(x, y).block_until_ready()
    vmap_times.append(time.time() - start)

# Plot results
plt.figure(figsize=(10, 6))
plt.plot(Ns, broadcast_times, marker="o", label="Broadcasting")
plt.plot(Ns, vmap_times, marker="s", label="vmap")
plt.xlabel("N (number of vectors in x)")
plt.ylabel("Execution Time (seconds)")
plt.title("Broadcasting vs vmap Timing (K=512, D=128)")
plt.legend()
plt.grid(True)
plt.tight_layout()
plt.show()

_report({"jit(compute_norm_broadcast)", "jit(compute_norm_vmap)"}, 4 * len(Ns))  # scaffolding
