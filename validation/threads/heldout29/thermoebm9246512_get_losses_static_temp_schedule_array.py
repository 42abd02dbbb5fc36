# source: https://github.com/PritRaj1/JAX-ThermoEBM/commit/92465125de90cf8db32010bdc1e3cf484e9ce655
# expect: unhashable-static at line 687; trace-time-error at line 527
# runtime: ERROR ValueError
# why: get_losses marks temp_schedule static, but Trainer passes the jax array temp['schedule'], so the first train step raises ValueError (non-hashable static argument); update_params would next fail on the optimisers passed as traced arguments.
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


import torch
from torch.utils.data import DataLoader, TensorDataset
import tqdm
import jax
import jax.numpy as jnp
import optax


# ---- scaffolding: stand-ins for packages that are not installed (tensorboardX, torchmetrics, pypapi) ----
class SummaryWriter:  # scaffolding: tensorboardX.SummaryWriter
    def __init__(self, log_path):  # scaffolding
        self.log_path = log_path  # scaffolding

    def add_scalar(self, *args, **kwargs):  # scaffolding
        pass  # scaffolding


class _Metric:  # scaffolding: torchmetrics image metrics (only constructed in Trainer.__init__)
    def __init__(self, *args, **kwargs):  # scaffolding
        pass  # scaffolding


FrechetInceptionDistance = MemorizationInformedFrechetInceptionDistance = KernelInceptionDistance = LearnedPerceptualImagePatchSimilarity = _Metric  # scaffolding


# ---- src/models/PriorModel.py (parent of 9246512) ----
import flax.linen as nn


class EBM(nn.Module):
    hidden_units: int
    output_dim: int
    leak_coef: float

    @nn.compact
    def __call__(self, z):
        f = nn.activation.leaky_relu
        z = z.squeeze()
        z = nn.Dense(self.hidden_units)(z)
        z = f(z, self.leak_coef)
        z = nn.Dense(self.hidden_units)(z)
        z = f(z, self.leak_coef)
        z = nn.Dense(self.output_dim)(z)

        return z.reshape((-1, self.output_dim, 1, 1))


# ---- src/models/GeneratorModel.py (parent of 9246512) ----
import flax.linen as nn

class GEN(nn.Module):
    feature_dim: int
    output_dim: int
    image_dim: int
    leak_coef: float

    @nn.compact
    def __call__(self, z):
        f = nn.activation.leaky_relu
        z = nn.ConvTranspose(self.feature_dim * 16, kernel_size=[4, 4], strides=[1, 1], padding='VALID')(z)
        z = f(z, self.leak_coef)
        z = nn.ConvTranspose(self.feature_dim * 8, kernel_size=[4, 4], strides=[2, 2], padding='SAME')(z)
        z = f(z, self.leak_coef)
        z = nn.ConvTranspose(self.feature_dim * 4, kernel_size=[4, 4], strides=[2, 2], padding='SAME')(z)
        z = f(z, self.leak_coef)

        if self.image_dim == 64: # 64 x 64 images, i.e CelebA
            z = nn.ConvTranspose(self.feature_dim * 2, kernel_size=[4, 4], strides=[2, 2], padding='SAME')(z)
            z = f(z, self.leak_coef)
            z = nn.ConvTranspose( self.output_dim, kernel_size=[4, 4], strides=[2, 2], padding='SAME')(z)
            z = nn.activation.tanh(z)
        else: # 32 x 32 images, i.e. CIFAR10, SVHN
            z = nn.ConvTranspose(self.output_dim, kernel_size=[4, 4], strides=[1, 1], padding='SAME')(z)
            z = nn.activation.tanh(z)

        return z


# ---- src/MCMC_Samplers/grad_log_probs.py (parent of 9246512) ----
import jax
import jax.numpy as jnp
from functools import partial


def prior_grad_log(z, EBM_fwd, EBM_params, p0_sig):
    """
    Function to compute the gradient of the log prior: log[p_a(x)] w.r.t. z.

    Args:
    - z: latent space variable sampled from p0
    - EBM_fwd: energy-based model forward pass, --immutable
    - EBM_params: energy-based model parameters
    - p0_sig: prior sigma, --immutable

    Returns:
    - ∇_z( log[p_a(x)] )
    """
    # Find the gradient of the f_a(z) w.r.t. z
    grad_f = jax.grad(EBM_fwd)(EBM_params, z)[1]

    return grad_f - (z / (p0_sig**2))


