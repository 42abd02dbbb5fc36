# source: https://github.com/pyro-ppl/numpyro/pull/821
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: the PR's change: np.less(y, 0) is a NumPy operation on the concrete array, so the check stays a concrete Python bool during tracing; the jitted f compiles once for three calls.

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
from numpyro.util import not_jax_tracer
import numpy as np
import jax.numpy as jnp

def f(x):
    if not_jax_tracer(y):
        if np.all(np.less(y, 0)):
            print("nooo")
    return x + y

y = jnp.arange(10.)
jf = jax.jit(f)  # scaffolding: one jitted wrapper, called three times
calls = 0  # scaffolding
for x in (1, 2, 3):  # scaffolding
    jf(x)
    calls += 1  # scaffolding
_report({"jit(f)"}, calls)  # scaffolding
