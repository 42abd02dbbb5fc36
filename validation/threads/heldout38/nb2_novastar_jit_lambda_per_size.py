# source: https://github.com/novastar53/high_performance_jax/blob/20b972daf8c78b63df76c6b9ff0b189940f70382/notebooks/single_chip_performance.ipynb
# expect: none
# runtime: COMPILES 4 CALLS 24
# why: The benchmark loop wraps a fresh jax.jit(lambda x, y: x @ y) for every matrix size, which looks like jit rebuilt in a loop, but every size has new shapes and needs its own compile anyway, and timeit reuses the one wrapper for its warm-up and repeats, so there is exactly one compile per size and none per call.

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
# --- src/high_performance_jax/single_chip_performance.py (scaffolding: the module the notebook star-imports) ---
import jax
import jax.numpy as jnp


def measure_tpu_hbm_memory_transfer(op, n, dim, dtype):
    bytes = jnp.dtype(dtype).itemsize

    match op:
        case "matadd":
            return n * 3 * (dim**2) * bytes 
        case "matadd3":
            return n * 6 * (dim**2) * bytes 
        case "matmul":
            return n * 3 * (dim**2) * bytes
        case "matmul3":
            return n * 6 * (dim**2) * bytes
        case _:
            return 0

def measure_tpu_flops(op, n, dim):
    match op:
        case "matadd":
            return n * dim**2
        case "matadd3":
            return n * 2*dim**2
        case "matmul":
            return n * (dim**2)*(2*dim - 1)
        case "matmul3":
            return n * 2*(dim**2)*(2*dim - 1)
        case _:
            return 0


import time  # scaffolding


def timeit(fn, *args, n_iters=5):  # scaffolding: stand-in for deepkit.utils.timeit (a warm-up call, then timed repeats)
    jax.block_until_ready(fn(*args))
    start = time.perf_counter()
    for _ in range(n_iters):
        jax.block_until_ready(fn(*args))
    return 1000 * (time.perf_counter() - start) / n_iters

# --- notebook cell 1 ---
# from deepkit.utils import timeit  # scaffolding: deepkit (the author's other repo) stands in below
# from high_performance_jax.single_chip_performance import *  # scaffolding: that module (src/high_performance_jax/single_chip_performance.py) is inlined above
# import matplotlib.pyplot as plt  # scaffolding: the plotting part of the cell is dropped

dtype = jnp.bfloat16
devices = jax.devices()
print("Devices:")
for i,d in enumerate(devices):
  print(f"{i+1}. {d.device_kind}")    # e.g. “TPU v3”


#####################################
##        jax.lax matmul presets   ##
#####################################
## 'ANY_F8_ANY_F8_F32',
## 'ANY_F8_ANY_F8_F32_FAST_ACCUM'
## 'ANY_F8_ANY_F8_ANY'
## 'ANY_F8_ANY_F8_ANY_FAST_ACCUM'
## 'F16_F16_F16'
## 'F16_F16_F32'
## 'BF16_BF16_BF16'
## 'BF16_BF16_F32'
## 'BF16_BF16_F32_X3'
## 'BF16_BF16_F32_X6'
## 'TF32_TF32_F32'
## 'TF32_TF32_F32_X3'
## 'F32_F32_F32'
## 'F64_F64_F64'
#####################################
jax.config.update("jax_default_matmul_precision", "BF16_BF16_F32") # Set the default precision for matrix multiplication

dims = [2**i for i in range(3, 7)]  # scaffolding: range(6, 15) in the notebook
times = []
tflops = []
hbm_rates = []
intensities = []

for dim in dims:
    n = 2**14 // dim ** 2  # scaffolding: 2**29 // dim ** 2 in the notebook
    A = jnp.ones((n, dim, dim), dtype=dtype)
    B = jnp.ones((n, dim, dim), dtype=dtype)
    #C = jnp.ones((dim, dim), dtype=dtype)
    task = "matmul"

    average_time_ms = timeit(jax.jit(lambda x, y: x @ y), A, B)
    flops = measure_tpu_flops(task, n, dim)
    times.append(average_time_ms)
    tflops.append(1000 * flops / average_time_ms / 10**12)
    hbm_xfer = measure_tpu_hbm_memory_transfer(task, n, dim, dtype)
    hbm_rates.append(1000 * hbm_xfer / average_time_ms)
    arithmetic_intensity = flops / hbm_xfer
    intensities.append(arithmetic_intensity)

    print(f"{n=} | {dim=} | average time (ms): {average_time_ms:.2f} | "
            f"hbm xfer/s {hbm_rates[-1]:.2e} | "
            f"flops {flops:.2e} | "
            f"intensity {arithmetic_intensity:,.4f} | "
            f"teraflops/s {tflops[-1]:,.4f}")
_report({"jit(<lambda>)"}, len(dims) * 6)
