# source: https://github.com/blackjax-devs/blackjax/pull/159
# expect: none
# runtime: COMPILES 1 CALLS 10
# why: the HMC step is jitted once before the sampling loop and called with same-shaped keys and states, so the ten steps share one compile and the logprob is traced at most twice.

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
import chex
import jax
import jax.numpy as jnp
import jax.scipy as jscipy

import blackjax


class CompilationTest:  # scaffolding: chex.TestCase in the repository
    def test_hmc(self):
        """Count the number of times the logprob is compiled when using HMC.

        The logprob is compiled twice: when initializing the state and when
        compiling the kernel.

        """

        @chex.assert_max_traces(n=2)
        def logprob_fn(x):
            return jscipy.stats.norm.logpdf(x)

        chex.clear_trace_counter()

        rng_key = jax.random.PRNGKey(0)
        state = blackjax.hmc.init(1.0, logprob_fn)

        kernel = blackjax.hmc(
            logprob_fn,
            step_size=1e-2,
            inverse_mass_matrix=jnp.array([1.0]),
            num_integration_steps=10,
        )
        step = jax.jit(kernel.step)

        for _ in range(10):
            rng_key, sample_key = jax.random.split(rng_key)
            state, _ = step(sample_key, state)


CompilationTest().test_hmc()  # scaffolding
print(sorted(set(n for n in _COMPILED if "step" in n)))  # scaffolding
_report({"jit(step_fn)"}, 10)  # scaffolding
