# source: https://github.com/AugustoPeres/diffusion/blob/c11757faaecae69a11fb512e07141c6753dceef8/diffusion/training.py
# expect: none
# runtime: COMPILES 1 CALLS 8
# why: model_training_step, batch_loss, single_example_loss and add_noise_to_image are all eqx.filter_jit and call each other, and the Python ints t_min/t_max and the optax optimizer become static; they are the same every step, the inner filter_jits are inlined, and the batch shape is fixed, so one compile serves all steps.

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
"""Model training functions"""
import os
import functools

import jax
import jax.numpy as jnp
import jax.random as jr

import optax

import equinox as eqx


@eqx.filter_jit
def add_noise_to_image(alphas, example, t, key):
    alpha_t = alphas[t]
    noise = jr.normal(key=key, shape=example.shape)
    return jnp.sqrt(alpha_t) * example + jnp.sqrt(1 - alpha_t) * noise, noise


@eqx.filter_jit
def single_example_loss(model, t_min, t_max, alphas, example, key):
    noise_key, model_key, t_key = jr.split(key, 3)
    t = jr.choice(a=jnp.array(range(t_min, t_max)), shape=(), key=t_key)
    model_input, noise = add_noise_to_image(alphas, example, t, noise_key)
    noise_prediction = model(t=t, y=model_input, key=model_key)
    return jnp.mean((noise - noise_prediction)**2)


@eqx.filter_jit
def batch_loss(model, t_min, t_max, alphas, batch, key):
    keys = jr.split(key, batch.shape[0])
    loss_fn = functools.partial(single_example_loss, model, t_min, t_max,
                                jnp.array(alphas))
    loss_fn = jax.vmap(loss_fn)
    return jnp.mean(loss_fn(batch, keys))


@eqx.filter_jit
def model_training_step(model, t_min, t_max, alphas, batch, key,
                        optimizer_state, optimizer):
    loss, grads = eqx.filter_value_and_grad(batch_loss)(model, t_min, t_max,
                                                        alphas, batch, key)
    updates, optimizer_state = optimizer.update(grads, optimizer_state)
    model = eqx.apply_updates(model, updates)
    key = jr.split(key, 1)[0]
    return loss, model, key, optimizer_state


def train_model(model,
                t_min,
                t_max,
                alphas,
                dataloader,
                key,
                learning_rate,
                num_steps,
                accumulate_batches,
                log_frequency=50,
                output_dir=None,
                model_logging_frequency=100):
    optimizer = optax.adam(learning_rate)
    if accumulate_batches > 1:
        optimizer = optax.MultiSteps(optimizer,
                                     every_k_schedule=accumulate_batches)
    optimizer_state = optimizer.init(eqx.filter(model, eqx.is_inexact_array))

    for i, batch in zip(range(num_steps), dataloader):
        loss, model, key, optimizer_state = model_training_step(
            model, t_min, t_max, alphas, batch, key, optimizer_state,
            optimizer)

        if i % log_frequency == 0:
            print(f'loss at step {i} = {loss}')

        if output_dir is not None:
            if i % model_logging_frequency == 0:
                eqx.tree_serialise_leaves(
                    os.path.join(output_dir, f'model_step_{i}.eqx'), model)
                print(f'saving model at step {i} with loss {loss}')

    return model


# diffusion/utils.py
def make_linear_betas(min_beta, max_beta, time_steps):
    """Makes the betas_0, betas_1 for every t using a linear schedule"""
    return jnp.linspace(min_beta, max_beta, time_steps)


def make_alpha_tildas(betas):
    """Makes a list with the alpha_tilda for each time step"""
    alphas = [1 - beta for beta in betas]
    alpha_tildas = []
    current = 1
    for alpha in alphas:
        current *= alpha
        alpha_tildas.append(current)
    return jnp.array(alphas), jnp.array(alpha_tildas)


class TinyModel(eqx.Module):  # scaffolding: stand-in for the UNet of diffusion/models.py
    lin: eqx.nn.Linear

    def __init__(self, key):
        self.lin = eqx.nn.Linear(1 + 28 * 28, 28 * 28, key=key)

    def __call__(self, t, y, *, key=None):
        h = jnp.concatenate([jnp.atleast_1d(t).astype(y.dtype), y.reshape(-1)])
        return self.lin(h).reshape(y.shape)


def dataloader():  # scaffolding: stand-in for data.load_images_from_directory (fixed batch size)
    k = jr.PRNGKey(1)
    while True:
        k, sub = jr.split(k)
        yield jr.uniform(sub, (16, 1, 28, 28)) * 2 - 1


key = jr.PRNGKey(0)  # scaffolding: scripts/train.py main() with its flag defaults
model_key, training_key = jr.split(key)
model = TinyModel(model_key)
betas = make_linear_betas(10e-4, 0.02, 1000)
alphas, alpha_tildas = make_alpha_tildas(betas)
n_steps = 8  # scaffolding: num_training_iterations 1000 cut to 8
model = train_model(model, 0, 1000, alpha_tildas, dataloader(), training_key,
                    1e-4, n_steps, 1, 50, None, 300)
_report({"jit(model_training_step)", "jit(batch_loss)", "jit(single_example_loss)",
         "jit(add_noise_to_image)"}, n_steps)
