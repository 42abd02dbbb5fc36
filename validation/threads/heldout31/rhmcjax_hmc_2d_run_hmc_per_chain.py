# source: https://github.com/annalena-k/rhmc-jax/blob/25c2e60022062dd14efe6654ec716ee22c754742/examples/hmc_2d_gaussians.ipynb
# expect: jit-in-loop-or-body at line 90
# runtime: COMPILES 4 CALLS 4
# why: run_hmc defines a fresh @jax.jit one_step on every call and hands it to lax.scan; the notebook calls run_hmc once per chain, so the scan is re-traced and recompiled for every chain.

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
# (notebook examples/hmc_2d_gaussians.ipynb flattened; matplotlib cells and plotting lines cut)
# cell 0
import jax
import jax.numpy as jnp

import blackjax

import jax.scipy.stats as jsps  # scaffolding: GaussiansOnCircle inlined from rhmcjax/targets/gaussians_on_circle.py


def check_restriction_to_unit_hypercube(samples):  # scaffolding: stands in for rhmcjax.targets.target_util
    return jnp.all((samples >= 0.0) & (samples <= 1.0), axis=-1)


class GaussiansOnCircle():  # scaffolding: inlined from the repository (prob/log_prob only)
    def __init__(self, n_gaussians=6, radius=.48, variance=.1, center=jnp.array([.5, .5]),
                 restrict_to_unit_hypercube=True):
        self.n_gaussians = n_gaussians
        self.radius = radius
        self.variance = variance
        radial_pos = jnp.linspace(0, jnp.pi*2, num=n_gaussians, endpoint=False)
        self.mean_pos = center + radius * jnp.column_stack((jnp.sin(radial_pos), jnp.cos(radial_pos)))
        self.restrict_to_unit_hypercube = restrict_to_unit_hypercube

    def prob(self, samples):
        if len(samples.shape) == 1:
            samples = jnp.expand_dims(samples, axis=0)
        probs = []
        for mean in self.mean_pos:
            standardized_samples = (samples - mean[None, :])/self.variance
            prob_vals = jsps.multivariate_normal.pdf(standardized_samples, mean=jnp.array([0,0]), cov=jnp.eye(2))
            probs.append(prob_vals)
        probs = jnp.sum(jnp.array(probs), axis=0)
        if self.restrict_to_unit_hypercube:
            mask = check_restriction_to_unit_hypercube(samples)
            probs = jnp.where(mask, probs, 0.)
        assert len(probs) == len(samples)

        return probs.squeeze()

    def log_prob(self, samples):
        return jnp.log(self.prob(samples))


# cell 2
key = jax.random.key(seed=42)

unconstrained_target = GaussiansOnCircle(restrict_to_unit_hypercube=False)
# cell 4
inv_mass_matrix = jnp.array([0.5, 0.01])
num_integration_steps = 60
step_size = 1e-3

logdensity = unconstrained_target.log_prob
hmc = blackjax.hmc(logdensity, step_size, inv_mass_matrix, num_integration_steps)
# cell 6
initial_position = jnp.array([0.2, 0.2]).reshape([-1, 2])
initial_state = hmc.init(initial_position)
initial_state
# cell 8
def run_hmc(key, kernel, initial_state, num_samples):
    @jax.jit
    def one_step(state, key):
        state, _ = kernel(key, state)
        return state, state

    keys = jax.random.split(key, num_samples)
    final_state, states = jax.lax.scan(one_step, initial_state, keys)

    return states.position
# (cell 10, one run of 100_000 samples, and the plotting cells cut)
# cell 13
key, subkey = jax.random.split(key)
initial_positions = jax.random.uniform(subkey, shape=[4, 2])  # scaffolding: 10 chains cut to 4
initial_positions.shape
# cell 14
chains = []
for init_p in initial_positions:
    initial_position = init_p.reshape([-1, 2])
    key, subkey = jax.random.split(key)
    initial_state = hmc.init(initial_position)
    mcmc_samples = run_hmc(subkey, hmc.step, initial_state, 200)  # scaffolding: 10_000 samples cut to 200
    chains.append(mcmc_samples.squeeze())
mcmc_chains = jnp.array(chains)
mcmc_chains.shape
_report({"jit(scan)"}, len(initial_positions))  # scaffolding
