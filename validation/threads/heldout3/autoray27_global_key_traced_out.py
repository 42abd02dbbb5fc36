# source: https://github.com/jcmgray/autoray/issues/27
# expect: stale-closure at line 33
# runtime: COMPILES 1 CALLS 10
# why: autoray draws from a global JAX key that it advances as a Python side effect; inside the jax.jit-ed sampler that key is read once at trace time and baked in as a constant, so every call returns the same 'random' number (measured: 10 identical values, 1 compile for 10 calls).

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
import autoray as ar

@jax.jit
def sampler():
    return ar.do("random.normal", like='jax')
    # return jax.random.normal(key=ar.autoray.jax_random_get_key())

for _ in range(10):
    print(sampler()) 

_report({"jit(sampler)"}, 10)  # scaffolding
