# source: https://github.com/rom-thom/TMA4320_prosjekt_1/blob/390aaf7e3c2b3ff7ea2e85065eaee980f1f63791/src/project/train.py
# expect: none
# runtime: COMPILES 1 CALLS 30
# why: In this TMA4320 (NTNU) course assignment the objective is @jax.jit-decorated inside train_nn and then wrapped again as jax.jit(jax.value_and_grad(objektiv)); the inner jit is inlined into the outer one, and train_nn runs once, so the whole training compiles once.

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
# --- scaffolding: the course template's Config (config.py / config.yaml values), sample_ic (sampling.py) and sensor data ---
from dataclasses import dataclass  # scaffolding
from typing import Union  # scaffolding
import numpy as np  # scaffolding
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding
from jax import grad, vmap, jit  # scaffolding
from scipy.stats import qmc  # scaffolding


@dataclass  # scaffolding
class Config:  # scaffolding
    x_min: float = 0.0  # scaffolding
    x_max: float = 10.0  # scaffolding
    y_min: float = 0.0  # scaffolding
    y_max: float = 5.0  # scaffolding
    t_min: float = 0.0  # scaffolding
    t_max: float = 24.0  # scaffolding
    T_outside: float = 0.0  # scaffolding
    layer_sizes: list = None  # scaffolding
    learning_rate: float = 0.001  # scaffolding
    num_epochs: int = 30  # scaffolding: 30 epochs instead of 5000
    seed: int = 42  # scaffolding
    lambda_physics: float = 1.0  # scaffolding
    lambda_ic: float = 1.0  # scaffolding
    lambda_bc: float = 1.0  # scaffolding
    lambda_data: float = 1.0  # scaffolding
    num_ic: int = 512  # scaffolding


def _sample_qmc(n, mins, maxs, seed=0):  # scaffolding: template sampling.py
    d = len(mins)  # scaffolding
    mins, maxs = np.asarray(mins), np.asarray(maxs)  # scaffolding
    sampler = qmc.Sobol(d=d, scramble=True, seed=seed)  # scaffolding
    samples = qmc.scale(sampler.random(n), mins, maxs)  # scaffolding
    return jnp.array(samples)  # scaffolding


def sample_ic(key, cfg):  # scaffolding: template sampling.py
    key, subkey = jax.random.split(key)  # scaffolding
    seed = int(jax.random.key_data(subkey)[0])  # scaffolding
    pts = _sample_qmc(cfg.num_ic, mins=[cfg.x_min, cfg.y_min], maxs=[cfg.x_max, cfg.y_max], seed=seed)  # scaffolding
    t0 = jnp.zeros((cfg.num_ic, 1))  # scaffolding
    return jnp.concatenate([pts, t0], axis=1), key  # scaffolding


_rs = np.random.RandomState(0)  # scaffolding
sensor_data = jnp.asarray(np.c_[_rs.uniform(0, 10, 225), _rs.uniform(0, 5, 225), _rs.uniform(0, 24, 225), _rs.normal(10, 3, 225)])  # scaffolding: 9 sensors x 25 times
cfg = Config(layer_sizes=[3, 32, 32, 1])  # scaffolding
# --- end scaffolding ---


# src/project/model.py of rom-thom/TMA4320_prosjekt_1 (TMA4320 project 1; docstrings dropped)
def init_nn_params(
    cfg: Config, key: jnp.ndarray | None = None, seed: int | None = None
) -> list[tuple[jnp.ndarray, jnp.ndarray]]:
    if key is None:
        key = jax.random.key(cfg.seed if seed is None else seed)

    layers = cfg.layer_sizes

    # Split keys
    key, nn_key = jax.random.split(key, 2)

    # ---- Neural network parameters ----
    nn_keys = jax.random.split(nn_key, len(layers) - 1)
    nn_params = []

    for k, (din, dout) in zip(nn_keys, zip(layers[:-1], layers[1:])):
        w_key, _ = jax.random.split(k)
        scale = jnp.sqrt(2.0 / (din + dout))
        w = jax.random.normal(w_key, (din, dout)) * scale
        b = jnp.zeros(dout)
        nn_params.append((w, b))

    return nn_params


def forward(
    nn_params: list[tuple[jnp.ndarray, jnp.ndarray]],
    x: Union[jnp.ndarray, float],
    y: Union[jnp.ndarray, float],
    t: Union[jnp.ndarray, float],
    cfg: Config,
) -> jnp.ndarray:
    # Convert inputs to arrays and broadcast to common shape
    x = jnp.atleast_1d(x)
    y = jnp.atleast_1d(y)
    t = jnp.atleast_1d(t)

    # Broadcast all to the same shape
    x, y, t = jnp.broadcast_arrays(x, y, t)

    x_norm = (x - cfg.x_min) / (cfg.x_max - cfg.x_min)
    y_norm = (y - cfg.y_min) / (cfg.y_max - cfg.y_min)
    t_norm = (t - cfg.t_min) / (cfg.t_max - cfg.t_min)

    out = jnp.stack([x_norm, y_norm, t_norm], axis=-1)
    
    for param in nn_params[:-1]:
        w, b = param

        out = jnp.tanh(out@w + b) # Vi fann ut at exp er meir presist og symetrisk ved NN
    
    # Vi vil ikkje at activation funksjonen sigma = tanh på det siste laget
    w, b = nn_params[-1]
    out = (out@w + b).squeeze()

    return out


