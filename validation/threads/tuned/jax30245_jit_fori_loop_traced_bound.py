# source: https://github.com/jax-ml/jax/issues/30245
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: jit(run_loop) with a traced N turns fori_loop into a while_loop; it is slower per the report but compiles once for its 2 calls: no recompile or error.

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
import timeit


print(jax.devices())

def body_fn(step_i, x):
    return x + step_i

def run_loop(x, N):
    return jax.lax.fori_loop(0, N, body_fn, x)


x0 = jnp.array(0, dtype=jnp.int32)
N = 1000000


# run_loop
run_loop(x0, N).block_until_ready()

start_time = timeit.default_timer()
res = run_loop(x0, N).block_until_ready()
end_time = timeit.default_timer()
print(f"run_loop Time taken: {end_time - start_time} seconds")

# jitted run_loop
run_loop_jit = jax.jit(run_loop)
run_loop_jit(x0, N).block_until_ready()

start_time = timeit.default_timer()
res = run_loop_jit(x0, N).block_until_ready()
end_time = timeit.default_timer()
print(f"run_loop_jit Time taken: {end_time - start_time} seconds")
_report({"jit(run_loop)"}, 2)