def posterior_grad_log(
    z, x, t, EBM_fwd, EBM_params, GEN_fwd, GEN_params, pl_sig, p0_sig
):
    """
    Function to compute the gradient of the log posterior: log[ p(x | z)^t * p(z) ] w.r.t. z.

    Args:
    - z: latent space variable sampled from p0
    - x: batch of data samples
    - t: current temperature
    EBM_fwd: energy-based model forward pass, --immutable
    EBM_params: energy-based model parameters
    GEN_fwd: generator forward pass, --immutable
    GEN_params: generator parameters
    pl_sig: likelihood sigma, --immutable
    p0_sig: prior sigma, --immutable

    Returns:
    - ∇_z( log[p_θ(z | x)] ) ∝ ∇_z( log[p(x | z)^t * p(z)] )
    """

    def log_llood_fcn(z, x):
        g_z = GEN_fwd(GEN_params, z)
        return -t * (jnp.linalg.norm(x - g_z, axis=-1) ** 2) / (2.0 * pl_sig**2)

    grad_log_llood = jax.grad(log_llood_fcn)(z, x)[0]

    grad_prior = prior_grad_log(z, EBM_fwd, EBM_params, p0_sig)

    return grad_log_llood + grad_prior


# ---- src/MCMC_Samplers/sample_distributions.py (parent of 9246512) ----
import jax
import jax.numpy as jnp
from functools import partial
# from src.MCMC_Samplers.grad_log_probs import prior_grad_log, posterior_grad_log  # scaffolding: defined above in this file


def update_step(key, x, grad_f, s):
    """Update the current state of the sampler."""
    x += s * grad_f

    key, subkey = jax.random.split(key)
    x += jnp.sqrt(2 * s) * jax.random.normal(subkey, x.shape)

    return key, x


def sample_p0(key, p0_sig, batch_size, num_z):
    """Sample from the prior distribution."""

    key, subkey = jax.random.split(key)
    return key, p0_sig * jax.random.normal(subkey, (batch_size, num_z, 1, 1))


def sample_prior(
    key, EBM_fwd, EBM_params, p0_sig, step_size, num_steps, batch_size, num_z
):
    """
    Sample from the prior distribution.

    Args:
    - key: PRNG key
    - EBM_fwd: energy-based model forward pass, --immutable
    - EBM_params: energy-based model parameters
    - p0_sig: prior sigma, --immutable
    - step_size: step size, --immutable
    - num_steps: number of steps, --immutable
    - batch_size: batch size, --immutable
    - num_z: number of latent space variables, --immutable

    Returns:
    - key: PRNG key
    - z: latent space variable sampled from p_a(x)
    """

    key, z = sample_p0(key, p0_sig, batch_size, num_z)

    for k in range(num_steps):
        grad_f = prior_grad_log(z, EBM_fwd, EBM_params, p0_sig)
        key, z = update_step(key, z, grad_f, step_size)

    return key, z


def sample_posterior(
    key,
    data,
    EBM_fwd,
    EBM_params,
    GEN_fwd,
    GEN_params,
    pl_sig,
    p0_sig,
    step_size,
    num_steps,
    batch_size,
    num_z,
    temp_schedule,
):
    """
    Sample from the posterior distribution.

    Args:
    - key: PRNG key
    - data: batch of data samples
    - EBM_fwd: energy-based model forward pass, --immutable
    - EBM_params: energy-based model parameters
    - GEN_fwd: generator forward pass, --immutable
    - GEN_params: generator parameters
    - pl_sig: likelihood sigma, --immutable
    - p0_sig: prior sigma, --immutable
    - step_size: step size, --immutable
    - num_steps: number of steps, --immutable
    - batch_size: batch size, --immutable
    - num_z: number of latent space variables, --immutable
    - temp_schedule: temperature schedule, --immutable

    Returns:
    - key: PRNG key
    - z_samples: samples from the posterior distribution indexed by temperature
    """

    z_samples = jnp.zeros((len(temp_schedule), batch_size, num_z, 1, 1))

    for idx, t in enumerate(temp_schedule):
        key, z = sample_p0(key, p0_sig, batch_size, num_z)

        for k in range(num_steps):
            grad_f = posterior_grad_log(
                z, data, t, EBM_fwd, EBM_params, GEN_fwd, GEN_params, pl_sig, p0_sig
            )
            key, z = update_step(key, z, grad_f, step_size)

        z_samples = jax.ops.index_update(z_samples, idx, z)

    return key, z_samples


