# source: https://github.com/MatthewQuenneville/tinymcmc/blob/0f314ea11d9a17350ab270eb6c5633f0b954d752/examples/example_ebm.py
# expect: none
# runtime: COMPILES 2 CALLS 10
# why: The energy-based-model example passes a fresh lambda as the static E_dist of the jitted tinymcmc.step_mala on every MALA step, but only inside the jitted sampling_step (n_steps a static default), which is traced once, so the training loop compiles sampling_step and get_train_grads once each.

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
import jax.numpy as jnp
import jax.random as jrandom
import jax
from functools import partial


# --- tinymcmc/tinymcmc.py: step_mala (docstring dropped) ---
@partial(jax.jit, static_argnames=('E_dist', 'metropolize'))
def step_mala(key, E_dist, samples, proposal_std, 
              bounds = (-jnp.inf, jnp.inf), metropolize = True,
              noise_scale = 1.0):
    E_grad = jax.vmap(jax.grad(E_dist))

    key_step, key_accept = jrandom.split(key, 2)

    proposal = samples
    proposal = proposal - 0.5*proposal_std**2*E_grad(samples)
    proposal = proposal + noise_scale * \
        jrandom.normal(key_step, shape=samples.shape)*proposal_std

    def E_q(xp, x):
        return 1/2/proposal_std**2*jnp.einsum('i...->i',(xp-x+0.5*proposal_std**2*E_grad(x))**2)

    # Metropolis-Hastings acceptance/Rejection
    if metropolize:
        log_alpha = E_dist(samples) - E_dist(proposal) - (E_q(samples, proposal) - E_q(proposal, samples))
        alpha = jnp.exp(jnp.minimum(log_alpha,0.))
        accept = jrandom.uniform(key_accept, minval=0, maxval=1, shape = alpha.shape)<alpha
    else:
        accept = jnp.ones(samples.shape[0], dtype=bool)

    # Enforce bound constraints
    out_of_bounds = jnp.logical_or(proposal>bounds[1],
                                   proposal<bounds[0])
    for i in samples.shape[1:]:
        out_of_bounds = jnp.any(out_of_bounds, axis=-1)
    
    accept = jnp.where(out_of_bounds, False, accept)
    for i in samples.shape[1:]:
        accept = jnp.repeat(accept[...,jnp.newaxis], i, axis=-1)
    samples = jnp.where(accept, proposal, samples)
    return samples
    


class tinymcmc:  # scaffolding: stands for `import tinymcmc`
    step_mala = staticmethod(step_mala)


# --- examples/example_ebm.py (plotting cut) ---
import jax.random as jrandom
import jax.numpy as jnp
import jax
from flax import linen as nn
import optax
import numpy as np
from functools import partial

# Generate dataset
n_data = 10000
key = jrandom.key(0)

key, key_normal, key_choice = jrandom.split(key, 3)
data = jrandom.normal(key, shape=(n_data,2)) \
    + jrandom.choice(key_choice, 
                     jnp.array([[-5.,-5.],[-5.,5.],[5., 5.],[5.,-5.]]),
                     shape=(n_data,),
                     p=jnp.array([0.1, 0.2, 0.3, 0.4]))

# Initialize model
n_hidden = 5
hidden_size = 25

class MLP(nn.Module):
    hidden_size: int
    n_hidden: int

    @nn.compact
    def __call__(self, x):
        for i in range(self.n_hidden):
            x = nn.Dense(self.hidden_size)(x)
            x = nn.swish(x)
        x = nn.Dense(1,use_bias=False)(x)
        return x

model = MLP(hidden_size=hidden_size, n_hidden=n_hidden)
key, key_params = jrandom.split(key,2)
params = model.init(key_params, jnp.ones([1, 2]))

# Initialize samples
bounds = (-15,15)
batch_size = 100

key, key_sample = jrandom.split(key,2)
samples = jrandom.uniform(key_sample, shape=(batch_size, 2), minval=bounds[0], maxval=bounds[1])

# Define training and sampling update
@jax.jit
def get_train_grads(params, data_batch, sample_batch):
    def loss_fn(p):
        return jnp.mean(model.apply(p, data_batch)) \
            - jnp.mean(model.apply(p, sample_batch))
    grad_loss = jax.grad(loss_fn)
    grads = grad_loss(params)
    return grads

@partial(jax.jit, static_argnames=('n_steps'))
def sampling_step(params, samples, key, step_size=0.1, n_steps=10):
    for i in range(n_steps):
        key, key_step = jrandom.split(key, 2)
        samples = tinymcmc.step_mala(
            key_step, 
            lambda x: model.apply(params, x)[0],
            samples,
            step_size, bounds=bounds, metropolize=False)
    return samples

# Initialize and train optimizer
learning_rate = 0.00005
optimizer = optax.adam(learning_rate)
opt_state = optimizer.init(params)

N_CALLS = 0  # scaffolding
for i in range(5):  # scaffolding: tqdm.tqdm(range(5000))
    key, key_sample, key_batch, key_tempering = jrandom.split(key, 4)
    samples = sampling_step(params, samples, key_sample)
    data_batch = data[jrandom.choice(key_batch, n_data, shape=(batch_size,), replace=False)]
    grads = get_train_grads(params, data_batch, samples)
    updates, opt_state = optimizer.update(grads, opt_state)
    params = optax.apply_updates(params, updates)
    N_CALLS += 2  # scaffolding: sampling_step and get_train_grads

_report({"jit(sampling_step)", "jit(get_train_grads)"}, N_CALLS)
