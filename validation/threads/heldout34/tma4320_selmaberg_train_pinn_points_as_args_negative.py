# source: https://github.com/selmaberg05/TMA4320-Prosjekt1-Andrihol-Emilyan-Selmahbe/blob/f09349486bceb51a32bec22708e8e3ce1a47cd29/src/project/train.py
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: In train_pinn the same students pass the freshly sampled interior/IC/BC points to the jitted value_and_grad as arguments, so one compilation serves every epoch and the losses use the current points.

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
# --- src/project/config.py (fields this case does not use trimmed) ---
from dataclasses import dataclass

import jax
import jax.numpy as jnp
import numpy as np
from jax import grad, vmap
from scipy.stats import qmc


@dataclass
class Config:
    """Configuration for the PINN simulation."""

    # Domain
    x_min: float
    x_max: float
    y_min: float
    y_max: float
    t_min: float
    t_max: float
    # Physics
    alpha: float
    k: float
    h: float
    T_outside: float
    # Source
    source_locations: jnp.ndarray
    source_sizes: jnp.ndarray
    source_strength: float
    # Training
    layer_sizes: list
    learning_rate: float
    num_epochs: int
    seed: int
    lambda_physics: float
    lambda_ic: float
    lambda_bc: float
    lambda_data: float
    num_collocation: int
    num_ic: int
    num_bc: int

    def is_source(self, x, y):
        """Check if point(s) are inside any heat source."""
        # source_locations: (S, 2), source_sizes: (S,)
        cx = self.source_locations[:, 0]  # (S,)
        cy = self.source_locations[:, 1]  # (S,)
        sizes = self.source_sizes  # (S,)

        # Broadcast x, y against source centers
        # x, y can be scalars or arrays of any shape
        dx = jnp.abs(x - cx[:, None, None])  # (S, ...) broadcasts with x
        dy = jnp.abs(y - cy[:, None, None])  # (S, ...) broadcasts with y

        inside = (dx <= sizes[:, None, None]) & (dy <= sizes[:, None, None])
        return jnp.any(inside, axis=0)  # same shape as x, y


# --- src/project/sampling.py ---
def _sample_qmc(n: int, mins: list, maxs: list, seed: int = 0) -> jnp.ndarray:
    """Sample n points using Quasi-Monte Carlo (Sobol sequence)."""
    d = len(mins)
    mins, maxs = np.asarray(mins), np.asarray(maxs)

    # Use Sobol sequence with scrambling for randomization
    sampler = qmc.Sobol(d=d, scramble=True, seed=seed)
    samples = sampler.random(n)

    # Scale from [0,1]^d to [mins, maxs]
    samples = qmc.scale(samples, mins, maxs)

    return jnp.array(samples)


def sample_interior(key, cfg: Config):
    """Sample collocation points in the interior using QMC."""
    key, subkey = jax.random.split(key)
    seed = int(jax.random.key_data(subkey)[0])
    sampled = _sample_qmc(
        cfg.num_collocation,
        mins=[cfg.x_min, cfg.y_min, cfg.t_min],
        maxs=[cfg.x_max, cfg.y_max, cfg.t_max],
        seed=seed,
    )
    return sampled, key


def sample_ic(key, cfg: Config):
    """Sample initial condition points (t=0) using QMC."""

    key, subkey = jax.random.split(key)
    seed = int(jax.random.key_data(subkey)[0])

    pts = _sample_qmc(
        cfg.num_ic,
        mins=[cfg.x_min, cfg.y_min],
        maxs=[cfg.x_max, cfg.y_max],
        seed=seed,
    )
    t0 = jnp.zeros((cfg.num_ic, 1))
    return jnp.concatenate([pts, t0], axis=1), key