# src/project/loss.py (data_loss, ic_loss)
def data_loss(
    nn_params: list[tuple[jnp.ndarray, jnp.ndarray]], sensor_data, cfg: Config
) -> jnp.ndarray:
    x, y, t, T_true = (
        sensor_data[:, 0],
        sensor_data[:, 1],
        sensor_data[:, 2],
        sensor_data[:, 3],
    )

    T_pred = forward(nn_params, x, y, t, cfg)

    data_loss_val = jnp.mean((T_pred-T_true)**2)

    return data_loss_val


def ic_loss(
    nn_params: list[tuple[jnp.ndarray, jnp.ndarray]],
    ic_points: jnp.ndarray,
    cfg: Config,
) -> jnp.ndarray:
    x, y = ic_points[:, 0], ic_points[:, 1]

    T_pred = forward(nn_params, x, y, t=0, cfg=cfg)
    ic_loss_val = jnp.mean((T_pred-cfg.T_outside)**2)

    return ic_loss_val


# src/project/optim.py
def init_adam(params):
    m = jax.tree_util.tree_map(jnp.zeros_like, params)
    v = jax.tree_util.tree_map(jnp.zeros_like, params)
    return {"m": m, "v": v, "t": 0}   


def adam_step(params, grads, state, lr=1e-3, b1=0.9, b2=0.999, eps=1e-8):
    t = state["t"] + 1

    # Update moment estimates
    new_m = jax.tree_util.tree_map(
        lambda m, g: b1 * m + (1 - b1) * g, state["m"], grads
    )
    new_v = jax.tree_util.tree_map(
        lambda v, g: b2 * v + (1 - b2) * g**2, state["v"], grads
    )

    # Bias correction
    m_corr = 1 - b1**t
    v_corr = 1 - b2**t

    # Parameter update
    def update(p, m, v):
        m_hat = m / m_corr
        v_hat = v / v_corr
        return p - lr * m_hat / (jnp.sqrt(v_hat) + eps)

    new_params = jax.tree_util.tree_map(update, params, new_m, new_v)
    new_state = {"m": new_m, "v": new_v, "t": t}

    return new_params, new_state


# src/project/train.py (train_nn)
def train_nn(
    sensor_data: jnp.ndarray, cfg: Config
) -> tuple[list[tuple[jnp.ndarray, jnp.ndarray]], dict]:
    key = jax.random.key(cfg.seed)
    nn_params = init_nn_params(cfg)     #sender initielle matriseverdier
    adam_state = init_adam(nn_params)  

    losses = {"total": [], "data": [], "ic": []}  # Fill with loss histories

    #######################################################################
    # Oppgave 4.3: Start
    #######################################################################


    # Nokre tilfeldige startspunkt (initialbetingelse)
    # ic_points = jnp.array([jnp.linspace(cfg.x_min, cfg.x_max, 30), jnp.linspace(cfg.y_min, cfg.y_max, 30)])
    loss_all_list = []

    @jax.jit
    def objektiv(current_nn_params, ic_epoch):
        L_data =  data_loss(current_nn_params, sensor_data, cfg)
        L_ic = ic_loss(current_nn_params, ic_epoch, cfg)
        oux = L_data, L_ic
        return cfg.lambda_data * L_data  + cfg.lambda_bc * L_ic, oux
    
    val_grad = jax.jit(jax.value_and_grad(objektiv, argnums=0, has_aux=True))
    current_nn_params = nn_params
    current_state = adam_state
    
    from tqdm import tqdm
    for epoc in tqdm(range(cfg.num_epochs), desc="Training NN"):
        ic_points, key = sample_ic(key, cfg)

        (loss_tot, oux), grad_objektiv = val_grad(current_nn_params, ic_points)
        loss_data, loss_ic = oux

        loss_all_list.append([loss_tot, loss_data, loss_ic])
            
        current_nn_params, current_state = adam_step(current_nn_params, grad_objektiv, current_state, lr=cfg.learning_rate)

    nn_params = current_nn_params
    losses["total"] = [row[0] for row in loss_all_list]
    losses["data"] = [row[1] for row in loss_all_list]
    losses["ic"] = [row[2] for row in loss_all_list]


    #######################################################################
    # Oppgave 4.3: Slutt
    #######################################################################

    return nn_params, {k: jnp.array(v) for k, v in losses.items()}


nn_params, losses = train_nn(sensor_data, cfg)  # scaffolding: scripts/run_nn.py calls train_nn once
_report({"jit(objektiv)"}, cfg.num_epochs)  # scaffolding