# ---- src/pipeline/loss_fcn.py (parent of 9246512) ----
import jax
import jax.numpy as jnp
from functools import partial

# from src.MCMC_Samplers.sample_distributions import sample_prior, sample_posterior  # scaffolding: defined above in this file


def ebm_loss(z_prior, z_posterior, EBM_fwd, EBM_params):
    """
    Function to compute energy-difference loss for the EBM model.
    """

    # Compute the energy of the posterior sample
    en_pos = EBM_fwd(EBM_params, z_posterior)

    # Compute the energy of the prior sample
    en_neg = EBM_fwd(EBM_params, z_prior)

    # Return the difference in energies
    return en_pos - en_neg


def gen_loss(key, x, z, GEN_fwd, GEN_params, pl_sig):
    """
    Function to compute MSE loss for the GEN model.
    """

    # Compute -log[ p_β(x | z) ]; max likelihood training
    key, subkey = jax.random.split(key)
    x_pred = GEN_fwd(GEN_params, z) + (pl_sig * jax.random.normal(subkey, x.shape))
    log_lkhood = (jax.linalg.norm(x - x_pred, axis=-1) ** 2) / (2.0 * pl_sig**2)

    return key, log_lkhood


def TI_EBM_loss_fcn(
    key,
    x,
    EBM_fwd,
    EBM_params,
    GEN_fwd,
    GEN_params,
    pl_sig,
    p0_sig,
    step_size,
    num_steps,
    batch_size,
    num_z,
    temp_schedule,
):
    """
    Function to compute the energy-based model loss using Thermodynamic Integration.

    Please see "discretised thermodynamic integration" using trapezoid rule
    in https://doi.org/10.1016/j.csda.2009.07.025 for details.

    Args:
    - key: PRNG key
    - x: batch of x samples
    - EBM_fwd: energy-based model forward pass, --immutable
    - EBM_params: energy-based model parameters
    - GEN_fwd: generator forward pass, --immutable
    - GEN_params: generator parameters
    - pl_sig: likelihood sigma, --immutable
    - p0_sig: prior sigma, --immutable
    - step_size: step size, --immutable
    - num_steps: number of steps, --immutable
    - batch_size: batch size, --immutable
    - num_z: number of latent space variables, --immutable
    - temp_schedule: temperature schedule, --immutable

    Returns:
    - total_loss: the total loss for the entire thermodynamic integration loop, log(p_a(z))
    """
    # Prepend 0 to the temperature schedule, for unconditional ∇T calculation
    temp_schedule = jnp.concatenate([0], temp_schedule)

    total_loss = 0

    # Generate z_posterior for all temperatures
    key, z_posterior = sample_posterior(
        key,
        x,
        EBM_fwd,
        EBM_params,
        GEN_fwd,
        GEN_params,
        pl_sig,
        p0_sig,
        step_size,
        num_steps,
        batch_size,
        num_z,
        temp_schedule,
    )

    for i in range(1, len(temp_schedule) + 1):
        key, z_prior = sample_prior(
            key, EBM_fwd, EBM_params, p0_sig, step_size, num_steps, batch_size, num_z
        )

        z_posterior_t = z_posterior[i - 1]

        loss_current = ebm_loss(z_prior, z_posterior_t, EBM_fwd, EBM_params)

        # ∇T = t_i - t_{i-1}
        delta_T = temp_schedule[i] - temp_schedule[i - 1]

        # # 1/2 * (f(x_i) + f(x_{i-1})) * ∇T
        total_loss += 0.5 * (loss_current + total_loss) * delta_T

    return total_loss, key


