# source: https://github.com/drclab/drclab.github.io/blob/c8fcf198dd88489ef12921da9e5cea66a4ecabe6/content/posts/mcmc/mcmc-102.md
# expect: none
# runtime: COMPILES 2 CALLS 5
# why: MCMC 101's @jit leapfrog takes num_steps as a traced argument but only uses it as a lax.fori_loop bound (which becomes a while_loop), so two trajectory lengths reuse one compile; MCMC 102's run_chain keeps num_samples/num_steps static and a float step_size traced, so tuning step_size does not recompile.

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
import numpy as np

precision = jnp.array([[1.4, 0.6],
                       [0.6, 1.8]], dtype=jnp.float32)
target_mean = jnp.array([1.0, -1.0], dtype=jnp.float32)

def log_prob(position):
    """Log-density (up to a constant) of the correlated Gaussian."""
    centered = position - target_mean
    return -0.5 * centered @ (precision @ centered)

def potential_energy(position):
    return -log_prob(position)

grad_U = jax.grad(potential_energy)

from jax import lax, jit

@jit
def leapfrog(position, momentum, step_size, num_steps):
    """Run num_steps leapfrog updates starting from (position, momentum)."""
    # First half-step kick updates momentum using the current gradient.
    momentum = momentum - 0.5 * step_size * grad_U(position)

    def body(_, state):
        q, p = state
        # Full position move using the up-to-date momentum.
        q = q + step_size * p
        # Full momentum kick using the gradient at the new position.
        p = p - step_size * grad_U(q)
        return q, p

    # Repeat the middle updates num_steps - 1 times.
    position, momentum = lax.fori_loop(
        0, num_steps - 1, body, (position, momentum)
    )

    # Final position move and half-step kick mirror the opening moves.
    position = position + step_size * momentum
    momentum = momentum - 0.5 * step_size * grad_U(position)

    # Return the negated momentum so the path can be retraced exactly.
    return position, -momentum

test_q = jnp.array([3.0, 3.0], dtype=jnp.float32)
test_p = jnp.array([0.2, -0.4], dtype=jnp.float32)
proposal_q, proposal_p = leapfrog(test_q, test_p, step_size=0.3, num_steps=5)
print("Proposed q:", proposal_q)
print("Proposed p:", proposal_p)
back_q, back_p = leapfrog(proposal_q, -proposal_p, step_size=0.3, num_steps=7)  # scaffolding: a second trajectory length

from functools import partial
from jax import jit, lax, random
import jax.numpy as jnp

@partial(jit, static_argnames=("num_steps",))
def hmc_step(rng_key, position, step_size, num_steps):
    """Single HMC transition using fresh momentum."""
    key_momentum, key_accept = random.split(rng_key)
    momentum = random.normal(key_momentum, shape=position.shape)

    proposal_q, proposal_p = leapfrog(position, momentum, step_size, num_steps)

    current_U = potential_energy(position)
    current_K = 0.5 * jnp.dot(momentum, momentum)
    proposed_U = potential_energy(proposal_q)
    proposed_K = 0.5 * jnp.dot(proposal_p, proposal_p)

    log_accept = current_U + current_K - proposed_U - proposed_K
    accept_prob = jnp.minimum(1.0, jnp.exp(log_accept))

    next_position = lax.cond(
        random.uniform(key_accept) < accept_prob,
        lambda _: proposal_q,
        lambda _: position,
        operand=None,
    )

    return next_position, accept_prob

import numpy as np

@partial(jit, static_argnames=("num_samples", "num_steps"))
def run_chain(rng_key, initial_position, num_samples, step_size, num_steps):
    def transition(position, key):
        next_position, accept_prob = hmc_step(key, position, step_size, num_steps)
        return next_position, (next_position, accept_prob)

    keys = random.split(rng_key, num_samples)
    final_position, (positions, accept_probs) = lax.scan(
        transition, initial_position, keys
    )
    return positions, accept_probs

num_samples = 400  # scaffolding: 2000 -> 400
num_warmup = 100  # scaffolding: 500 -> 100
step_size = 0.28
num_steps = 5

rng_key = random.PRNGKey(8)
initial_position = jnp.array([3.0, 3.0], dtype=jnp.float32)

for step_size in (0.2, 0.28, 0.35):  # scaffolding: the post's suggested step-size tuning
    trajectory, accept_probs = run_chain(
        rng_key, initial_position, num_samples, step_size, num_steps
    )

    samples = np.array(trajectory[num_warmup:])
    accept_rate = float(np.array(accept_probs[num_warmup:]).mean())
    print("Acceptance rate:", round(accept_rate, 3))
_report({"jit(leapfrog)", "jit(run_chain)"}, 5)  # scaffolding: 2 leapfrog + 3 run_chain calls