def sample_bc(key, cfg: Config):
    """Sample boundary points with outward normals [x, y, t, nx, ny]."""
    n = cfg.num_bc

    # Edge lengths
    L_x = cfg.x_max - cfg.x_min
    L_y = cfg.y_max - cfg.y_min
    perimeter = 2 * (L_x + L_y)

    # Sample edge index (0=left, 1=right, 2=bottom, 3=top)
    # Weight by edge length so each unit of boundary is sampled equally
    edge_probs = jnp.array([L_y, L_y, L_x, L_x]) / perimeter
    key, subkey = jax.random.split(key)
    edge = jax.random.choice(subkey, 4, shape=(n,), p=edge_probs)

    # Sample position along edge [0, 1] and time
    key, subkey = jax.random.split(key)
    s = jax.random.uniform(subkey, (n,))
    key, subkey = jax.random.split(key)
    t = cfg.t_min + jax.random.uniform(subkey, (n,)) * (cfg.t_max - cfg.t_min)

    # Set x, y based on edge (left/right fix x, bottom/top fix y)
    x = jnp.where(
        edge == 0,
        cfg.x_min,
        jnp.where(edge == 1, cfg.x_max, cfg.x_min + s * (cfg.x_max - cfg.x_min)),
    )

    y = jnp.where(
        edge < 2,
        cfg.y_min + s * (cfg.y_max - cfg.y_min),
        jnp.where(edge == 2, cfg.y_min, cfg.y_max),
    )

    # Set normals
    nx = jnp.where(edge == 0, -1.0, jnp.where(edge == 1, 1.0, 0.0))
    ny = jnp.where(edge == 2, -1.0, jnp.where(edge == 3, 1.0, 0.0))

    return jnp.stack([x, y, t, nx, ny], axis=1), key


# --- src/project/model.py ---
def init_nn_params(cfg: Config, key=None, seed=None):
    """Initialize network parameters and learnable scalars."""
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


def init_pinn_params(cfg: Config, seed=None):
    """Initialize network parameters and learnable scalars."""
    key = jax.random.key(cfg.seed if seed is None else seed)
    key, nn_key, scalars_key = jax.random.split(key, 3)

    k1, k2, k3, k4 = jax.random.split(scalars_key, 4) # Splitter opp keys slik at ikke alle parametrene får initialverdi
    nn_params = init_nn_params(cfg,nn_key) # Definerer parametre for NN ut i fra init_nn_params()

    pinn_params = {"nn": nn_params,
                   "log_alpha" : jax.random.normal(k1, (1,)),
                   "log_k" : jax.random.normal(k2, (1,)),
                   "log_h" :jax.random.normal(k3, (1,)),
                   "log_power" :jax.random.normal(k4, (1,))}

    return pinn_params


def forward(nn_params, x, y, t, cfg: Config) -> jnp.ndarray:
    """Forward pass through the network."""
    # Convert inputs to arrays and broadcast to common shape
    x = jnp.atleast_1d(x)
    y = jnp.atleast_1d(y)
    t = jnp.atleast_1d(t)

    # Broadcast all to the same shape
    x, y, t = jnp.broadcast_arrays(x, y, t)

    #Normaliserer inputs til NN slik at verdiene ligger i intervallet [0,1].
    x_norm = (x - cfg.x_min) / (cfg.x_max - cfg.x_min)
    y_norm = (y - cfg.y_min) / (cfg.y_max - cfg.y_min)
    t_norm = (t - cfg.t_min) / (cfg.t_max - cfg.t_min)

    #Slår sammen normaliserte variablene til en input-vektor
    a = jnp.stack([x_norm, y_norm, t_norm], axis = -1)

    #Itererer gjennom skjulte lag, lærer ikke-lineær sammenheng mellom x, y, og t
    for w,b in nn_params[:-1]: # Skjulte lag
        a = jnp.tanh(a @ w + b) # Legger på ikke-linearitet

    #Outputlag som gir temperaturprediksjon med lineær tranformasjon
    w_out,b_out = nn_params[-1] # Output-lag
    a = a @ w_out + b_out

    #fjerner dimensjoner med størrelse 1
    out = a.squeeze()

    return out


# --- src/project/loss.py ---
def data_loss(nn_params, sensor_data, cfg: Config) -> jnp.ndarray:
    """MSE loss between predictions and sensor measurements."""
    x, y, t, T_true = (
        sensor_data[:, 0],
        sensor_data[:, 1],
        sensor_data[:, 2],
        sensor_data[:, 3],
    )
    T_pred = forward(nn_params,x,y,t,cfg)
    data_loss_val = jnp.mean((T_pred-T_true)**2)
    return data_loss_val


