# source: https://github.com/IanQS/numpy_to_jax/blob/efe090d340fb77708dd6a65e70b3465a4a42e061/solutions/exe_02_jit.ipynb
# expect: stale-closure at line 40
# runtime: COMPILES 1 CALLS 5
# why: impure_non_jit reads the module global count, which the loop increments after each call; the jitted copy traced count=0 once, so impure_jitted keeps returning x while the plain function returns x + x*count.

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
import jax.numpy as jnp
import numpy as np
import jax

np.random.seed(42)

small_rand_jnp = jnp.asarray(np.random.rand(3, 3))

count = 0

def impure_non_jit(x):
    return x + x * count

impure_jitted = jax.jit(impure_non_jit)

for i in range(5):
    print(impure_non_jit(small_rand_jnp))
    print(impure_jitted(small_rand_jnp))
    print("*" * 10)
    
    # TODO: update the state here and see how they diverge!
    count += 1
    
_report({"jit(impure_non_jit)"}, 5)  # scaffolding
