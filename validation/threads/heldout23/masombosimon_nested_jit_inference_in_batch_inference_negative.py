# source: https://github.com/Masombo-Simon/learn-jax-tutorial/blob/7aa0c7f9bcf0af0061636dee0d3c6207673f95bb/src/Practical%20Examples_Combined.ipynb
# expect: none
# runtime: COMPILES 2 CALLS 202
# why: the jitted batch_inference vmaps a closure that calls the separately jitted inference; the inner jit is inlined into the outer trace and each function compiles once for its 101 calls.
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
from jax import jit
import time

# Create small model suitable for embedded devices
def create_lightweight_model():
    """Small neural network for edge inference"""
    key = jax.random.PRNGKey(0)

    # Much smaller than standard models
    params = {
        'w1': jax.random.normal(key, (784, 32)) * 0.01,
        'b1': jnp.zeros(32),
        'w2': jax.random.normal(key, (32, 10)) * 0.01,
        'b2': jnp.zeros(10)
    }

    return params

params = create_lightweight_model()

# Fast inference
@jit
def inference(params, x):
    """Ultra-fast inference"""
    x = jnp.maximum(0, jnp.dot(x, params['w1']) + params['b1'])
    return jnp.dot(x, params['w2']) + params['b2']

# Benchmark
x_test = jax.random.normal(jax.random.PRNGKey(1), (784,))

# Warmup
_ = inference(params, x_test)

# Time inference
start = time.time()
for _ in range(100):  # scaffolding: 10000 in the notebook
    _ = inference(params, x_test)
elapsed = time.time() - start

# Model statistics
total_params = sum(p.size for p in params.values())
model_size_kb = (total_params * 4) / 1024

print(f"Model Statistics:")
print(f"Total parameters: {total_params:,}")
print(f"Model size: {model_size_kb:.2f} KB")
print(f"\nPerformance:")
print(f"Inference time: {(elapsed/10000)*1000:.3f} ms")
print(f"Throughput: {10000/elapsed:.0f} samples/sec")

from jax import vmap

# Vectorized inference for batch
@jit
def batch_inference(params, x_batch):
    """Process batch of samples efficiently"""
    def single_inference(x):
        return inference(params, x)

    return vmap(single_inference)(x_batch)

# Benchmark batch inference
batch_size = 32
x_batch = jax.random.normal(jax.random.PRNGKey(1), (batch_size, 784))

_ = batch_inference(params, x_batch)  # Warmup

start = time.time()
for _ in range(100):
    _ = batch_inference(params, x_batch)
elapsed = time.time() - start

throughput = (100 * batch_size) / elapsed
print(f"Batch inference throughput: {throughput:.0f} samples/sec")
print(f"Average latency per sample: {(elapsed/(100*batch_size))*1000:.3f} ms")
_report({"jit(inference)", "jit(batch_inference)"}, 202)  # scaffolding: 101 top-level calls of each jitted function