def TI_GEN_loss_fcn(
    key,
    x,
    EBM_fwd,
    EBM_params,
    GEN_fwd,
    GEN_params,
    pl_sig,
    p0_sig,
    step_size,
    num_steps,
    batch_size,
    num_z,
    temp_schedule,
):
    """
    Function to compute the generator loss using Thermodynamic Integration.

    Args:
    - key: PRNG key
    - x: batch of x samples
    - EBM_fwd: energy-based model forward pass, --immutable
    - EBM_params: energy-based model parameters
    - GEN_fwd: generator forward pass, --immutable
    - GEN_params: generator parameters
    - pl_sig: likelihood sigma, --immutable
    - p0_sig: prior sigma, --immutable
    - step_size: step size, --immutable
    - num_steps: number of steps, --immutable
    - batch_size: batch size, --immutable
    - num_z: number of latent space variables, --immutable
    - temp_schedule: temperature schedule, --immutable

    Returns:
    - total_loss: the total loss for the entire thermodynamic integration loop, log(p_β(x | z))
    """

    # Prepend 0 to the temperature schedule, for unconditional ∇T calculation
    temp_schedule = jnp.concatenate([0], temp_schedule)

    total_loss = 0

    # Generate z_posterior for all temperatures
    key, z_posterior = sample_posterior(
        key,
        x,
        EBM_fwd,
        EBM_params,
        GEN_fwd,
        GEN_params,
        pl_sig,
        p0_sig,
        step_size,
        num_steps,
        batch_size,
        num_z,
        temp_schedule,
    )

    for i in range(1, len(temp_schedule) + 1):

        # MSE between g(z) and x, where z ~ p_θ(z|x, t)
        key, loss_current = gen_loss(
            key, x, z_posterior[i - 1], GEN_fwd, GEN_params, pl_sig
        )

        # ∇T = t_i - t_{i-1}
        delta_T = temp_schedule[i] - temp_schedule[i - 1]

        # # 1/2 * (f(x_i) + f(x_{i-1})) * ∇T
        total_loss += 0.5 * (loss_current + total_loss) * delta_T

    return total_loss, key


# ---- src/pipeline/pipeline_steps.py (parent of 9246512) ----
import jax
from jax import value_and_grad
import optax
from functools import partial

# from src.pipeline.loss_fcn import TI_EBM_loss_fcn, TI_GEN_loss_fcn  # scaffolding: defined above in this file


@partial(jax.jit, static_argnums=(2, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14))
def get_losses(
    key,
    x,
    EBM_fwd,
    EBM_params,
    GEN_fwd,
    GEN_params,
    pl_sig,
    p0_sig,
    EBM_step_size,
    EBM_num_steps,
    GEN_step_size,
    GEN_num_steps,
    batch_size,
    num_z,
    temp_schedule,
):

    (loss_ebm, key), grad_ebm = value_and_grad(
        TI_EBM_loss_fcn, argnums=3, has_aux=True
    )(
        key,
        x,
        EBM_fwd,
        EBM_params,
        GEN_fwd,
        GEN_params,
        pl_sig,
        p0_sig,
        EBM_step_size,
        EBM_num_steps,
        batch_size,
        num_z,
        temp_schedule,
    )

    (loss_gen, key), grad_gen = value_and_grad(
        TI_GEN_loss_fcn, argnums=5, has_aux=True
    )(
        key,
        x,
        EBM_fwd,
        EBM_params,
        GEN_fwd,
        GEN_params,
        pl_sig,
        p0_sig,
        GEN_step_size,
        GEN_num_steps,
        batch_size,
        num_z,
        temp_schedule,
    )

    return key, loss_ebm, grad_ebm, loss_gen, grad_gen


@jax.jit
def updara_params(
    EBM_params,
    EBM_opt_state,
    GEN_params,
    GEN_opt_state,
    grad_ebm,
    grad_gen,
    EBM_optimiser,
    GEN_optimiser,
):

    updates, EBM_opt_state = EBM_optimiser.update(grad_ebm, EBM_opt_state)
    EBM_params = optax.apply_updates(EBM_params, updates)
    updates, GEN_opt_state = GEN_optimiser.update(grad_gen, GEN_opt_state)
    GEN_params = optax.apply_updates(GEN_params, updates)

    return EBM_params, EBM_opt_state, GEN_params, GEN_opt_state


# ---- src/pipeline/LatentEBM_Trainer.py (parent of 9246512) ----
import torch
import jax
import jax.numpy as jnp
import optax
# from tensorboardX import SummaryWriter  # scaffolding: not installed; stand-in above
from torchvision.utils import make_grid
from functools import partial

# Metrics
# from torchmetrics.image.fid import FrechetInceptionDistance  # scaffolding: not installed; stand-in above
# from torchmetrics.image.mifid import MemorizationInformedFrechetInceptionDistance  # scaffolding: not installed; stand-in above
# from torchmetrics.image.kid import KernelInceptionDistance  # scaffolding: not installed; stand-in above
# from torchmetrics.image.lpip import LearnedPerceptualImagePatchSimilarity  # scaffolding: not installed; stand-in above
# from pypapi import events, papi_high as high  # scaffolding: not installed; stand-in above