def ic_loss(nn_params, ic_points: jnp.ndarray, cfg: Config) -> jnp.ndarray:
    """Initial condition loss: T(x, y, 0) = T_outside."""
    x, y = ic_points[:, 0], ic_points[:, 1]
    t = jnp.full_like(x, cfg.t_min)
    T_pred = forward(nn_params,x,y,t,cfg)
    ic_loss_val = jnp.mean((T_pred - cfg.T_outside) ** 2)
    return ic_loss_val


def physics_loss(pinn_params, interior_points, cfg: Config):
    """PDE residual loss at collocation points."""
    x, y, t = interior_points[:, 0], interior_points[:, 1], interior_points[:, 2]

    def _pde_residual_scalar(pinn_params, x, y, t, cfg):

        # Returnerer temperaturprediksjon
        def T_fn(x, y, t):
            return forward(pinn_params["nn"], x, y, t, cfg)

        # Dobbelt- og enkeltderiverer
        T_t = grad(T_fn, 2)(x, y, t)
        T_xx = grad(grad(T_fn, 0),0)(x, y, t)
        T_yy = grad(grad(T_fn, 1),1)(x, y, t)

        # Beregner gradienten
        grad_T = T_xx + T_yy

        # Returnerer parametre
        alpha = jnp.exp(pinn_params["log_alpha"])
        power = jnp.exp(pinn_params["log_power"])

        # Bestemmer posisjon til varmekilde og ut regner ut varmekilde q
        Iq = cfg.is_source(x,y)
        q = power * Iq

        residuals = T_t - alpha * grad_T - q

        return residuals

    residuals = vmap(
        lambda xi, yi, ti: _pde_residual_scalar(pinn_params, xi, yi, ti, cfg))(x, y, t)

    # Regner ut tap med MSE
    physics_loss_val = jnp.mean(residuals**2)

    return physics_loss_val


def bc_loss(pinn_params: dict, bc_points, cfg: Config) -> jnp.ndarray:
    """Robin boundary condition loss: -k * grad(T) . n = h * (T - T_out)."""
    x, y, t = bc_points[:, 0], bc_points[:, 1], bc_points[:, 2]
    nx, ny = bc_points[:, 3], bc_points[:, 4]

    def _bc_residual_scalar(pinn_params, x, y, t, nx, ny, cfg: Config):
        def T_fn(x, y, t):
            return forward(pinn_params["nn"], x, y, t, cfg)

        # Compute spatial gradients using automatic differentiation
        T_x = grad(T_fn, 0)(x, y, t)
        T_y = grad(T_fn, 1)(x, y, t)

        # Temperature at boundary point
        T = T_fn(x, y, t)

        # Robin BC: -k * (grad T . n) = h * (T - T_out)
        grad_T_dot_n = T_x * nx + T_y * ny
        k = jnp.exp(pinn_params["log_k"])
        h = jnp.exp(pinn_params["log_h"])
        residual = -k * grad_T_dot_n - h * (T - cfg.T_outside)

        return residual

    residuals = vmap(
        lambda xi, yi, ti, nxi, nyi: _bc_residual_scalar(
            pinn_params, xi, yi, ti, nxi, nyi, cfg
        )
    )(x, y, t, nx, ny)

    bc_loss_val = jnp.mean(residuals**2)

    return bc_loss_val


# --- src/project/optim.py ---
def init_adam(params):
    """Initialize Adam optimizer state."""
    m = jax.tree_util.tree_map(jnp.zeros_like, params)
    v = jax.tree_util.tree_map(jnp.zeros_like, params)
    return {"m": m, "v": v, "t": 0}


def adam_step(params, grads, state, lr=1e-3, b1=0.9, b2=0.999, eps=1e-8):
    """Perform one Adam optimization step."""
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


# --- scaffolding: record what the training loop samples and steps from ---
_ic_samples, _params_seen = [], []  # scaffolding
_sample_ic_orig, _adam_step_orig = sample_ic, adam_step  # scaffolding


def sample_ic(key, cfg):  # scaffolding: records each epoch's initial-condition points
    pts, key = _sample_ic_orig(key, cfg)
    _ic_samples.append(pts)
    return pts, key


def adam_step(params, grads, state, lr=1e-3):  # scaffolding: records the params each loss was taken at
    _params_seen.append(params)
    return _adam_step_orig(params, grads, state, lr=lr)


