# source: https://github.com/jax-ml/jax/issues/1033
# expect: none
# runtime: COMPILES 1 CALLS 5
# why: fold_in with the loop index was static in 2019 and recompiled every iteration; on jax 0.10.2 the index is traced, so _threefry_fold_in compiles once for 5 iterations.

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
N = 5  # scaffolding

def do_something_random(key):  # scaffolding
    return jax.random.normal(key, (3,))  # scaffolding

base_key = jax.random.PRNGKey(0)
for i in range(N):
   do_something_random(jax.random.fold_in(base_key, i))
_report({"jit(_threefry_fold_in)"}, N)