# from src.pipeline.pipeline_steps import get_losses, updara_params  # scaffolding: defined above in this file
# from src.models.PriorModel import EBM  # scaffolding: defined above in this file
# from src.models.GeneratorModel import GEN  # scaffolding: defined above in this file
# from src.MCMC_Samplers.sample_distributions import sample_p0, sample_prior  # scaffolding: defined above in this file
# from src.pipeline.loss_fcn import TI_GEN_loss_fcn  # scaffolding: defined above in this file


class Trainer:
    def __init__(self, config, log_path):

        self.key = jax.random.PRNGKey(0)
        self.config = config

        self.init_EBM()
        self.init_GEN()
        self.init_temps()

        self.tb_writer = SummaryWriter(log_path)
        self.csv_logger = None

        self.fid = FrechetInceptionDistance(feature=64, normalize=True)  # FID metric
        self.mifid = MemorizationInformedFrechetInceptionDistance(
            feature=64, normalize=True
        )  # MI-FID metric
        self.kid = KernelInceptionDistance(
            feature=64, subset_size=config["BATCH_SIZE"], normalize=True
        )  # KID metric
        self.lpips = LearnedPerceptualImagePatchSimilarity(
            net_type="alex", normalize=True
        )  # LPIPS metric

    def init_EBM(self):
        EBM_init_key = jax.random.PRNGKey(0)

        self.key, z_init = sample_p0(
            self.key,
            self.config["p0_SIGMA"],
            self.config["BATCH_SIZE"],
            self.config["NUM_Z"],
        )

        # Create the EBM model
        EBM_model = EBM(
            hidden_units=self.config["EBM_FEATURE_DIM"],
            output_dim=self.config["EMB_OUT_SIZE"],
            leak_coef=self.config["EBM_LEAK"],
        )

        # Initialise the EBM model
        self.EBM_params = EBM_model.init(EBM_init_key, z_init)

        # Initialise the EBM optimiser
        E_schedule = optax.exponential_decay(
            init_value=self.config["E_LR"],
            transition_steps=self.config["E_STEPS"],
            decay_rate=self.config["E_GAMMA"],
        )
        self.EBM_optimiser = optax.adam(learning_rate=E_schedule)

        del EBM_init_key

        def EBM_apply(params, z):
            return EBM_model.apply(params, z)

        return EBM_apply

    def init_GEN(self):
        GEN_init_key = jax.random.PRNGKey(0)

        # Create the Generator model
        GEN_model = GEN(
            feature_dim=self.config["GEN_FEATURE_DIM"],
            output_dim=self.config["CHANNELS"],
            image_dim=self.config["IMAGE_DIM"],
            leak_coef=self.config["GEN_LEAK"],
        )

        self.key, z_init = sample_p0(
            self.key,
            self.config["p0_SIGMA"],
            self.config["BATCH_SIZE"],
            self.config["NUM_Z"],
        )

        # Initialise the Generator model
        self.GEN_params = GEN_model.init(GEN_init_key, z_init)

        # Initialise the Generator optimiser
        G_schedule = optax.exponential_decay(
            init_value=self.config["G_LR"],
            transition_steps=self.config["G_STEPS"],
            decay_rate=self.config["G_GAMMA"],
        )
        self.GEN_optimiser = optax.adam(learning_rate=G_schedule)

        del GEN_init_key

        def GEN_apply(params, z):
            return GEN_model.apply(params, z)

        return GEN_apply

    def init_temps(self):

        if self.config["TEMP_POWER"] >= 1:
            print(
                "Using temperature schedule with power: {}".format(
                    self.config["TEMP_POWER"]
                )
            )
            self.temp = {
                "schedule": jnp.linspace(0, 1, self.config["NUM_TEMPS"])
                ** self.config["TEMP_POWER"],
            }

        else:
            print("Using no thermodynamic integration, defaulting to Vanilla Model")
            self.temp = {
                "schedule": jnp.array([1]),
            }

    def train(self, x, epoch, EBM_fwd, GEN_fwd):

        # Get the losses
        self.key, loss_ebm, grad_ebm, loss_gen, grad_gen = get_losses(
            self.key,
            x,
            EBM_fwd,
            self.EBM_params,
            GEN_fwd,
            self.GEN_params,
            self.config["LKHOOD_SIGMA"],
            self.config["p0_SIGMA"],
            self.config["E_STEP_SIZE"],
            self.config["E_SAMPLE_STEPS"],
            self.config["G_STEP_SIZE"],
            self.config["G_SAMPLE_STEPS"],
            self.config["BATCH_SIZE"],
            self.config["NUM_Z"],
            self.temp["schedule"],
        )

        # Update the parameters
        self.EBM_params, self.EBM_opt_state, self.GEN_params, self.GEN_opt_state = (
            updara_params(
                self.EBM_params,
                self.EBM_opt_state,
                self.GEN_params,
                self.GEN_opt_state,
                grad_ebm,
                grad_gen,
                self.EBM_optimiser,
                self.GEN_optimiser,
            )
        )

        total_loss = loss_ebm.mean() + loss_gen.mean()

        self.tb_writer.add_scalar("train_Loss/EBM", loss_ebm.mean(), epoch)
        self.tb_writer.add_scalar("train_Loss/GEN", loss_gen.mean(), epoch)
        self.tb_writer.add_scalar("train_total_loss", total_loss, epoch)
        self.tb_writer.add_scalar("train_var_grad/EBM", jnp.var(grad_ebm), epoch)
        self.tb_writer.add_scalar("train_var_grad/GEN", jnp.var(grad_gen), epoch)

        return total_loss

    # (validate, generate, log_image_metrics and profile_flops cut: not reached)  # scaffolding


