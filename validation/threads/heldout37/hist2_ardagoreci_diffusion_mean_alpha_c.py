# source: https://github.com/ardagoreci/jax-diffusion/commit/45096164f7426616f30529a18293884866da4af7
# expect: trace-time-error at line 42
# runtime: ERROR TypeError
# why: The third attempt uses lax.dynamic_slice with slice_sizes=(timestep,) where timestep is traced; slice sizes must be static, so tracing raises (the author's own comment: 'this fails under jit').
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

T = 1000  # Number of time steps for the diffusion process
DIFFUSION_CONSTANTS = jnp.linspace(start=10**(-4),  # defines the diffusion constants as specified in (Ho et al., 2020)
                                   stop=0.02,
                                   num=T)


def _compute_mean_alpha_t(timestep):
    """Computes the mean of the alpha_ts for a given timestep."""
    alpha_array = 1 - DIFFUSION_CONSTANTS  # computes alphas
    log_alphas = jnp.log(alpha_array)  # computes the log for numerical stability

    s = jax.lax.dynamic_slice(log_alphas,
                              start_indices=(0,), slice_sizes=(timestep,))  # computes the slice for the mean
    mean_alpha_t = jnp.exp(jnp.sum(s))  # TODO: this fails under jit
    return mean_alpha_t


def diffuse_image(image, timestep, epsilon) -> jnp.ndarray:
    """Computes the corrupted image at a given timestep given the image,
    the timestep, and the epsilon.

    Note: this function is written for a single example. It is assumed
    that the pmap transformation will be used to apply it to the entire batch.
    """
    mean_alpha_t = _compute_mean_alpha_t(timestep)
    x_t = image*jnp.sqrt(mean_alpha_t) + jnp.sqrt(1-mean_alpha_t)*epsilon  # computes x_t
    return x_t


# scaffolding: stands in for the repo's jax.pmap(diffusion_train_step); the
# timestep sampling line is the repo's, the argument order of diffuse_image is
# corrected (the repo passed (images, epsilons, timesteps)).
@jax.jit
def noise_batch(key, images, epsilons):  # scaffolding
    batch_size, *_ = images.shape
    timesteps = jax.random.randint(key, minval=1, maxval=1000, shape=(batch_size,))  # Diffusion for 1000 steps
    noised_images = jax.vmap(diffuse_image)(images, timesteps, epsilons)
    return noised_images


key = jax.random.PRNGKey(0)  # scaffolding
images = jnp.ones((8, 28, 28, 1))  # scaffolding: stand-in for an MNIST batch
epsilons = jax.random.normal(key, images.shape)  # scaffolding
n_calls = 0  # scaffolding
try:  # scaffolding
    for step in range(4):
        key, sub = jax.random.split(key)
        noised = noise_batch(sub, images, epsilons)
        n_calls += 1
    _report({"jit(noise_batch)"}, n_calls)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
