# source: https://github.com/avuign/matrix-model-nn/blob/a7e9fde6aa93a7efc5e4a5e85a7b256fbf18adf7/train_jax.py
# expect: none
# runtime: COMPILES 1 CALLS 30
# why: The first JAX version of the same script: step is jitted inside train(), closing over model, V and grid; train() runs once and the MLP's parameters are all strongly typed, so step compiles once for every epoch.

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
# train_jax.py of avuign/matrix-model-nn at a7e9fde (the first JAX version, before R_raw was added), with model_jax.MatrixNetwork and the constants of config.py inlined
import pickle
import types  # scaffolding

import jax
import jax.numpy as jnp
import optax
import flax.linen as nn

# --- config.py at a7e9fde (constants; GRID_PTS cut from 500 to 200) ---
HIDDEN_DIM = 256
N_LAYERS = 4
GRID_PTS = 200  # scaffolding: 500 in config.py


# --- model_jax.py ---
class MatrixNetwork(nn.Module):
    hidden_dim: int = HIDDEN_DIM
    num_layers: int = N_LAYERS

    @nn.compact
    def __call__(self, x):
        x = x[..., None]
        for _ in range(self.num_layers):
            x = nn.Dense(self.hidden_dim)(x)
            x = nn.tanh(x)
        x = nn.Dense(1)(x)
        return x[..., 0]


# --- train_jax.py ---
def compute_loss(params, model, V, grid, nu=0.5):

    f = model.apply({"params": params}, grid)
    rho = jnp.exp(f)
    Z = jnp.trapezoid(rho, grid)
    rho = rho / Z

    potential_term = jnp.trapezoid(V(grid) * rho, grid)

    xi, yi = jnp.meshgrid(grid, grid, indexing="ij")
    diff = jnp.abs(xi - yi)

    mask = ~jnp.eye(len(grid), dtype=bool)
    diff = jnp.where(mask, diff, 1.0)

    log_matrix = jnp.log(diff) * mask

    rho_matrix = jnp.outer(rho, rho)

    integrand = rho_matrix * log_matrix

    kernel_term = jnp.trapezoid(jnp.trapezoid(integrand, grid), grid)

    loss = potential_term - kernel_term

    return loss


def train(params, model, V, grid, num_epochs, lr):

    optimizer = optax.adam(lr)
    opt_state = optimizer.init(params)

    @jax.jit
    def step(params, opt_state):
        loss, grads = jax.value_and_grad(compute_loss)(params, model, V, grid)
        updates, new_opt_state = optimizer.update(grads, opt_state)
        new_params = optax.apply_updates(params, updates)
        return new_params, new_opt_state, loss

    for epoch in range(num_epochs):
        params, opt_state, loss = step(params, opt_state)
        if epoch % 500 == 0 or epoch == num_epochs - 1:
            print(f"Epoch {epoch + 1}, Loss: {loss}")
    return params


if __name__ == "__main__":
    args = types.SimpleNamespace(m=1.0, g4=0.0, g6=0.0, g8=0.0, n_epochs=30, lr=0.001, L=1)  # scaffolding: get_args() defaults, n_epochs 2000 -> 30
    model = MatrixNetwork()

    key = jax.random.PRNGKey(0)
    params = model.init(key, jnp.ones(1))["params"]

    grid = args.L * jnp.linspace(-1, 1, GRID_PTS)

    def V(x):
        return (
            (args.m) * (x**2) / 2
            + args.g4 * (x**4)
            + args.g6 * (x**6)
            + args.g8 * (x**8)
        )

    print("Starting to train..")
    params = train(params, model, V, grid, args.n_epochs, args.lr)
    # scaffolding: saving the weights with pickle cut
    _report({"jit(step)"}, args.n_epochs)  # scaffolding
