# source: https://github.com/kazewong/flowMC/pull/33
# expect: none
# runtime: COMPILES 1 CALLS 38
# why: the sampler calls the jitted, vmapped mala_update in a Python loop with the step index i as a plain int; i is traced (same weak int32 type every step), so 38 calls over two sampling runs compile mala_update once.
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
# kazewong/flowMC PR #33 (issue #30 "Compiling local sampler is slow"): MALA.py before the PR, the Python-loop sampler
import jax
import jax.numpy as jnp
from jax import grad
from tqdm import tqdm

def mala_kernel(rng_key, logpdf, d_logpdf, position, log_prob, dt=0.1):

    key1, key2 = jax.random.split(rng_key)
    proposal = position + dt * d_logpdf(position)
    proposal +=  jnp.sqrt(2 * dt) * jax.random.normal(key1, shape=position.shape)
    ratio = logpdf(proposal) - logpdf(position)
    ratio -= ((position - proposal - dt * d_logpdf(proposal)) ** 2 / (4 * dt)).sum()
    ratio += ((proposal - position - dt * d_logpdf(position)) ** 2 / (4 * dt)).sum()
    proposal_log_prob = logpdf(proposal)

    log_uniform = jnp.log(jax.random.uniform(key2))
    do_accept = log_uniform < ratio

    position = jnp.where(do_accept, proposal, position)
    log_prob = jnp.where(do_accept, proposal_log_prob, log_prob)
    return position, log_prob, do_accept

mala_kernel_vec = jax.vmap(mala_kernel, in_axes=(0, None, None, 0, 0, None))


def make_mala_update(logpdf, d_logpdf, dt):
    def mala_update(i,state):
        key, positions, log_prob, acceptance = state
        _, key = jax.random.split(key)
        new_position, new_log_prob, do_accept = mala_kernel(key, logpdf,
                                                                d_logpdf,
                                                                positions[i-1],
                                                                log_prob[i-1],
                                                                dt)
        positions = positions.at[i].set(new_position)
        log_prob = log_prob.at[i].set(new_log_prob)
        acceptance = acceptance.at[i].set(do_accept)
        return (key, positions, log_prob, acceptance)

    mala_update = jax.jit(jax.vmap(mala_update, in_axes=(None,(0,0,0,0))))

    return mala_update

def make_mala_sampler(logpdf, d_logpdf, dt=1e-5):
    mala_update = make_mala_update(logpdf, d_logpdf, dt)
    # Somehow if I define the function inside the other function,
    # I think it doesn't use the cache and recompile everytime.

    def mala_sampler(rng_key, n_steps, logpdf, d_logpdf, initial_position,dt):


        logp = jax.vmap(logpdf)(initial_position)
        n_chains = rng_key.shape[0]
        acceptance = jnp.zeros((n_chains,n_steps,))
        all_positions = jnp.zeros((n_chains, n_steps,)+initial_position.shape[-1:]) + initial_position[:,None]
        all_logp = jnp.zeros((n_chains,n_steps,)) + logp[:,None]
        state = (rng_key, all_positions, all_logp, acceptance)
        # Lax for loop takes a long time to compile and end up being slower
        for i in tqdm(range(1, n_steps),desc='Sampling Locally',miniters=int(n_steps/10)):
            state = mala_update(i, state)
        # rng_key, all_positions, all_logp, acceptance = jax.lax.fori_loop(1, n_steps, 
        #                                             mala_update,
        #                                             initial_state)
        
        
        return state

    return mala_sampler




def logpdf(x):  # scaffolding: the thread's gravitational-wave likelihood is not shown
    return -0.5 * jnp.sum(x**2)


d_logpdf = grad(logpdf)  # scaffolding
n_chains, n_dim, n_steps = 4, 3, 20  # scaffolding: cut down
mala_sampler = make_mala_sampler(logpdf, d_logpdf, dt=1e-2)  # scaffolding
for seed in (0, 1):  # scaffolding: two sampling runs
    rng_key = jax.random.split(jax.random.PRNGKey(seed), n_chains)  # scaffolding
    initial_position = jax.random.normal(jax.random.PRNGKey(10 + seed), (n_chains, n_dim))  # scaffolding
    state = mala_sampler(rng_key, n_steps, logpdf, d_logpdf, initial_position, 1e-2)  # scaffolding
jax.block_until_ready(state)  # scaffolding
_report({"jit(mala_update)"}, 2 * (n_steps - 1))  # scaffolding
