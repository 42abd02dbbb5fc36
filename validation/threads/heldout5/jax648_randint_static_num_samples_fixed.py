# source: https://github.com/jax-ml/jax/issues/648
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: hawkinsp's fix: mark the sample count (and N) static, so the shape is concrete; sample compiles once for two calls with the same values.
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
from functools import partial

import jax.numpy as np
from jax import jit, random

N = 5  # scaffolding


@partial(jit, static_argnums=(1, 2))
def sample(key, n_samps, N):  # scaffolding: stand-in for the reporter's sampler
    flips = random.randint(key, (n_samps, N), 0, 2)
    return np.mean(flips, axis=0)


key = random.PRNGKey(1)
n_samps = 10
sample(key,n_samps,N)
sample(random.PRNGKey(2),n_samps,N)
_report({"jit(sample)"}, 2)
