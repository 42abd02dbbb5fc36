# source: https://github.com/jax-ml/jax/issues/5023
# expect: none
# runtime: COMPILES 1 CALLS 21
# why: run is jitted once and called in a loop with a different Python int each time; ints are traced (weak-typed int32), not static, so run compiles once for all 21 calls (the recompilation suspected in the thread does not happen).

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


import time
from jax import jit, random
import jax.numpy as jnp

B, N, N = 3, 64, 64  # scaffolding: 3, 2048, 2048 in the thread

@jit
def run(iter):
    rng=random.PRNGKey(iter)
    a = random.normal(rng, shape=[B, N, N])
    a = a @ jnp.transpose(a, [0, 2, 1])
    b = jnp.linalg.cholesky(a)
    return b


for _ in range(20):
    run(_)

start = time.time()
run(21)
print(time.time() - start)
_report({"jit(run)"}, 21)  # scaffolding
