# source: https://github.com/jax-ml/jax/issues/648
# expect: trace-time-error at line 36
# runtime: ERROR TypeError
# why: n_samps is a traced argument of the jitted sample, and random.randint needs a concrete shape, so passing (n_samps, N) raises TypeError (in 2019: unhashable type JaxprTracer).
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
import jax.numpy as np
from jax import jit, random

N = 5  # scaffolding


@jit
def sample(key, n_samps, N):  # scaffolding: stand-in for the reporter's Metropolis-Hastings sampler
    flips = random.randint(key, (n_samps, N), 0, 2)
    return np.mean(flips, axis=0)


key = random.PRNGKey(1)
n_samps = 10
try:  # scaffolding
    sample(key,n_samps,N)
    _report({"jit(sample)"}, 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
