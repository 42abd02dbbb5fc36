# source: https://github.com/annalena-k/rhmc-jax/blob/f089c3eaf19249ae84ef4567a6b68b62f29dbc68/examples/rhmc_8d_ttbar.py
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: static_argnums=1 names x_const, whose default is a jax array, but callers only pass x: the default is never bound as a static argument, so nothing unhashable reaches the cache and the function compiles once.

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
from functools import partial


class MadjaxTarget:  # scaffolding: stands in for rhmcjax.targets.madjax_target.MadjaxTarget (needs madjax)
    def __init__(self, dim):
        self.dim = dim

    def log_prob(self, x):
        return -0.5 * jnp.sum(x ** 2)


# Load target distribution
dim = 8
target = MadjaxTarget(dim)  # scaffolding: the matrix-element path, energy and model parameters dropped

n_flexible_dims = 2

inv_mass_matrix = jnp.array([0.1]*n_flexible_dims)
num_integration_steps = 60
num_chains = 10
num_samples_per_chain = 50_000
step_size = 1e-3

logdensity_fn = target.log_prob
key = jax.random.PRNGKey(1)

@partial(jax.jit, static_argnums=1)
def new_logensity_fn(x, x_const=jnp.array([0.5]*(dim - n_flexible_dims))):
    x = jnp.hstack([x, x_const])
    return logdensity_fn(x)

key, subkey = jax.random.split(key)
initial_positions = jax.random.uniform(subkey, shape=[num_chains, n_flexible_dims])
for init_p in initial_positions[:4]:  # scaffolding: the script hands new_logensity_fn to rhmc(...); here it is called directly per chain
    new_logensity_fn(init_p)
_report({"jit(new_logensity_fn)"}, 4)  # scaffolding
