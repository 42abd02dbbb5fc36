# source: https://github.com/danmackinlay/lambda_hat/blob/22f9d1746327f12d57d912cf43d0907caacc4910/llc/experiments.py
# expect: jit-in-loop-or-body at line 547
# runtime: COMPILES 3 CALLS 6000
# why: train_erm defines and jits a new step closure (capturing that run's X, Y and optimizer) on every call, and run_experiment calls it once per sweep point, so the seed sweep of one configuration compiles step again for every seed (3 compiles for 3 identical problems).
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


# ---- llc/config.py ----  # scaffolding: file marker
# llc/config.py
"""Configuration classes and default settings"""

from dataclasses import dataclass
from typing import Optional, Literal, List


@dataclass
class Config:
    # Model architecture
    in_dim: int = 32
    out_dim: int = 1
    depth: int = 1  # number of hidden layers
    widths: Optional[List[int]] = None  # per-layer widths; if None, auto-infer
    activation: Literal["relu", "tanh", "gelu", "identity"] = "relu"
    bias: bool = True
    skip_connections: bool = False
    residual_period: int = 2  # every k layers add skip if enabled
    layernorm: bool = False  # (default False; can destabilize HMC)
    init: Literal["he", "xavier", "lecun", "orthogonal"] = "he"

    # Size control
    target_params: Optional[int] = 10_000  # if provided, fix total d and infer widths
    # keep old 'hidden' for backward compatibility
    hidden: int = 300  # used only if target_params=None and widths=None

    # Data
    n_data: int = 20_000
    x_dist: Literal[
        "gauss_iso", "gauss_aniso", "mixture", "lowdim_manifold", "heavy_tail"
    ] = "gauss_iso"
    cov_decay: float = 0.95  # for anisotropy: eigvals ~ cov_decay**i
    mixture_k: int = 4
    mixture_spread: float = 2.0
    x_dim_latent: int = 2  # for low-dim manifold
    noise_model: Literal["gauss", "hetero", "student_t", "outliers"] = "gauss"
    noise_scale: float = 0.1
    hetero_scale: float = 0.1
    student_df: float = 4.0
    outlier_frac: float = 0.05
    outlier_scale: float = 2.0

    # Teacher (can differ from student)
    teacher_depth: Optional[int] = None
    teacher_widths: Optional[List[int]] = None
    teacher_activation: Optional[str] = None
    teacher_dropout_rate: float = 0.0  # stochastic teacher if >0 (only during data gen)

    # Loss / likelihood
    loss: Literal["mse", "t_regression"] = "mse"

    # Local posterior (tempering + prior)
    beta_mode: Literal["1_over_log_n", "fixed"] = "1_over_log_n"
    beta0: float = 1.0
    prior_radius: Optional[float] = None  # if set, gamma = d / prior_radius**2
    gamma: float = 1.0  # used only if prior_radius None

    # Sampling
    sampler: Literal["sgld", "hmc", "mclmc"] = "sgld"
    chains: int = 4

    # SGLD
    sgld_steps: int = 4_000
    sgld_warmup: int = 1_000
    sgld_batch_size: int = 256
    sgld_step_size: float = 1e-6
    sgld_thin: int = 20  # store every k-th draw for diagnostics only
    sgld_eval_every: int = 10  # compute full-data L_n(w) every k steps (for LLC mean)
    sgld_dtype: str = "float32"  # reduce memory

    # HMC
    hmc_draws: int = 1_000
    hmc_warmup: int = 1_000
    hmc_num_integration_steps: int = 10
    hmc_thin: int = 5  # store every k-th draw for diagnostics
    hmc_eval_every: int = 1  # compute L_n(w) every k draws (usually 1 for HMC)
    hmc_dtype: str = "float64"

    # MCLMC (unadjusted)
    mclmc_draws: int = 2_000  # post-tuning steps (MCLMC yields 1 sample per step)
    mclmc_eval_every: int = 1
    mclmc_thin: int = 10
    mclmc_dtype: str = "float64"  # keep f64 for stability (like HMC)

    # MCLMC tuning
    mclmc_tune_steps: int = 2_000  # steps used by the automatic tuner
    mclmc_diagonal_preconditioning: bool = False
    mclmc_desired_energy_var: float = 5e-4  # target EEV (per Sampling Book)
    mclmc_integrator: Literal[
        "isokinetic_mclachlan",
        "isokinetic_velocity_verlet",
        "isokinetic_yoshida",
        "isokinetic_omelyan",
    ] = "isokinetic_mclachlan"

    # (optional) adjusted MCLMC
    mclmc_adjusted: bool = False
    mclmc_adjusted_target_accept: float = 0.90  # per docs' guidance
    mclmc_grad_per_step_override: Optional[float] = None  # work accounting calibration

    # Misc
    seed: int = 42
    use_tqdm: bool = True
    progress_update_every: int = 50  # step/draw interval for bar postfix refresh
    profile_adaptation: bool = True  # time warmup/adaptation separately

    # Diagnostics and plotting
    diag_mode: Literal["none", "subset", "proj"] = (
        "proj"  # default: tiny random projections
    )
    diag_k: int = 16  # number of dimensions/projections to track
    diag_seed: int = 1234  # seed for dimension selection/projections
    max_theta_plot_dims: int = 8  # cap for plotting even if k is larger
    save_plots_prefix: Optional[str] = None  # e.g., "diag" to save PNGs

    # Artifacts and visualization saving
    artifacts_dir: str = "artifacts"  # base directory for saving artifacts
    save_plots: bool = False  # whether to save all diagnostic plots
    show_plots: bool = False  # whether to display plots (default: headless)
    auto_create_run_dir: bool = True  # create timestamped run directories
    save_manifest: bool = True  # save run configuration to manifest.txt
    save_readme_snippet: bool = True  # generate README_snippet.md
    auto_update_readme: bool = False  # auto-update README with markers (optional)


