# source: https://github.com/avuign/matrix-model-nn/blob/c1497348f05e3d02bb160d2977a5b5461e9f5553/train_jax.py
# expect: shape-churn at line 51
# runtime: COMPILES 3 CALLS 30
# why: The R_raw parameter is initialised with jnp.array(1.0), a weak-typed float32, so the jitted step (built once in train) sees params['R_raw'] weak on the first call and strong after the Adam update, and Adam's mu/nu flip one step later: step compiles three times instead of once.

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
# train_jax.py of avuign/matrix-model-nn at c149734, with model_jax.MatrixNetwork and the constants of config.py inlined
import pickle
import types  # scaffolding

import jax
import jax.numpy as jnp
import optax
import flax.linen as nn

# --- config.py (constants; GRID_PTS cut from 800 to 200) ---
HIDDEN_DIM = 128
N_LAYERS = 6
GRID_PTS = 200  # scaffolding: 800 in config.py


# --- model_jax.py ---
class MatrixNetwork(nn.Module):
    hidden_dim: int = HIDDEN_DIM
    num_layers: int = N_LAYERS

    @nn.compact
    def __call__(self, x):
        R_raw = self.param("R_raw", lambda key, shape: jnp.array(1.0), ())
        R = nn.softplus(R_raw)

        z = x[..., None]
        for _ in range(self.num_layers):
            z = nn.Dense(self.hidden_dim)(z)
            z = nn.gelu(z)
        z = nn.Dense(1)(z)
        z = z[..., 0]

        return jax.nn.relu(z)


# --- train_jax.py ---
def compute_loss(params, model, V, grid, nu=0.5):

    rho = model.apply({"params": params}, grid)
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
    args = types.SimpleNamespace(m=1.0, g4=0.0, g6=0.0, g8=0.0, g10=0.0, n_epochs=30, lr=0.001, L=2)  # scaffolding: get_args() defaults, n_epochs 4000 -> 30
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
            + args.g10 * (x**10)
        )

    print("Starting to train..")
    params = train(params, model, V, grid, args.n_epochs, args.lr)
    # scaffolding: saving the weights with pickle cut
    _report({"jit(step)"}, args.n_epochs)  # scaffolding
