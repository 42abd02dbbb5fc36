# source: https://github.com/k-washi/jax-examples/blob/7b8ac432cc25029938fe23fffe6187cc2ad83cee/tutorial/sample1.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 5
# why: Learner tutorial notebook times `jit(dot_function, device=...)()` with %timeit, re-wrapping the same module-level function on every iteration; the wrapper hits the cache and compiles once.

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
from jax import jit

# ---- tutorial/sample1.ipynb cell 16
# deviceの指定
# devicesは実験的機能で変更される可能性がある
def dot_function():
    x = jnp.arange(1000**2, dtype=jnp.float32).reshape(1000, 1000)
    return jnp.dot(x, x.T)


for _ in range(5):  # scaffolding: stands in for `%timeit -n 100`
    jit(dot_function, device=jax.devices("cpu")[0])().block_until_ready()
_report({"jit(dot_function)"}, 5)  # scaffolding
