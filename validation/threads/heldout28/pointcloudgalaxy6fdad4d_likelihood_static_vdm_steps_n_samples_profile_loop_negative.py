# source: https://github.com/smsharma/point-cloud-galaxy-diffusion/commit/6fdad4d58a751556aa63a4d3b1691a25abb3ffc9
# expect: none
# runtime: COMPILES 1 CALLS 120
# why: the later likelihood is jitted with static_argnums=(0, 5, 6), i.e. only the flax module vdm and the ints steps and n_samples (passed by keyword) are static, while rng and the params dict are traced; the profile loops call it 120 times over parameter grids and it compiles once.
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

# ---- inference/likelihood.py (6fdad4d) ----
import sys

# sys.path.append("../")  # scaffolding: repository paths not needed
from functools import partial
import jax
import jax.numpy as np


def elbo(vdm, params, rng, x, conditioning, mask, steps=2, unroll_loop=False):
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


@partial(jax.jit, static_argnums=(0, 5, 6))
def likelihood(vdm, rng, restored_state_params, x_test, params, steps=6, n_samples=2):
    x_test = np.repeat(np.array([x_test]), n_samples, 0)
    theta_test = np.repeat(np.array([params]), n_samples, 0)
    return -elbo(
        vdm=vdm,
        params=restored_state_params,
        rng=rng,
        x=x_test,
        conditioning=theta_test,
        mask=np.ones_like(x_test[..., 0]),
        steps=steps,
    ).mean()


# ---- infer.py (6fdad4d) ----
import sys

# sys.path.append("./inference/")  # scaffolding

import yaml
from pathlib import Path
import argparse

import jax
import jax.numpy as np
# from ml_collections.config_dict import ConfigDict  # scaffolding: not installed; the config file is not read

# from models.diffusion import VariationalDiffusionModel  # scaffolding: stand-in above
# from datasets import get_nbody_data  # scaffolding: stand-in above
# from inference.likelihood import likelihood  # scaffolding: defined above
from tqdm import tqdm




# ---- scaffolding: stand-ins for models/diffusion.py's VariationalDiffusionModel (with from_path_to_model) and datasets.get_nbody_data ----
import flax.linen as nn  # scaffolding
import numpy as vnp  # scaffolding


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

    @classmethod
    def from_path_to_model(cls, path_to_model):  # scaffolding: builds the stand-in and its params instead of loading the checkpoint
        vdm = cls(d_feature=3)  # scaffolding
        rng = jax.random.PRNGKey(42)  # scaffolding
        _, params = vdm.init_with_output({"sample": rng, "params": rng}, np.ones((1, 5, 3)), np.ones((1, 2)), np.ones((1, 5)))  # scaffolding
        return vdm, params  # scaffolding


def get_nbody_data(n_features, n_particles, split, conditioning_parameters):  # scaffolding: 4 random clouds of 5 particles, 2 parameters
    rng = vnp.random.default_rng(0)  # scaffolding
    return rng.normal(size=(4, 5, 3)).astype(vnp.float32), None, rng.uniform(0.2, 0.9, size=(4, 2)).astype(vnp.float32), None  # scaffolding


class _C:  # scaffolding: attribute access for config.data.n_features / n_particles
    class data:  # scaffolding
        n_features, n_particles = 3, 5  # scaffolding



def get_profiles(run_name, n_steps, n_elbo_samples, n_test, seed):
    path_to_model = Path(  # scaffolding: not read (stand-in model below)
        f"/n/holystore01/LABS/iaifi_lab/Lab/set-diffuser-checkpoints/cosmology/{run_name}"
    )
    path_to_profiles = Path(
        f"/n/holystore01/LABS/iaifi_lab/Lab/set-diffuser-checkpoints/cosmology/{run_name}/ll_profiles/"
    )
    # path_to_profiles.mkdir(exist_ok=True)  # scaffolding: nothing is written
    config_file = path_to_model / "config.yaml"
    if True:  # scaffolding: with open(config_file, "r") as file:
        config = _C()  # scaffolding: config = yaml.safe_load(file)
        # config = ConfigDict(config)  # scaffolding

    x, _, conditioning, norm_dict = get_nbody_data(
        n_features=config.data.n_features,
        n_particles=config.data.n_particles,
        split="test",
        conditioning_parameters=["Omega_m", "sigma_8"],
    )

    rng = jax.random.PRNGKey(seed)
    rng, spl = jax.random.split(rng)

    vdm, restored_params = VariationalDiffusionModel.from_path_to_model(
        path_to_model=path_to_model
    )

    sigma_8_ary = np.linspace(0.6, 1.0, 30)
    omega_m_ary = np.linspace(0.1, 0.5, 30)

    # Get Omega_m
    log_like_cov = []
    for idx in tqdm(range(n_test)):
        log_like = []
        x_test = x[idx]
        for omega_m in omega_m_ary:
            theta_test = np.array([omega_m, conditioning[idx][1]])
            log_like.append(
                likelihood(
                    vdm,
                    rng,
                    restored_params,
                    x_test,
                    theta_test,
                    steps=n_steps,
                    n_samples=n_elbo_samples,
                )
            )
        log_like_cov.append(log_like)
    log_like_cov = np.array(log_like_cov)

    # Get sigma_8
    log_like_cov_s8 = []
    for idx in tqdm(range(n_test)):
        log_like = []
        x_test = x[idx]
        for sigma_8 in sigma_8_ary:
            theta_test = np.array([conditioning[idx][0], sigma_8])
            log_like.append(
                likelihood(
                    vdm,
                    rng,
                    restored_params,
                    x_test,
                    theta_test,
                    steps=n_steps,
                    n_samples=n_elbo_samples,
                )
            )
        log_like_cov_s8.append(log_like)
    log_like_cov_s8 = np.array(log_like_cov_s8)

    print(log_like_cov.shape, log_like_cov_s8.shape)  # scaffolding: instead of saving
    dict(  # scaffolding: np.savez(path_to_profiles / ..., ...) -> not written
        # path_to_profiles / f"log_like_cov_{seed}.npz",  # scaffolding
        log_like_cov=log_like_cov,
        log_like_cov_s8=log_like_cov_s8,
        omega_m_ary=omega_m_ary,
        sigma_8_ary=sigma_8_ary,
    )


if __name__ == "__main__":
    print("{} devices visible".format(jax.device_count()))

    # Read from command line

    parser = argparse.ArgumentParser()
    parser.add_argument("--run_name", type=str, default="gallant-cherry-87")
    parser.add_argument("--n_steps", type=int, default=50)
    parser.add_argument("--n_elbo_samples", type=int, default=16)
    parser.add_argument("--n_test", type=int, default=32)
    parser.add_argument("--seed", type=int, default=42)

    args = parser.parse_args(["--n_test", "2"])  # scaffolding: 2 test clouds instead of 32

    get_profiles(
        run_name=args.run_name,
        n_steps=args.n_steps,
        n_elbo_samples=args.n_elbo_samples,
        n_test=args.n_test,
        seed=args.seed,
    )

_report({"jit(likelihood)"}, 2 * 2 * 30)  # scaffolding: two profiles x n_test=2 clouds x 30 grid points
