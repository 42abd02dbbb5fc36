# source: https://github.com/Gaute-fysmat/Vitbr_prosjekt1/blob/0c4e69a397dcdd8129958d9b8d61746c4ddee048/src/project/train.py
# expect: stale-closure at line 196
# runtime: COMPILES 2 CALLS 6
# why: objekt_fn reads ic_epoch from the enclosing scope and is wrapped in jax.jit before the loop; jax.value_and_grad of the jitted function reuses its first trace, so the resampled ic_epoch of later epochs never reaches the loss or the gradients (one compile for all epochs).

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
from dataclasses import dataclass

import jax
import jax.numpy as jnp
from jax import jit
from jax import grad, vmap


# --- scaffolding: condensed stand-ins for the course skeleton (src/project/{config,model,loss,optim,sampling}.py) ---
@dataclass
class Config:  # scaffolding
    x_min: float = 0.0
    x_max: float = 10.0
    y_min: float = 0.0
    y_max: float = 5.0
    t_min: float = 0.0
    t_max: float = 24.0
    alpha: float = 0.25
    k: float = 0.04
    h: float = 0.0
    T_outside: float = 0.0
    source_strength: float = 15.0
    layer_sizes: tuple = (3, 16, 16, 1)
    learning_rate: float = 0.001
    num_epochs: int = 6
    seed: int = 42
    lambda_physics: float = 1.0
    lambda_ic: float = 1.0
    lambda_bc: float = 1.0
    lambda_data: float = 1.0
    num_collocation: int = 64
    num_ic: int = 32
    num_bc: int = 32

    def is_source(self, x, y):  # scaffolding
        return (jnp.abs(x - 5.0) <= 0.5) & (jnp.abs(y - 2.5) <= 0.5)


def init_nn_params(cfg, key=None):  # scaffolding
    key = jax.random.key(cfg.seed) if key is None else key
    params = []
    for k, (din, dout) in zip(jax.random.split(key, len(cfg.layer_sizes) - 1),
                              zip(cfg.layer_sizes[:-1], cfg.layer_sizes[1:])):
        params.append((jax.random.normal(k, (din, dout)) * jnp.sqrt(2.0 / (din + dout)), jnp.zeros(dout)))
    return params


def init_pinn_params(cfg):  # scaffolding
    key = jax.random.split(jax.random.key(cfg.seed), 2)[1]
    return {"nn": init_nn_params(cfg, key), "log_alpha": jnp.log(jnp.array([0.25])),
            "log_k": jnp.log(jnp.array([0.04])), "log_h": jnp.log(jnp.array([2.0])),
            "log_power": jnp.log(jnp.array([30.0]))}


def forward(nn_params, x, y, t, cfg):  # scaffolding
    x, y, t = jnp.broadcast_arrays(jnp.atleast_1d(x), jnp.atleast_1d(y), jnp.atleast_1d(t))
    a = jnp.stack([(x - cfg.x_min) / (cfg.x_max - cfg.x_min), (y - cfg.y_min) / (cfg.y_max - cfg.y_min),
                   (t - cfg.t_min) / (cfg.t_max - cfg.t_min)], axis=-1)
    for W, b in nn_params[:-1]:
        a = jnp.tanh(a @ W + b)
    W, b = nn_params[-1]
    return jnp.squeeze(a @ W + b)


def data_loss(nn_params, sensor_data, cfg):  # scaffolding
    return jnp.mean((forward(nn_params, sensor_data[:, 0], sensor_data[:, 1], sensor_data[:, 2], cfg) - sensor_data[:, 3]) ** 2)


def ic_loss(nn_params, ic_points, cfg):  # scaffolding
    return jnp.mean((forward(nn_params, ic_points[:, 0], ic_points[:, 1], 0, cfg) - cfg.T_outside) ** 2)


def physics_loss(pinn_params, interior_points, cfg):  # scaffolding
    def res(x, y, t):
        T_fn = lambda x, y, t: forward(pinn_params["nn"], x, y, t, cfg)
        q = jnp.where(cfg.is_source(x, y), jnp.exp(pinn_params["log_power"][0]), 0.0)
        lap = grad(grad(T_fn, 0), 0)(x, y, t) + grad(grad(T_fn, 1), 1)(x, y, t)
        return grad(T_fn, 2)(x, y, t) - jnp.exp(pinn_params["log_alpha"][0]) * lap - q
    return jnp.mean(vmap(res)(interior_points[:, 0], interior_points[:, 1], interior_points[:, 2]) ** 2)


def bc_loss(pinn_params, bc_points, cfg):  # scaffolding
    def res(x, y, t, nx, ny):
        T_fn = lambda x, y, t: forward(pinn_params["nn"], x, y, t, cfg)
        dn = grad(T_fn, 0)(x, y, t) * nx + grad(T_fn, 1)(x, y, t) * ny
        return -jnp.exp(pinn_params["log_k"][0]) * dn - jnp.exp(pinn_params["log_h"][0]) * (T_fn(x, y, t) - cfg.T_outside)
    p = bc_points
    return jnp.mean(vmap(res)(p[:, 0], p[:, 1], p[:, 2], p[:, 3], p[:, 4]) ** 2)