# --- scaffolding: config.yaml values (num_epochs cut down) and stand-in sensor data ---
cfg = Config(  # scaffolding
    x_min=0.0, x_max=10.0, y_min=0.0, y_max=5.0, t_min=0.0, t_max=24.0,
    alpha=0.25, k=0.04, h=0.00, T_outside=0.0,
    source_locations=jnp.asarray([[5.0, 2.5]]), source_sizes=jnp.asarray([0.5]),
    source_strength=15.0,
    layer_sizes=[3, 32, 32, 1], learning_rate=0.001, num_epochs=3, seed=42,
    lambda_physics=1.0, lambda_ic=1.0, lambda_bc=1.0, lambda_data=1.0,
    num_collocation=4096, num_ic=512, num_bc=512,
)
_r = np.random.default_rng(0)  # scaffolding
sensor_data = jnp.array(np.stack([_r.uniform(0, 10, 225), _r.uniform(0, 5, 225),  # scaffolding
                                  _r.uniform(0, 24, 225), _r.normal(5, 1, 225)], axis=1))

# --- src/project/train.py ---
from tqdm import tqdm


def train_pinn(sensor_data: jnp.ndarray, cfg: Config) -> tuple[dict, dict]:
    """Train a physics-informed neural network.

    Args:
        sensor_data: Sensor measurements [x, y, t, T]
        cfg: Configuration

    Returns:
        pinn_params: Trained parameters (nn weights + alpha)
        losses: Dictionary of loss histories
    """
    key = jax.random.key(cfg.seed)
    pinn_params = init_pinn_params(cfg)
    opt_state = init_adam(pinn_params)

    losses = {"total": [], "data": [], "physics": [], "ic": [], "bc": []}

    #######################################################################
    # Oppgave 5.3: Start
    #######################################################################

    # Definerer en total tapsfunksjon som skal minimeres
    def objective_fn(pinn_params, interior_epoch, ic_epoch, bc_epoch): 
        nn_params = pinn_params["nn"]
        L_data = data_loss(nn_params, sensor_data, cfg)
        L_physics = physics_loss(pinn_params, interior_epoch, cfg)
        L_ic = ic_loss(nn_params, ic_epoch, cfg)
        L_bc = bc_loss(pinn_params,bc_epoch,cfg)
        total_loss = cfg.lambda_data * L_data + cfg.lambda_physics * L_physics +cfg.lambda_ic * L_ic +cfg.lambda_bc * L_bc #Vektene styrer prioritering av tapskomonentene, definert i config-fil
        return total_loss, (L_data,L_physics, L_ic, L_bc)

    # Regner ut verdien av tapsfunksjonene og gradienten
    value_and_grad = jax.jit(jax.value_and_grad(objective_fn, has_aux=True)) # jax.jit får koden til å kjøre raskere

    #Lager en pen "progress-bar"
    from tqdm import tqdm
    for _ in tqdm(range(cfg.num_epochs), desc="Training PINN"): 
        interior_epoch, key = sample_interior(key, cfg)
        ic_epoch, key = sample_ic(key, cfg)
        bc_epoch, key = sample_bc(key, cfg)
        (total_loss, (L_data, L_physics, L_ic, L_bc)), grads = value_and_grad(pinn_params,interior_epoch, ic_epoch, bc_epoch) 

        # Bruker adam-step funksjonen for å oppdaterer parameterne fra NN og de fysiske parameterne for hver epoke
        pinn_params, opt_state = adam_step(pinn_params, grads, opt_state, lr=cfg.learning_rate)

        #Lagrer tapsverdiene i dictionary
        losses["total"].append(total_loss)
        losses["data"].append(L_data)
        losses["physics"].append(L_physics)
        losses["ic"].append(L_ic)
        losses["bc"].append(L_bc)

    #######################################################################
    # Oppgave 5.3: Slutt
    #######################################################################

    return pinn_params, {k: jnp.array(v) for k, v in losses.items()}


# --- scripts/run_pinn.py (essence) ---
pinn_params, losses = train_pinn(sensor_data, cfg)
# scaffolding: the last epoch's reported L_ic against ic_loss on that epoch's points and on epoch 0's points
print("OUTPUTS", [float(losses["ic"][-1]),
                  float(ic_loss(_params_seen[-1]["nn"], _ic_samples[-1], cfg)),
                  float(ic_loss(_params_seen[-1]["nn"], _ic_samples[0], cfg))])
_report({"jit(objective_fn)"}, 3)  # scaffolding
