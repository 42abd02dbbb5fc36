# source: https://github.com/StefanSko/Laplacean/commit/3909939e930eddff8e24fb093fb68d5c23a6cbb8
# expect: trace-time-error at line 122
# runtime: ERROR TypeError
# why: run_hmc's scan body receives a JaxHMCInput in its carry but returns the JaxHMCOuput made by hmc_step, so tracing the body raises TypeError (carry input and output must have the same pytree structure).
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



from typing import Callable
import jax
import jax.numpy as jnp
from jaxtyping import Array, Float
# import jax_dataclasses as jdc  # scaffolding: jax_dataclasses is not installed; stand-in below
import dataclasses as _dc  # scaffolding


class jdc:  # scaffolding: jax_dataclasses.pytree_dataclass = a dataclass whose fields are all pytree children
    @staticmethod
    def pytree_dataclass(cls):  # scaffolding
        cls = _dc.dataclass(frozen=True)(cls)  # scaffolding
        return jax.tree_util.register_dataclass(cls, data_fields=[f.name for f in _dc.fields(cls)], meta_fields=[])  # scaffolding


import jax.random as random

# import seaborn as sns  # scaffolding: plotting libraries not installed
# import matplotlib.pyplot as plt  # scaffolding: plotting libraries not installed

# Define type annotations for clarity
PotentialFn = Callable[[Array], float]
GradientFn = Callable[[Array], Array]

@jdc.pytree_dataclass
class JaxHMCInput:
    epsilon: float
    L: int
    current_q: Array
    key: Array

@jdc.pytree_dataclass
class JaxHMCOuput:
    q: Array
    key: Array

class HMCProtocol:

    def hmc(self, input: JaxHMCInput) -> JaxHMCOuput:
        pass

    def run_hmc(self, input: JaxHMCInput, num_samples: int) -> Array:
        pass

class JaxHMC:

    def __init__(self, U: PotentialFn, grad_U: GradientFn):
        self.U = U
        self.grad_U = grad_U

    def hmc_step(self, input: JaxHMCInput) -> JaxHMCOuput:
        q = input.current_q
        key, subkey = random.split(input.key)
        p = random.normal(subkey, q.shape)
        epsilon = input.epsilon
        L = input.L
        current_p = p
        # Make a half step for momentum at the beginning
        p = p - epsilon * self.grad_U(q) / 2

        def loop_body(_, carry):
            q, p = carry
            # Make a full step for the position
            q = q + epsilon * p
            # Make a full step for the momentum
            p = p - epsilon * self.grad_U(q)
            return q, p

        q, p = jax.lax.fori_loop(0, L-1, loop_body, (q, p))
        
        # Make a half step for momentum at the end
        q = q + epsilon * p
        p = p - epsilon * self.grad_U(q) / 2
        # Negate momentum at end of trajectory to make the proposal symmetric
        p = -p
        # Evaluate potential and kinetic energies at start and end of trajectory
        current_U = self.U(input.current_q)
        current_K = jnp.sum(current_p ** 2) / 2
        proposed_U = self.U(q)
        proposed_K = jnp.sum(p ** 2) / 2
        # Accept or reject the state at the end of trajectory, returning either
        # the position at the end of the trajectory or the initial position
        accept_prob = jnp.exp(current_U - proposed_U + current_K - proposed_K)
        key, subkey = random.split(key)
        accept = random.uniform(subkey) < accept_prob
        q_new = jax.lax.cond(accept, lambda _: q, lambda _: input.current_q, operand=None)
        return JaxHMCOuput(q=q_new, key=key)
        

    def run_hmc(self, input: JaxHMCInput, num_samples: int) -> Array:
        def body_fun(carry, _):
            #TODO: Fix the issue with JaxHMCInput and JaxHMCOuput not differing in type for the carry and output
            input, key = carry
            output = self.hmc_step(JaxHMCInput(epsilon=input.epsilon, L=input.L, current_q=input.current_q, key=key))
            return (output, output.key), output.q
        key, subkey = random.split(input.key)
        _, samples = jax.lax.scan(body_fun, (input, subkey), jnp.zeros(num_samples))
        return samples


#
# Example usage for potential energy function corresponding to a standard normal distribution with mean 0 and variance 1
# U needs to return the negative log of the density
@jax.jit
def U(q: jnp.array) -> Float:
    return 0.5 * jnp.sum(q ** 2)

@jax.jit
def grad_U(q: jnp.array) -> jnp.array:
    return jax.grad(U)(q)

initial_q = jnp.array([1.])

hmc: HMCProtocol = JaxHMC(U=U, grad_U=grad_U)
input: JaxHMCInput = JaxHMCInput(epsilon=0.1, L=10, current_q=initial_q, key=random.PRNGKey(0))
try:  # scaffolding
    samples = hmc.run_hmc(input, 1000)

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
    _report({'jit(scan)'}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
