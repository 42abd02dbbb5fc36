# source: https://github.com/blackjax-devs/blackjax/issues/486
# expect: jit-in-loop-or-body at line 61
# runtime: COMPILES 3 CALLS 3
# why: inference_loop defines a fresh @jax.jit one_step on every call and runs lax.scan over it eagerly, so each call of inference_loop in the outer Python loop traces and compiles the scan again (3 compiles for 3 calls), which is the growth the reporter saw in memory.

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
import jax.scipy.stats as stats
import numpy as np

import blackjax

observed = np.random.normal(10, 20, size=1_000)  # scaffolding: the guide's model, in small
def logdensity_fn(x):  # scaffolding
    logpdf = stats.norm.logpdf(observed, x["loc"], x["scale"])
    return jnp.sum(logpdf)

nuts = blackjax.nuts(logdensity_fn, 1e-3, jnp.array([1., 1.]))  # scaffolding
initial_state = nuts.init({"loc": 1., "scale": 2.})  # scaffolding
kernel = jax.jit(nuts.step)  # scaffolding


def inference_loop(rng_key, kernel, initial_state, num_samples):
    @jax.jit
    def one_step(state, rng_key):
        state, _ = kernel(rng_key, state)
        return state, state

    keys = jax.random.split(rng_key, num_samples)
    _, states = jax.lax.scan(one_step, initial_state, keys)

    return states


rng_key = jax.random.key(0)  # scaffolding
for _ in range(3):  # scaffolding: was range(1000)
    rng_key, _ = jax.random.split(rng_key)  # scaffolding
    states = inference_loop(rng_key, kernel, initial_state, num_samples=1)
_report({"jit(scan)"}, 3)  # scaffolding
