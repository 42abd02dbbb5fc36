# source: https://github.com/smsharma/point-cloud-galaxy-diffusion/commit/9f973109ce8d4bc43a75a19ba5a67c60c8910b09
# expect: unhashable-static at line 146
# runtime: ERROR ValueError
# why: likelihood is jitted with static_argnums=(0, 1, 2), so vdm, rng and restored_state (passed by keyword from the numpyro model) are hashed as static arguments; the flax TrainState holds a params dict (and rng is an array), so the first SVI call raises ValueError: Non-hashable static arguments.
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

# ---- inference/infer.py (parent of 9f97310): imports, elbo, priors, likelihood, get_model ----
import sys

# sys.path.append("../")  # scaffolding: the repository modules are not imported (stand-ins below)
from functools import partial
import jax
import jax.numpy as np
from flax.core import FrozenDict
# from ml_collections.config_dict import ConfigDict  # scaffolding: ml_collections is not installed; the config file is not read
from flax.core import FrozenDict
from flax.training import train_state, checkpoints
import numpy as vnp
import yaml
import optax
import numpyro
import numpyro.distributions as dist
from numpyro import optim
from numpyro.infer import SVI, Trace_ELBO, autoguide

# from datasets import load_data, get_nbody_data  # scaffolding: the N-body data needs a download; stand-in data below
# from models.diffusion import VariationalDiffusionModel  # scaffolding: a small stand-in model below
# from models.train_utils import create_input_iter, param_count, StateStore, train_step  # scaffolding: unused by the inference code kept here


def elbo(vdm, params, rng, x, conditioning, mask, steps=10, unroll_loop=True):
    rng, spl = jax.random.split(rng)
    cond = vdm.apply(params, conditioning, method=vdm.embed)
    f = vdm.apply(params, x, conditioning, method=vdm.encode)
    loss_recon = vdm.apply(
        params, x, f, conditioning, rngs={"sample": rng}, method=vdm.recon_loss
    )
    loss_klz = vdm.apply(params, f, method=vdm.latent_loss)
    if not unroll_loop:

        def body_fun(i, val):
            loss, rng = val
            rng, spl = jax.random.split(rng)
            new_loss = vdm.apply(
                params,
                np.array([i / steps]),
                f,
                cond,
                mask,
                rngs={"sample": spl},
                method=vdm.diffusion_loss,
            )
            return (loss + (new_loss * mask[..., None]).sum((-1, -2)) / steps, rng)

        loss_diff, rng = jax.lax.fori_loop(
            0, steps, body_fun, (np.zeros(x.shape[0]), rng)
        )
    else:
        loss_diff, rng = (np.zeros(x.shape[0]), rng)
        for i in range(steps):
            rng, spl = jax.random.split(rng)
            new_loss = vdm.apply(
                params,
                np.array([i / steps]),
                f,
                cond,
                mask,
                rngs={"sample": spl},
                method=vdm.diffusion_loss,
            )
            loss_diff = loss_diff + (new_loss * mask[..., None]).sum((-1, -2)) / steps
    return (
        (loss_recon * mask[..., None]).sum((-1, -2))
        + (loss_klz * mask[..., None]).sum((-1, -2))
        + loss_diff
    )


def prior_cube(u):
    priors = np.array([[0.1, 0.5], [0.6, 1.0]])
    priors_lo = priors[:, 0]
    priors_interval = priors[:, 1] - priors[:, 0]
    for i in range(len(u) - 1):
        u[i] = u[i] * priors_interval[i] + priors_lo[i]
    return u


def log_prior(theta):
    Omega_m, sigma_8 = theta
    if 0.1 < Omega_m < 0.5 and 0.6 < sigma_8 < 1.0:
        return 0.0
    return -np.inf


@partial(
    jax.jit,
    static_argnums=(
        0,
        1,
        2,
    ),
)
def likelihood(vdm, rng, restored_state, x_test, params, n_samples=2):
    x_test = np.repeat(np.array([x_test]), n_samples, 0)
    theta_test = np.repeat(np.array([params]), n_samples, 0)
    print("got to elbo")
    return -elbo(
        vdm,
        restored_state.params,
        rng,
        x_test,
        theta_test,
        np.ones_like(x_test[..., 0]),
    ).mean()


def get_model(
    vdm,
    restored_state,
    rng,
):
    def model(x_test, n_samples=2):
        # Omega_m and sigma_8 prior distributions
        params = numpyro.sample(
            "params", dist.Uniform(np.array([0.1, 0.6]), np.array([0.5, 1.0]))
        )
        log_like = likelihood(
            vdm=vdm,
            rng=rng,
            restored_state=restored_state,
            x_test=x_test,
            params=params,
            n_samples=n_samples,
        )
        return numpyro.factor("log_like", log_like)

    return model