# Small test config for quick verification
TEST_CFG = Config(
    # Small model
    in_dim=4,
    out_dim=1,
    target_params=50,  # ~50 params only
    # Small data
    n_data=100,
    # Minimal sampling
    chains=2,
    sgld_steps=100,
    sgld_warmup=20,
    sgld_eval_every=5,
    sgld_thin=10,
    # Minimal HMC
    hmc_draws=50,
    hmc_warmup=20,
    hmc_thin=5,
    # Minimal MCLMC
    mclmc_draws=80,
    mclmc_tune_steps=100,
    mclmc_thin=8,
    # Enable headless plot saving for testing
    save_plots=True,
    show_plots=False,
    save_manifest=True,
    save_readme_snippet=True,
)

CFG = Config()  # Default full config


# ---- llc/models.py ----  # scaffolding: file marker
# llc/models.py
"""Model utilities for flexible MLP architectures"""

from typing import Optional, List
import jax
import jax.numpy as jnp
from jax import random


def infer_widths(
    in_dim: int,
    out_dim: int,
    depth: int,
    target_params: Optional[int],
    fallback_width: int = 128,
) -> List[int]:
    """Infer widths to hit target_params, or use fallback"""
    if target_params is None:
        return [fallback_width] * depth
    # For simplicity, use constant width h and solve approximately:
    # P(h) = (in_dim+1)h + (L-1)(h+1)h + (h+1)out_dim ≈ target_params
    L = depth
    a = L - 1  # coefficient of h^2
    b = (in_dim + 1) + (L - 1) + out_dim + 1  # coefficient of h
    if a == 0:
        h = max(1, (target_params - out_dim) // (in_dim + 1))
    else:
        disc = b * b + 4 * a * target_params
        h = int((-b + jnp.sqrt(disc)) / (2 * a))
        h = int(max(1, h))
    return [h] * L


def act_fn(name: str):
    """Activation function factory"""
    activations = {
        "relu": jax.nn.relu,
        "tanh": jnp.tanh,
        "gelu": jax.nn.gelu,
        "identity": (lambda x: x),
    }
    return activations[name]


def fan_in_init(key, shape, scheme: str, fan_in: int):
    """Weight initialization schemes"""
    if scheme == "he":
        scale = jnp.sqrt(2.0 / fan_in)
    elif scheme == "xavier":
        scale = jnp.sqrt(1.0 / fan_in)
    elif scheme == "lecun":
        scale = jnp.sqrt(1.0 / fan_in)
    elif scheme == "orthogonal":
        # Use He scaling instead of true orthogonal for robustness
        scale = jnp.sqrt(2.0 / fan_in)
        return random.normal(key, shape) * scale
    else:
        scale = 1.0
    return random.normal(key, shape) * scale


def init_mlp_params(
    key,
    in_dim: int,
    widths: List[int],
    out_dim: int,
    activation: str,
    bias: bool,
    init: str,
):
    """Initialize MLP with arbitrary depth"""
    keys = random.split(key, len(widths) + 1)
    layers = []
    prev = in_dim

    for i, h in enumerate(widths):
        W = fan_in_init(keys[i], (h, prev), init, prev)
        b = jnp.zeros((h,)) if bias else None
        layers.append({"W": W, "b": b})
        prev = h

    # Output layer (linear)
    W = fan_in_init(keys[-1], (out_dim, prev), "xavier", prev)
    b = jnp.zeros((out_dim,)) if bias else None
    out_layer = {"W": W, "b": b}

    return {"layers": layers, "out": out_layer}


def mlp_forward(
    params,
    x,
    activation: str = "relu",
    skip: bool = False,
    residual_period: int = 2,
    layernorm: bool = False,
):
    """Forward pass with optional residuals and layer norm"""
    act = act_fn(activation)

    h = x
    for i, lyr in enumerate(params["layers"]):
        z = h @ lyr["W"].T + (lyr["b"] if lyr["b"] is not None else 0.0)

        if layernorm:
            mu = jnp.mean(z, axis=-1, keepdims=True)
            sig = jnp.std(z, axis=-1, keepdims=True) + 1e-6
            z = (z - mu) / sig

        h_new = act(z)

        if skip and (i % residual_period == residual_period - 1):
            # Project if dimensions differ
            if h.shape[-1] != h_new.shape[-1]:
                P = jnp.eye(h_new.shape[-1], h.shape[-1])[
                    : h_new.shape[-1], : h.shape[-1]
                ]
                h = h @ P.T
            h = h + h_new
        else:
            h = h_new

    # Output layer
    y = h @ params["out"]["W"].T + (
        params["out"]["b"] if params["out"]["b"] is not None else 0.0
    )
    return y


def count_params(params):
    """Count total parameters in MLP"""
    leaves = []
    for lyr in params["layers"]:
        leaves.append(lyr["W"])
        if lyr["b"] is not None:
            leaves.append(lyr["b"])
    leaves.append(params["out"]["W"])
    if params["out"]["b"] is not None:
        leaves.append(params["out"]["b"])
    return sum(p.size for p in leaves)


# ---- llc/data.py ----  # scaffolding: file marker
# llc/data.py
"""Data generation utilities for teacher-student experiments"""

from typing import TYPE_CHECKING
import jax.numpy as jnp
from jax import random

# (TYPE_CHECKING import of Config dropped: defined above)  # scaffolding: flattened

# from .models import infer_widths, init_mlp_params, mlp_forward  (defined above)  # scaffolding: flattened


def sample_X(key, cfg: Config, n: int, in_dim: int):
    """Sample inputs according to various distributions"""
    if cfg.x_dist == "gauss_iso":
        return random.normal(key, (n, in_dim))
    elif cfg.x_dist == "gauss_aniso":
        vals = jnp.array([cfg.cov_decay**i for i in range(in_dim)])
        A = jnp.diag(jnp.sqrt(vals))
        Z = random.normal(key, (n, in_dim))
        return Z @ A.T
    elif cfg.x_dist == "mixture":
        keys = random.split(key, 2)
        centers = random.normal(keys[0], (cfg.mixture_k, in_dim))
        centers = (
            cfg.mixture_spread
            * centers
            / (1e-6 + jnp.linalg.norm(centers, axis=1, keepdims=True))
        )
        comp = random.randint(keys[1], (n,), 0, cfg.mixture_k)
        eps = random.normal(key, (n, in_dim))
        return centers[comp] + eps
    elif cfg.x_dist == "lowdim_manifold":
        kz, ka = random.split(key)
        Z = random.normal(kz, (n, cfg.x_dim_latent))
        A = random.normal(ka, (cfg.x_dim_latent, in_dim))
        X_low = jnp.tanh(Z @ A)  # non-linear embedding
        return X_low
    elif cfg.x_dist == "heavy_tail":
        # Student-t via scaled normal / sqrt(gamma)
        k1, k2 = random.split(key)
        g = random.gamma(k1, cfg.student_df / 2, (n, 1)) / (cfg.student_df / 2)
        Z = random.normal(k2, (n, in_dim)) / jnp.sqrt(g)
        return Z
    else:
        raise ValueError(f"Unknown x_dist: {cfg.x_dist}")


def build_teacher(key, cfg: Config):
    """Build teacher network (can differ from student)"""
    t_depth = cfg.teacher_depth or cfg.depth
    t_widths = cfg.teacher_widths
    if t_widths is None:
        t_widths = infer_widths(
            cfg.in_dim, cfg.out_dim, t_depth, cfg.target_params, cfg.hidden
        )
    t_act = cfg.teacher_activation or cfg.activation

    params = init_mlp_params(
        key, cfg.in_dim, t_widths, cfg.out_dim, t_act, bias=True, init=cfg.init
    )

    def forward(X):
        Y = mlp_forward(
            params,
            X,
            t_act,
            skip=False,
            residual_period=cfg.residual_period,
            layernorm=False,
        )
        return Y

    return params, forward


def add_noise(key, y_clean, cfg: Config, X):
    """Add noise according to various models"""
    if cfg.noise_model == "gauss":
        return y_clean + cfg.noise_scale * random.normal(key, y_clean.shape)
    elif cfg.noise_model == "hetero":
        scale = cfg.noise_scale * (
            1.0 + cfg.hetero_scale * jnp.linalg.norm(X, axis=1, keepdims=True)
        )
        return y_clean + scale * random.normal(key, y_clean.shape)
    elif cfg.noise_model == "student_t":
        # Draw t noise via normal / sqrt(gamma)
        k1, k2 = random.split(key)
        g = random.gamma(k1, cfg.student_df / 2, y_clean.shape) / (cfg.student_df / 2)
        return y_clean + cfg.noise_scale * random.normal(k2, y_clean.shape) / jnp.sqrt(
            g
        )
    elif cfg.noise_model == "outliers":
        k1, k2, k3 = random.split(key, 3)
        base = cfg.noise_scale * random.normal(k1, y_clean.shape)
        mask = random.uniform(k2, y_clean.shape) < cfg.outlier_frac
        outl = cfg.outlier_scale * random.normal(k3, y_clean.shape)
        return y_clean + jnp.where(mask, outl, base)
    else:
        raise ValueError(f"Unknown noise_model: {cfg.noise_model}")


def make_dataset(key, cfg: Config):
    """End-to-end data generation"""
    kx, kt, kn = random.split(key, 3)
    X = sample_X(kx, cfg, cfg.n_data, cfg.in_dim)
    teacher_params, teacher_forward = build_teacher(kt, cfg)
    y_clean = teacher_forward(X)

    if cfg.teacher_dropout_rate > 0.0:
        kd = random.split(kt, 1)[0]
        mask = (random.uniform(kd, y_clean.shape) > cfg.teacher_dropout_rate).astype(
            y_clean.dtype
        )
        y_clean = y_clean * mask

    Y = add_noise(kn, y_clean, cfg, X)
    return X, Y, teacher_params, teacher_forward


# ---- llc/losses.py ----  # scaffolding: file marker
# llc/losses.py
"""Loss function utilities"""

from typing import TYPE_CHECKING
import jax.numpy as jnp

# (TYPE_CHECKING import of Config dropped: defined above)  # scaffolding: flattened

# from .models import mlp_forward  (defined above)  # scaffolding: flattened


def as_dtype(x, dtype_str):  # 'float32' or 'float64'
    """Convert array to specified dtype"""
    return x.astype(jnp.float32 if dtype_str == "float32" else jnp.float64)


def make_loss_fns(unravel, cfg: Config, X, Y):
    """Create loss functions for both full data and minibatch"""
    if cfg.loss == "mse":

        def full(theta):
            params = unravel(theta)
            pred = mlp_forward(
                params,
                X,
                cfg.activation,
                cfg.skip_connections,
                cfg.residual_period,
                cfg.layernorm,
            )
            return jnp.mean((pred - Y) ** 2)

        def minibatch(theta, Xb, Yb):
            params = unravel(theta)
            pred = mlp_forward(
                params,
                Xb,
                cfg.activation,
                cfg.skip_connections,
                cfg.residual_period,
                cfg.layernorm,
            )
            return jnp.mean((pred - Yb) ** 2)

    elif cfg.loss == "t_regression":
        s2 = cfg.noise_scale**2
        nu = cfg.student_df

        def neglogt(resid):
            return 0.5 * (nu + 1) * jnp.log1p((resid**2) / (nu * s2))

        def full(theta):
            params = unravel(theta)
            pred = mlp_forward(
                params,
                X,
                cfg.activation,
                cfg.skip_connections,
                cfg.residual_period,
                cfg.layernorm,
            )
            return jnp.mean(neglogt(pred - Y))

        def minibatch(theta, Xb, Yb):
            params = unravel(theta)
            pred = mlp_forward(
                params,
                Xb,
                cfg.activation,
                cfg.skip_connections,
                cfg.residual_period,
                cfg.layernorm,
            )
            return jnp.mean(neglogt(pred - Yb))
    else:
        raise ValueError(f"Unknown loss: {cfg.loss}")

    return full, minibatch


# ---- llc/experiments.py (train_erm and the start of run_experiment) ----  # scaffolding: file marker
import jax
import jax.numpy as jnp
from jax import random, jit, value_and_grad
from jax.flatten_util import ravel_pytree
import optax
import numpy as np
# import pandas as pd  # scaffolding: not needed for this part
from dataclasses import replace

def train_erm(w_init_pytree, cfg: Config, X, Y, steps=2000, lr=1e-2):
    """Train to empirical risk minimizer using new flexible architecture"""
    theta, unravel = ravel_pytree(w_init_pytree)
    loss_full, _ = make_loss_fns(unravel, cfg, X, Y)
    opt = optax.adam(lr)
    opt_state = opt.init(theta)

    @jit
    def step(theta, opt_state):
        loss, g = value_and_grad(loss_full)(theta)
        updates, opt_state = opt.update(g, opt_state, theta)
        theta = optax.apply_updates(theta, updates)
        return theta, opt_state, loss

    for _ in range(steps):
        theta, opt_state, _ = step(theta, opt_state)

    return theta, unravel  # θ⋆, unravel tied to θ⋆


def run_experiment(cfg: Config, verbose=True):
    """Run single experiment and return LLCs"""
    key = random.PRNGKey(cfg.seed)

    # Generate data
    X, Y, _, _ = make_dataset(key, cfg)

    # Initialize network
    key, subkey = random.split(key)
    widths = cfg.widths or infer_widths(
        cfg.in_dim, cfg.out_dim, cfg.depth, cfg.target_params, fallback_width=cfg.hidden
    )
    w0 = init_mlp_params(
        subkey, cfg.in_dim, widths, cfg.out_dim, cfg.activation, cfg.bias, cfg.init
    )

    # Train ERM
    theta_star, unravel = train_erm(w0, cfg, X, Y)
    return theta_star  # scaffolding: the rest of run_experiment (SGLD/HMC sampling, LLC estimates) is left out


if __name__ == "__main__":  # scaffolding: the seed sweep of build_sweep_worklist (n_seeds=3) for one config
    base = Config(in_dim=32, out_dim=1, n_data=512, target_params=2_000)  # scaffolding: smaller data/model than the sweep base (n_data=5000)
    for seed in range(3):  # scaffolding
        cfg = replace(base, seed=seed)  # scaffolding
        run_experiment(cfg, verbose=False)  # scaffolding
    _report({"jit(step)"}, 6000)  # scaffolding: 3 runs x 2000 steps
