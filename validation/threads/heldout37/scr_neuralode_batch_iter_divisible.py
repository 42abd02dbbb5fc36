# source: https://github.com/borangundogan/jax-neural-ode/blob/246fb8ab322cb0276c3ceea672a92db9ec190658/src/train.py
# expect: none
# runtime: COMPILES 1 CALLS 15
# why: batch_iter slices range(0, N, batch_size) with no drop_last, but the default dataset (200 trajectories, 80% train = 160) splits into five full batches of 32, so the jitted train step sees one shape and compiles once.

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
import time
from typing import Tuple, List, Dict, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
import optax


def _fake_lorenz_file():  # scaffolding: same sizes as src/lorenz.py generate_lorenz_dataset(num_samples=200), T cut 1000 -> 40
    rng = np.random.default_rng(0)
    return {"X": rng.normal(size=(200, 40, 3)).astype(np.float32), "y": np.repeat([0, 1], 100)}


# --- src/solver.py ---
def rk4_step_general(f, state, t, dt, params):
    """
    Generic RK4 integration step for any ODE.
    
    f: function(state, t, params) -> derivative
    state: current state vector
    t: time
    dt: timestep
    params: dictionary or any structure containing parameters
    """

    k1 = f(state, t, params)
    k2 = f(state + 0.5 * dt * k1, t + 0.5 * dt, params)
    k3 = f(state + 0.5 * dt * k2, t + 0.5 * dt, params)
    k4 = f(state + dt * k3, t + dt, params)

    return state + (dt / 6.0) * (k1 + 2*k2 + 2*k3 + k4)


def integrate_ode(f, y0, params, dt, steps):
    """
    Generic ODE integrator using RK4 + JAX scan.

    f: ODE function(state, t, params) -> derivative
    y0: initial state (vector)
    params: parameters for the ODE
    dt: timestep
    steps: number of integration steps

    Returns trajectory of shape (steps, dim)
    """

    def step_fn(carry, t):
        state = carry
        new_state = rk4_step_general(f, state, t * dt, dt, params)
        return new_state, new_state

    # Efficient unrolled loop
    _, traj = jax.lax.scan(step_fn, y0, jnp.arange(steps))

    return traj



# --- src/model.py ---
# ---------- Basic MLP helpers ----------

def init_mlp_params(key, layer_sizes: List[int]) -> List[Dict[str, jnp.ndarray]]:
    """
    Initialize parameters for an MLP with given layer sizes.
    layer_sizes: [input_dim, hidden1, ..., hiddenN, output_dim]
    Returns a list of dicts with 'W' and 'b'.
    """
    params = []
    keys = jax.random.split(key, len(layer_sizes) - 1)

    for k, (n_in, n_out) in zip(keys, zip(layer_sizes[:-1], layer_sizes[1:])):
        # He initialization (scaled normal)
        W = jax.random.normal(k, (n_out, n_in)) * jnp.sqrt(2.0 / n_in)
        b = jnp.zeros((n_out,))
        params.append({"W": W, "b": b})

    return params


def mlp_apply(params: List[Dict[str, jnp.ndarray]], x: jnp.ndarray) -> jnp.ndarray:
    """
    Apply MLP to a single input vector x.
    Uses tanh nonlinearity for hidden layers, no activation on last layer.
    """
    for i, layer in enumerate(params):
        W, b = layer["W"], layer["b"]
        x = W @ x + b
        if i < len(params) - 1:
            x = jnp.tanh(x)
    return x


# ---------- Model param ----------

class ModelParams(NamedTuple):
    dyn_params: List[Dict[str, jnp.ndarray]]  # Neural ODE for MLP
    clf_W: jnp.ndarray                        # classifier weight
    clf_b: jnp.ndarray                        # classifier bias


# ---------- Neural ODE dynamic ----------

def neural_ode_rhs(state: jnp.ndarray, t: float, dyn_params) -> jnp.ndarray:
    """
    Right-hand-side of the Neural ODE:
        dz/dt = f_theta(z)

    Burada zamanı explicit olarak kullanmıyoruz (time-invariant field).
    """
    return mlp_apply(dyn_params, state)


def neural_ode_trajectory(
    params: ModelParams,
    z0: jnp.ndarray,
    dt: float,
    steps: int,
) -> jnp.ndarray:
    """
    Integrate the Neural ODE dynamics starting from z0.

    Returns trajectory of shape (steps, dim).
    """
    traj = integrate_ode(neural_ode_rhs, z0, params.dyn_params, dt, steps)
    return traj