# ---- scaffolding: hyperparams.input values (parsed by main.py), smaller sizes, and a random stand-in for the CIFAR10 download ----
config = {"NUM_EPOCHS": 5, "VAL_EVERY": 5, "BATCH_SIZE": 4, "NUM_TRAIN_DATA": 8, "NUM_VAL_DATA": 4,  # scaffolding: BATCH_SIZE 100, 40000/10000 images in the file
          "NUM_Z": 100, "EMB_OUT_SIZE": 1, "EBM_FEATURE_DIM": 200, "EBM_LEAK": 0.1, "p0_SIGMA": 0.2,  # scaffolding
          "CHANNELS": 3, "GEN_FEATURE_DIM": 8, "LKHOOD_SIGMA": 0.3, "GEN_LEAK": 0.2,  # scaffolding: GEN_FEATURE_DIM 128 in the file
          "E_LR": 0.0002, "G_LR": 0.001, "E_GAMMA": 0.998, "G_GAMMA": 0.998, "E_STEPS": 20, "G_STEPS": 20,  # scaffolding
          "E_STEP_SIZE": 0.4, "G_STEP_SIZE": 0.1, "E_SAMPLE_STEPS": 60, "G_SAMPLE_STEPS": 20,  # scaffolding
          "TEMP_POWER": 0, "NUM_TEMPS": 10, "IMAGE_DIM": 32}  # scaffolding
dataset = TensorDataset(torch.randn(8, 3, 32, 32), torch.zeros(8, dtype=torch.long))  # scaffolding: datasets.CIFAR10(download=True)
val_dataset = TensorDataset(torch.randn(4, 3, 32, 32), torch.zeros(4, dtype=torch.long))  # scaffolding


# ---- main.py (parent of 9246512), from the subset on ----
# Take a subset of the dataset
train_data = torch.utils.data.Subset(dataset, range(config["NUM_TRAIN_DATA"]))
val_data = torch.utils.data.Subset(val_dataset, range(config["NUM_VAL_DATA"]))

# Split dataset
test_loader = DataLoader(train_data, batch_size=config["BATCH_SIZE"], shuffle=True)
val_loader = DataLoader(val_data, batch_size=config["BATCH_SIZE"], shuffle=False)

rng = jax.random.PRNGKey(0)

Trainer = Trainer(config, "logs/")
EBM_fwd = Trainer.init_EBM()
GEN_fwd = Trainer.init_GEN()

try:  # scaffolding
    # Train the model
    tqdm_bar = tqdm.tqdm(range(config["NUM_EPOCHS"]))
    for epoch in tqdm_bar:
        train_loss = 0

        for batch in test_loader:
            x = jnp.array(batch[0].numpy())
            train_loss += Trainer.train(x, epoch, EBM_fwd, GEN_fwd)

        tqdm_bar.set_postfix({"train_loss": train_loss})
    _report({"jit(get_losses)"}, config["NUM_EPOCHS"] * len(test_loader))  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
