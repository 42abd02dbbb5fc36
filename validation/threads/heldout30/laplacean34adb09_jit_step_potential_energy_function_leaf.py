# source: https://github.com/StefanSko/Laplacean/commit/34adb09aeeb23fa532d04c7323ba1c5704bc3570
# expect: trace-time-error at line 224
# runtime: ERROR TypeError
# why: PotentialEnergy is registered as a pytree whose only child is the potential function itself, so calling the jitted step(potential_energy, input) makes a Python function a traced leaf and jit raises TypeError (path U[0][0]).
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



# ---- laplacean/src/base/functions.py ----
from typing import Callable
from jax import Array

# Define the base
PriorFunc = Callable[[Array], float]
PotentialEnergyFunc = Callable[[Array], float]
LikelihoodFunc = Callable[[Array, Array], float]

# ---- laplacean/src/base/data.py ----
from jaxtyping import Array
# import jax_dataclasses as jdc  # scaffolding: jax_dataclasses is not installed; stand-in below
import dataclasses as _dc  # scaffolding
import jax  # scaffolding


class jdc:  # scaffolding: jax_dataclasses.pytree_dataclass = a dataclass whose fields are all pytree children
    @staticmethod
    def pytree_dataclass(cls):  # scaffolding
        cls = _dc.dataclass(frozen=True)(cls)  # scaffolding
        return jax.tree_util.register_dataclass(cls, data_fields=[f.name for f in _dc.fields(cls)], meta_fields=[])  # scaffolding

@jdc.pytree_dataclass
class JaxHMCData:
    epsilon: float
    L: int
    current_q: Array
    key: Array

# ---- laplacean/src/methods/potential_energy.py ----
from typing import Optional, Tuple, Any

from jaxtyping import Array
import jax

# from base.functions import PriorFunc, LikelihoodFunc, PotentialEnergyFunc  # scaffolding: the module is inlined above


def create_potential_energy(prior_func: PriorFunc, likelihood_func: LikelihoodFunc, data: Optional[Array]) -> PotentialEnergyFunc:
    def potential_energy(q):
        prior = prior_func(q)
        likelihood = likelihood_func(q, data)
        return prior + likelihood
    return potential_energy

def noop_likelihood(q: Array, data: Array) -> float:
    return 0.0


class PotentialEnergy:
    def __init__(self, prior_func: PriorFunc, likelihood_func: Optional[LikelihoodFunc] = None, data: Optional[Array] = None):
        if likelihood_func is None or data is None:
            likelihood_func = noop_likelihood
            data = None
        self.potential_energy = create_potential_energy(prior_func, likelihood_func, data)
    
    def __call__(self, q: Array) -> float:
        return self.potential_energy(q)
    def gradient(self, q: Array) -> Array:
        return jax.grad(self.__call__)(q)
    
# Register the custom pytree
def potential_energy_flatten(pe: PotentialEnergy) -> Tuple[Tuple[PotentialEnergyFunc], None]:
    return ((pe.potential_energy,),), None

def potential_energy_unflatten(aux_data: Any, children: Tuple[Tuple[PotentialEnergyFunc],]) -> PotentialEnergy:
    pe = PotentialEnergy(None)
    pe.potential_energy = children[0][0]
    return pe

jax.tree_util.register_pytree_node(
    PotentialEnergy,
    potential_energy_flatten,
    potential_energy_unflatten
)

# ---- laplacean/src/methods/hmc.py ----
from typing import Callable

from jax import random, lax, jit
import jax.numpy as jnp


# from methods.potential_energy import PotentialEnergy  # scaffolding: the module is inlined above
# from base.data import JaxHMCData  # scaffolding: the module is inlined above


StepFunc = Callable[[PotentialEnergy, JaxHMCData], JaxHMCData]