def apply_model(
    params: ModelParams,
    z0: jnp.ndarray,
    dt: float,
    steps: int,
) -> (jnp.ndarray, jnp.ndarray):
    """
    Full model forward:
    1) Solve Neural ODE from initial state z0
    2) Take final state z_T
    3) Apply linear classifier to get class logits

    Returns:
        traj: (steps, dim)
        logits: (num_classes,)
    """
    traj = neural_ode_trajectory(params, z0, dt, steps)
    z_T = traj[-1]  # final state

    logits = params.clf_W @ z_T + params.clf_b
    return traj, logits


# ---------- Param init func ----------

def init_model_params(
    key,
    state_dim: int = 3,
    hidden_dims=(32, 32),
    num_classes: int = 2,
) -> ModelParams:
    """
    Initialize full model parameters:
    - MLP for dynamics f_theta(z)
    - Linear classifier on top of final state

    state_dim: dimension of z (3 for Lorenz)
    hidden_dims: tuple of hidden layer sizes
    num_classes: number of trajectory classes
    """
    key_dyn, key_clf = jax.random.split(key, 2)

    layer_sizes = [state_dim, *hidden_dims, state_dim]
    dyn_params = init_mlp_params(key_dyn, layer_sizes)

    # Classifier: from final state (state_dim) -> num_classes
    clf_W = jax.random.normal(key_clf, (num_classes, state_dim)) * jnp.sqrt(
        2.0 / state_dim
    )
    clf_b = jnp.zeros((num_classes,))

    return ModelParams(dyn_params=dyn_params, clf_W=clf_W, clf_b=clf_b)


# --- src/train.py ---
# ----------------- Dataset helpers -----------------
def load_lorenz_dataset(path: str = "data/lorenz_dataset.npy") -> Tuple[jnp.ndarray, jnp.ndarray]:
    data = _fake_lorenz_file()  # scaffolding: np.load of the generated file
    X_np, y_np = data["X"], data["y"]  # X: (N, T, 3), y: (N,)
    X = jnp.array(X_np, dtype=jnp.float32)
    y = jnp.array(y_np, dtype=jnp.int32)
    return X, y


def train_val_split(
    X: jnp.ndarray,
    y: jnp.ndarray,
    val_frac: float = 0.2,
    key: jax.Array = jax.random.PRNGKey(0),
) -> Tuple[jnp.ndarray, jnp.ndarray, jnp.ndarray, jnp.ndarray]:
    N = X.shape[0]
    idx = jax.random.permutation(key, N)
    split = int(N * (1.0 - val_frac))
    train_idx = idx[:split]
    val_idx = idx[split:]
    X_train, y_train = X[train_idx], y[train_idx]
    X_val, y_val = X[val_idx], y[val_idx]
    return X_train, y_train, X_val, y_val


def batch_iter(
    X: jnp.ndarray,
    y: jnp.ndarray,
    batch_size: int,
    key: jax.Array,
):
    N = X.shape[0]
    idx = jax.random.permutation(key, N)

    for start in range(0, N, batch_size):
        end = start + batch_size
        batch_idx = idx[start:end]
        yield X[batch_idx], y[batch_idx]


# ----------------- Loss & metrics -----------------
def forward_batch(
    params: ModelParams,
    X_batch: jnp.ndarray,
    dt: float,
    steps: int,
):
    """
    X_batch: (B, T, 3)
    We use the first state as initial condition for the Neural ODE.
    """
    z0_batch = X_batch[:, 0, :]  # (B, 3)

    # vmap over batch dimension
    traj_batch, logits_batch = jax.vmap(
        lambda z0: apply_model(params, z0, dt, steps)
    )(z0_batch)

    return traj_batch, logits_batch


def loss_fn(
    params: ModelParams,
    X_batch: jnp.ndarray,
    y_batch: jnp.ndarray,
    dt: float,
    steps: int,
    traj_weight: float = 0.1,
):
    """
    Combined loss:
      - classification loss (cross entropy)
      - optional trajectory reconstruction loss (MSE) with small weight
    """
    traj_pred, logits = forward_batch(params, X_batch, dt, steps)

    # Classification loss
    ce_loss = optax.softmax_cross_entropy_with_integer_labels(
        logits, y_batch
    ).mean()

    # Trajectory reconstruction loss (compare to ground-truth Lorenz traj)
    traj_true = X_batch  # (B, T, 3)
    traj_mse = jnp.mean((traj_pred - traj_true) ** 2)

    # total_loss = ce_loss + traj_weight * traj_mse
    total_loss = ce_loss
    
    # Accuracy for logging
    preds = jnp.argmax(logits, axis=-1)
    acc = jnp.mean(preds == y_batch)

    metrics = {
        "loss": total_loss,
        "ce_loss": ce_loss,
        "traj_mse": traj_mse,
        "acc": acc,
    }
    return total_loss, metrics


