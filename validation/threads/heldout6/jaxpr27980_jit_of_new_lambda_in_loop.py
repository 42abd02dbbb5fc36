# source: https://github.com/jax-ml/jax/pull/27980
# expect: jit-in-loop-or-body at line 38
# runtime: COMPILES 3 CALLS 3
# why: a fresh lambda is jitted on every loop iteration, so each call is a new function to jit's cache: 3 compiles for 3 calls (the explanation the PR improves says 'seen another function defined on the same line').

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
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding

jax.config.update("jax_explain_cache_misses", True)  # scaffolding: the PR's explanations

# scaffolding: the case of the PR's test_cache_miss_explanations_new_function_in_loop,
# "never seen function ... but seen another function defined on the same line;
#  maybe the function is being re-defined repeatedly, preventing caching?"
for step in range(3):  # scaffolding
    y = jax.jit(lambda x: x * 2.0)(jnp.float32(step))  # scaffolding
_report({"jit(<lambda>)"}, 3)  # scaffolding
