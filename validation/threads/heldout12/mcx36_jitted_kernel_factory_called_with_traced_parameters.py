# source: https://github.com/rlouf/mcx/issues/36
# expect: unhashable-static at line 51
# runtime: ERROR ValueError
# why: the sampler wraps the kernel factory in jax.jit with all three arguments static, then calls it inside the jitted, vmapped update_chains with the per-chain parameters, which are tracers there, so hashing the static arguments raises ValueError.

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
import jax.numpy as np


class _Evaluator:  # scaffolding: stand-in for mcx's HMC evaluator
    def kernel_factory(self, loglikelihood):
        potential = lambda x: -loglikelihood(x)

        def build_kernel(num_integration_steps, step_size, inverse_mass_matrix):
            def kernel(rng_key, state):
                g = jax.grad(potential)(state)
                new_state = state - step_size * inverse_mass_matrix * g * num_integration_steps
                return new_state, potential(new_state)
            return kernel

        return build_kernel


class sampler(object):
    def __init__(self, rng_key, loglikelihood, evaluator, num_chains, initial_state, parameters):  # scaffolding: cut-down signature
        print("sampler: build and compile the inference kernel")
        kernel_factory = evaluator.kernel_factory(loglikelihood)
        kernel_factory = jax.jit(kernel_factory, static_argnums=(0, 1, 2))

        self.rng_key = rng_key
        self.num_chains = num_chains
        self.kernel_factory = kernel_factory
        self.state = initial_state
        self.parameters = parameters  # scaffolding: set by warmup in mcx

    def __iter__(self):
        @jax.jit
        def update_chains(rng_key, parameters, state):
            kernel = self.kernel_factory(*parameters)
            new_states, info = kernel(rng_key, state)
            return new_states, info

        def run(rng_key, state, parameters):
            while True:
                _, rng_key = jax.random.split(rng_key)
                keys = jax.random.split(rng_key, self.num_chains)
                state, info = jax.vmap(update_chains, in_axes=(0, 0, 0))(
                    keys, parameters, state
                )
                yield (state, info)

        self.sample_generator = run(self.rng_key, self.state, self.parameters)

        return self

    def __next__(self):
        return next(self.sample_generator)


num_chains = 2  # scaffolding
parameters = (np.ones(num_chains, dtype=np.int32) * 10, np.ones(num_chains) * 0.01, np.ones((num_chains, 3)))  # scaffolding
s = sampler(jax.random.PRNGKey(0), lambda x: -0.5 * np.sum(x ** 2), _Evaluator(), num_chains, np.ones((num_chains, 3)), parameters)  # scaffolding
try:  # scaffolding
    state, info = next(iter(s))
    print(state.shape)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