# ----------------- Training step (JIT) -----------------
def make_train_step(optimizer, dt: float, steps: int, traj_weight: float = 0.1):
    """Closure creating a jit-compiled training step."""

    def _train_step(params: ModelParams, opt_state, X_batch, y_batch):
        (loss_value, metrics), grads = jax.value_and_grad(
            lambda p, xb, yb: loss_fn(p, xb, yb, dt, steps, traj_weight),
            has_aux=True,
        )(params, X_batch, y_batch)

        updates, opt_state = optimizer.update(grads, opt_state, params)
        params = optax.apply_updates(params, updates)

        return params, opt_state, metrics

    return jax.jit(_train_step)


# ----------------- Evaluation (no grad) -----------------
def evaluate(
    params: ModelParams,
    X: jnp.ndarray,
    y: jnp.ndarray,
    dt: float,
    steps: int,
    batch_size: int = 32,
):
    N = X.shape[0]
    num_batches = max(1, N // batch_size)

    def _eval_batch(Xb, yb):
        _, logits = forward_batch(params, Xb, dt, steps)
        ce = optax.softmax_cross_entropy_with_integer_labels(logits, yb).mean()
        preds = jnp.argmax(logits, axis=-1)
        acc = jnp.mean(preds == yb)
        return ce, acc

    ce_sum = 0.0
    acc_sum = 0.0

    for i in range(0, N, batch_size):
        Xb = X[i : i + batch_size]
        yb = y[i : i + batch_size]
        ce, acc = _eval_batch(Xb, yb)
        ce_sum += float(ce) * Xb.shape[0]
        acc_sum += float(acc) * Xb.shape[0]

    return ce_sum / N, acc_sum / N


# ----------------- Main training loop -----------------
def main():
    # Hyperparameters
    batch_size = 32
    num_epochs = 3  # scaffolding: 50 in the script
    lr = 1e-3
    traj_weight = 0.1

    # Load dataset
    X, y = load_lorenz_dataset("data/lorenz_dataset.npy")
    steps = X.shape[1]       # T = 1000
    dt = 0.01                # same as we used in data generation

    key = jax.random.PRNGKey(0)
    key_split, key_data = jax.random.split(key)

    X_train, y_train, X_val, y_val = train_val_split(X, y, val_frac=0.2, key=key_data)

    # Initialize model
    key_model = key_split
    params = init_model_params(
        key_model,
        state_dim=3,
        hidden_dims=(64, 64),
        num_classes=2,
    )

    # Optimizer
    optimizer = optax.adam(lr)
    opt_state = optimizer.init(params)

    train_step = make_train_step(optimizer, dt, steps, traj_weight=traj_weight)

    print("Start training...")
    print(f"Train size: {X_train.shape[0]}, Val size: {X_val.shape[0]}")
    start_time = time.time()

    for epoch in range(1, num_epochs + 1):
        # Shuffle per epoch
        key, key_epoch = jax.random.split(key)
        epoch_metrics = {"loss": 0.0, "ce_loss": 0.0, "traj_mse": 0.0, "acc": 0.0}
        count = 0

        for X_batch, y_batch in batch_iter(X_train, y_train, batch_size, key_epoch):
            params, opt_state, metrics = train_step(params, opt_state, X_batch, y_batch)

            bs = X_batch.shape[0]
            for k in epoch_metrics:
                epoch_metrics[k] += float(metrics[k]) * bs
            count += bs

        # Normalize epoch metrics
        for k in epoch_metrics:
            epoch_metrics[k] /= count

        # Validation
        val_ce, val_acc = evaluate(params, X_val, y_val, dt, steps, batch_size=32)

        elapsed = time.time() - start_time
        print(
            f"[Epoch {epoch:03d}] "
            f"loss={epoch_metrics['loss']:.4f} | "
            f"ce={epoch_metrics['ce_loss']:.4f} | "
            f"traj_mse={epoch_metrics['traj_mse']:.4f} | "
            f"acc={epoch_metrics['acc']:.4f} | "
            f"val_ce={val_ce:.4f} | val_acc={val_acc:.4f} | "
            f"time={elapsed:.1f}s"
        )

    print("Training finished.")
    return num_epochs * ((X_train.shape[0] + batch_size - 1) // batch_size)  # scaffolding


n_calls = main()  # scaffolding
_report({"jit(_train_step)"}, n_calls)  # scaffolding