def init_adam(params):  # scaffolding (course code)
    m = jax.tree_util.tree_map(jnp.zeros_like, params)
    v = jax.tree_util.tree_map(jnp.zeros_like, params)
    return {"m": m, "v": v, "t": 0}


def adam_step(params, grads, state, lr=1e-3, b1=0.9, b2=0.999, eps=1e-8):  # scaffolding (course code)
    t = state["t"] + 1
    new_m = jax.tree_util.tree_map(lambda m, g: b1 * m + (1 - b1) * g, state["m"], grads)
    new_v = jax.tree_util.tree_map(lambda v, g: b2 * v + (1 - b2) * g**2, state["v"], grads)
    m_corr = 1 - b1**t
    v_corr = 1 - b2**t

    def update(p, m, v):
        return p - lr * (m / m_corr) / (jnp.sqrt(v / v_corr) + eps)

    return jax.tree_util.tree_map(update, params, new_m, new_v), {"m": new_m, "v": new_v, "t": t}


def _sample_uniform(key, n, mins, maxs):  # scaffolding (course code)
    mins, maxs = jnp.asarray(mins), jnp.asarray(maxs)
    key, subkey = jax.random.split(key)
    u = jax.random.uniform(subkey, (n, mins.size))
    return mins + u * (maxs - mins), key


def sample_ic(key, cfg):  # scaffolding
    pts, key = _sample_uniform(key, cfg.num_ic, [cfg.x_min, cfg.y_min], [cfg.x_max, cfg.y_max])
    return jnp.concatenate([pts, jnp.zeros((cfg.num_ic, 1))], axis=1), key


def sample_interior(key, cfg):  # scaffolding
    return _sample_uniform(key, cfg.num_collocation, [cfg.x_min, cfg.y_min, cfg.t_min], [cfg.x_max, cfg.y_max, cfg.t_max])


def sample_bc(key, cfg):  # scaffolding
    pts, key = _sample_uniform(key, cfg.num_bc, [cfg.x_min, cfg.t_min], [cfg.x_max, cfg.t_max])
    z = jnp.zeros((cfg.num_bc, 1))
    return jnp.concatenate([pts[:, :1], z, pts[:, 1:], z, -jnp.ones((cfg.num_bc, 1))], axis=1), key


def tqdm(it, desc=None):  # scaffolding: no progress bar
    return it


cfg = Config()  # scaffolding
sensor_data = jnp.stack([jnp.full(24, 5.0), jnp.full(24, 2.5), jnp.arange(24.0), jnp.linspace(0, 10, 24)], axis=1)  # scaffolding
# --- end of course-skeleton stand-ins ---


def train_nn(
    sensor_data: jnp.ndarray, cfg: Config
) -> tuple[list[tuple[jnp.ndarray, jnp.ndarray]], dict]:
    """Train a standard neural network on sensor data only.

    Args:
        sensor_data: Sensor measurements [x, y, t, T]
        cfg: Configuration

    Returns:
        params: Trained network parameters
        losses: Dictionary of loss histories
    """
    key = jax.random.key(cfg.seed)
    nn_params = init_nn_params(cfg)
    adam_state = init_adam(nn_params)

    losses = {"total": [], "data": [], "ic": []}  # Fill with loss histories

    #######################################################################
    # Oppgave 4.3: Start

    def objekt_fn(nn_params):
            l_data = data_loss(nn_params, sensor_data, cfg)
            l_ic = ic_loss(nn_params, ic_epoch, cfg)
            total = cfg.lambda_data * l_data + cfg.lambda_ic * l_ic
            return total, (l_data, l_ic)
    objekt_fn = jax.jit(objekt_fn)
    
    # Din kode her
    for _ in tqdm(range(cfg.num_epochs), desc="Training NN"):
        ic_epoch, key = sample_ic(key, cfg)
        #objekt_ting= lambda nn_params: (cfg.lambda_data * data_loss(nn_params, sensor_data, cfg)
                        #+ cfg.lambda_ic * ic_loss(nn_params, ic_epoch, cfg))
        
        #  cfg.lambda_data, cfg.lambda_ic
        (total, (l_data, l_ic)), grads = jax.value_and_grad(objekt_fn, has_aux=True)(nn_params)
        nn_params, adam_state = adam_step(nn_params, grads, adam_state, lr=cfg.learning_rate)

        losses["total"].append(total)
        losses["data"].append(l_data)
        losses["ic"].append(l_ic)

    #######################################################################
    return nn_params, {k: jnp.array(v) for k, v in losses.items()}


nn_params, losses = train_nn(sensor_data, cfg)  # scaffolding
# scaffolding: the loop samples new ic points every epoch, but the jitted objective was traced with the first ones
_k = jax.random.key(cfg.seed)  # scaffolding
for _ in range(cfg.num_epochs):  # scaffolding: replay the sampling to get the points of each epoch
    _ic, _k = sample_ic(_k, cfg)  # scaffolding
    if _ == 0: _first = _ic  # scaffolding
print('ic points resampled each epoch (first != last):', not bool(jnp.allclose(_first, _ic)))  # scaffolding
_report({'jit(objekt_fn)'}, cfg.num_epochs)  # scaffolding