# ---- scaffolding: a small stand-in for models/diffusion.py's VariationalDiffusionModel (methods used by elbo) and for the
# ---- trained checkpoint and N-body data that load_diffusion_model / load_data_for_inference read from disk
import flax.linen as nn  # scaffolding


class VariationalDiffusionModel(nn.Module):  # scaffolding: same method names as the repository's VDM, tiny bodies
    d_feature: int = 3  # scaffolding

    def setup(self):  # scaffolding
        self.embed_layer = nn.Dense(4)  # scaffolding
        self.encoder = nn.Dense(self.d_feature)  # scaffolding
        self.score = nn.Dense(self.d_feature)  # scaffolding

    def __call__(self, x, conditioning, mask):  # scaffolding
        return self.diffusion_loss(np.array([0.5]), self.encode(x, conditioning), self.embed(conditioning), mask)  # scaffolding

    def embed(self, conditioning):  # scaffolding
        return self.embed_layer(conditioning)  # scaffolding

    def encode(self, x, conditioning):  # scaffolding
        return self.encoder(x)  # scaffolding

    def recon_loss(self, x, f, conditioning):  # scaffolding
        eps = jax.random.normal(self.make_rng("sample"), f.shape)  # scaffolding
        return (x - (f + 0.01 * eps)) ** 2  # scaffolding

    def latent_loss(self, f):  # scaffolding
        return 0.5 * f ** 2  # scaffolding

    def diffusion_loss(self, t, f, cond, mask):  # scaffolding
        eps = jax.random.normal(self.make_rng("sample"), f.shape)  # scaffolding
        z_t = np.sqrt(1 - t) * f + np.sqrt(t) * eps  # scaffolding
        return (self.score(z_t) + 0.0 * cond.sum() - eps) ** 2  # scaffolding


def load_data_for_inference(config):  # scaffolding: N-body point clouds stand-in, 8 clouds of 5 particles with 3 features
    return vnp.random.default_rng(0).normal(size=(8, 5, 3)).astype(vnp.float32)  # scaffolding


def load_diffusion_model(config):  # scaffolding: builds the stand-in VDM and a TrainState as the checkpoint would
    vdm = VariationalDiffusionModel(d_feature=3)  # scaffolding
    rng = jax.random.PRNGKey(42)  # scaffolding: as in the original
    _, params = vdm.init_with_output({"sample": rng, "params": rng}, np.ones((1, 5, 3)), np.ones((1, 2)), np.ones((1, 5)))  # scaffolding
    tx = optax.adamw(learning_rate=1e-3, weight_decay=1e-4)  # scaffolding
    restored_state = train_state.TrainState.create(apply_fn=vdm.apply, params=params, tx=tx)  # scaffolding
    return vdm, restored_state, rng  # scaffolding


# ---- inference/infer.py: the script part ----
import sys  # scaffolding
sys.excepthook = lambda t, e, tb: print(f"ERROR {t.__name__}")  # scaffolding: the script runs at module level
if __name__ == "__main__":
    print("{} devices visible".format(jax.device_count()))
    # logging_dir = "/n/holyscratch01/iaifi_lab/ccuesta/checkpoints/"  # scaffolding: no checkpoint here
    # run_name = "warm-flower-77"  # wandb run name  # scaffolding
    # config_file = "{}/{}/config.yaml".format(logging_dir, run_name)  # scaffolding
    if True:  # scaffolding: with open(config_file, "r") as file:
        config = None  # scaffolding: config = yaml.safe_load(file)
        # config = ConfigDict(config)  # scaffolding
    n_steps = 5  # scaffolding: 1000 in the script
    lr = 1e-2

    fit_idx = 3  # scaffolding: 421 in the script (8 stand-in clouds)
    x = load_data_for_inference(config)
    x_test = x[fit_idx]
    vdm, restored_state, rng = load_diffusion_model(config)
    model = get_model(
        vdm=vdm,
        restored_state=restored_state,
        rng=rng,
    )
    guide = autoguide.AutoMultivariateNormal(model)
    optimizer = optim.optax_to_numpyro(optax.sgd(lr))
    svi = SVI(
        model,
        guide,
        optimizer,
        Trace_ELBO(num_particles=1),
    )
    svi_results = svi.run(rng, n_steps, x_test)

    num_samples = 100  # scaffolding: 10_000 in the script

    rng, _ = jax.random.split(rng)
    posterior_dict = guide.sample_posterior(
        rng_key=rng, params=svi_results.params, sample_shape=(num_samples,)
    )

    print(posterior_dict)
    post = vnp.array(posterior_dict["params"])

_report({"jit(body_fn)"}, n_steps)  # scaffolding: SVI.run jits its update step (body_fn) and calls it n_steps times