@jit
def step(U: PotentialEnergy, input: JaxHMCData) -> JaxHMCData:
    q = input.current_q
    key, subkey = random.split(input.key)
    p = random.normal(subkey, q.shape)
    epsilon = input.epsilon
    L = input.L
    current_p = p
    # Make a half step for momentum at the beginning
    p = p - epsilon * U.gradient(q) / 2

    def loop_body(_, carry):
        q, p = carry
        # Make a full step for the position
        q = q + epsilon * p
        # Make a full step for the momentum
        p = p - epsilon * U.gradient(q)
        return q, p

    q, p = lax.fori_loop(0, L- 1, loop_body, (q, p))

    # Make a half step for momentum at the end
    q = q + epsilon * p
    p = p - epsilon * U.gradient(q) / 2
    # Negate momentum at end of trajectory to make the proposal symmetric
    p = -p
    # Evaluate potential and kinetic energies at start and end of trajectory
    current_U = U(input.current_q)
    current_K = jnp.sum(current_p ** 2) / 2
    proposed_U = U(q)
    proposed_K = jnp.sum(p ** 2) / 2
    # Accept or reject the state at the end of trajectory, returning either
    # the position at the end of the trajectory or the initial position
    # Compute log acceptance probability
    log_accept_prob = current_U - proposed_U + current_K - proposed_K
    log_accept_prob = jnp.where(jnp.isfinite(log_accept_prob), log_accept_prob,
                                -jnp.inf)  # handle non-finite values
    # Accept or reject the state at the end of trajectory
    key, subkey = random.split(key)
    accept = jnp.log(random.uniform(subkey)) < log_accept_prob
    q_new = lax.cond(accept, lambda _: q, lambda _: input.current_q, operand=None)
    return JaxHMCData(epsilon=input.epsilon, L=input.L, current_q=q_new, key=key)

# ---- laplacean/src/sampler/sampling.py ----
import jax
import jax.numpy as jnp
from jaxtyping import Array

# from methods.hmc import StepFunc  # scaffolding: the module is inlined above
# from methods.potential_energy import PotentialEnergy  # scaffolding: the module is inlined above
# from base.data import JaxHMCData  # scaffolding: the module is inlined above


class Sampler:

    def __call__(self, step: StepFunc, init: JaxHMCData, energy: PotentialEnergy, 
                 num_warmup: int = 500, num_samples: int = 1000) -> Array:
        # Warm-up phase
        def warmup_body(carry, _):
            input, key = carry
            output = step(energy, JaxHMCData(epsilon=input.epsilon, L=input.L, current_q=input.current_q, key=key))
            return (output, output.key), output.current_q

        (input, _), _ = jax.lax.scan(warmup_body, (init, init.key), jnp.zeros(num_warmup))

        # Sampling phase
        def sampling_body(carry, _):
            input, key = carry
            output = step(energy, JaxHMCData(epsilon=input.epsilon, L=input.L, current_q=input.current_q, key=key))
            return (output, output.key), output.current_q

        (_, key), samples = jax.lax.scan(sampling_body, (input, input.key), jnp.zeros(num_samples))

        return samples

# ---- laplacean/tests/dev/unit_normal_example.py ----
import jax
import jax.numpy as jnp
import jax.random as random
from jaxtyping import Array
# import seaborn as sns  # scaffolding: plotting libraries not installed
# from matplotlib import pyplot as plt  # scaffolding: plotting libraries not installed

# from methods.hmc import step  # scaffolding: the module is inlined above
# from methods.potential_energy import PotentialEnergy  # scaffolding: the module is inlined above
# from sampler.sampling import Sampler  # scaffolding: the module is inlined above
# from base.data import JaxHMCData  # scaffolding: the module is inlined above


# Example usage for potential energy function corresponding to a standard normal distribution with mean 0 and variance 1
# U needs to return the negative log of the density
@jax.jit
def U(q: Array) -> Array:
    return 0.5 * jnp.sum(q ** 2)



initial_q = jnp.array([1.])

input: JaxHMCData = JaxHMCData(epsilon=0.1, L=10, current_q=initial_q, key=random.PRNGKey(0))
sampler = Sampler()



potential_energy: PotentialEnergy = PotentialEnergy(prior_func=U)

try:  # scaffolding
    t = step(potential_energy, input)

    samples = sampler(step, input, potential_energy)


    print(jnp.mean(samples))
    print(jnp.var(samples))


    # sns.kdeplot(samples)  # scaffolding: plotting cut
    # plt.xlabel('Sample Value')  # scaffolding: plotting cut
    # plt.title('Distribution of Samples')  # scaffolding: plotting cut
    # plt.show()  # scaffolding: plotting cut

    # sns.lineplot(samples)  # scaffolding: plotting cut
    # plt.xlabel('Step')  # scaffolding: plotting cut
    # plt.ylabel('Sample Value')  # scaffolding: plotting cut
    # plt.title('Trace of Samples')  # scaffolding: plotting cut
    # plt.show()  # scaffolding: plotting cut

    _report({'jit(step)'}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
