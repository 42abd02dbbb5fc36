# source: https://github.com/outlawhayden/deep-operator-networks/blob/f24cccfdecebf0b06feecd8ebe8f9deb17b8a3a5/deeponet_2step/time_grid_experiment.py
# expect: stale-closure at line 205
# runtime: COMPILES 1 CALLS 6
# why: train_step (eqx.filter_jit) reads the global opt when it is traced; the script then rebinds opt = optax.lbfgs() expecting train_step to 'see this new opt', but the calls hit the cached Adam trace, so the LBFGS refinement silently keeps running Adam.

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
import jax.numpy as jnp
import numpy as np
import jax
import os
import optax
import equinox as eqx
from jax.nn.initializers import he_normal
# scaffolding: scipy, matplotlib, sklearn, tqdm and csv imports cut

# -------------------------------------------------
# config
# -------------------------------------------------
seed = 42
np.random.seed(seed)
# scaffolding: jax.config.update("jax_platform_name", "METAL") cut (CPU here)

batch_size = 64
num_branches = 15
num_trunk_epochs = 3  # scaffolding: 120000 in the script
lr = 1e-5
num_LBFGS_epochs = 3  # scaffolding: 10000 in the script
time_block = 5  # grow the time window in chunks of 5

print("\nconfiguring backend...")
print("backend selected:\n", jax.default_backend())
print("active devices:\n", jax.devices())
print("--------------------\n")

# -------------------------------------------------
# load the full dataset once
# -------------------------------------------------
# scaffolding: a small synthetic stand-in for data/burgers_dataset.npz (t, x, samples with params/solution)
full_t_grid_all = jnp.linspace(0.0, 1.0, 5)
x_grid_full = jnp.linspace(-1.0, 1.0, 16)
data_all = [{"params": np.random.rand(2), "solution": np.random.rand(5, 16)} for _ in range(6)]
u_all = np.array([i["params"] for i in data_all])
s_all = np.array([i["solution"] for i in data_all])

total_timesteps_available = len(full_t_grid_all)

# figure out which time prefixes we'll run
time_prefix_list = list(range(time_block, total_timesteps_available + 1, time_block))
# if not divisible by block size, include the tail
if time_prefix_list[-1] != total_timesteps_available:
    time_prefix_list.append(total_timesteps_available)
print("time segments:\n", time_prefix_list)
results = []

# -------------------------------------------------
# sweep over increasing time windows
# -------------------------------------------------
for num_timesteps in time_prefix_list:
    print("\n==============================")
    print(f"Training with first {num_timesteps} time steps")
    print("==============================\n")

    # fresh key per experiment but reproducible
    key = jax.random.key(seed)
    key = jax.random.fold_in(key, num_timesteps)

    # -----------------------------------------------------------------
    # slice dataset to first num_timesteps in time
    # -----------------------------------------------------------------
    t_grid = full_t_grid_all[:num_timesteps]   # shape (num_timesteps,)
    x_grid = x_grid_full                       # unchanged
    s = s_all[:, :num_timesteps, :]            # (n_samples, num_timesteps, Nx)
    u = u_all                                  # (n_samples, 2) params

    n_samp = len(data_all)
    train_indices, test_indices = np.arange(n_samp)[:4], np.arange(n_samp)[4:]  # scaffolding: sklearn train_test_split(test_size=0.33)
    u_train, u_test = jnp.array(u[train_indices]), jnp.array(u[test_indices])
    s_train, s_test = jnp.array(s[train_indices]), jnp.array(s[test_indices])

    # build xt grid for these timesteps
    xx, tt = jnp.meshgrid(x_grid, t_grid)
    xt_grid = jnp.concatenate(
        [xx.flatten()[:, None], tt.flatten()[:, None]], axis=1
    )
    print("xt_grid shape:", xt_grid.shape)

    # reshape solutions the same way you did before, but generalizing 1005
    # 1005 = 5 * len(x_grid) in your original run
    num_x = len(x_grid)
    ss_grid = s_train.reshape([-1, num_timesteps * num_x]).T
    print("ss_grid shape:", ss_grid.shape)

    # -------------------------------------------------
    # define your models exactly like before
    # -------------------------------------------------

    # Linear Model (Wx + b)
    class Linear(eqx.Module):
        weight: jax.Array
        bias: jax.Array

        def __init__(self, in_size, out_size, key, initializer=he_normal()):
            wkey, bkey = jax.random.split(key)
            self.weight = initializer(
                wkey, (out_size, in_size), dtype=jnp.float32
            )
            self.bias = jnp.zeros((out_size,), dtype=jnp.float32)

        def __call__(self, x):
            return self.weight @ x + self.bias

    # Basic MultiLayer Perceptron Primitive
    class MLP(eqx.Module):
        layers: list
        activations: list

        def __init__(
            self,
            architecture,
            key,
            activation=jax.nn.relu,
            initializer=he_normal(),
        ):
            """
            architecture: List[in, hidden1, hidden2, ..., out]
            key: random key
            activation: jax.nn act fxn
            """
            keys = jax.random.split(key, len(architecture) - 1)
            self.layers = [
                Linear(
                    architecture[i],
                    architecture[i + 1],
                    keys[i],
                    initializer=initializer,
                )
                for i in range(len(architecture) - 1)
            ]
            # no activation on last layer
            self.activations = [activation] * (len(self.layers) - 1) + [
                eqx.nn.Identity()
            ]

        def __call__(self, x):
            for layer, act in zip(self.layers, self.activations):
                x = act(layer(x))
            return x

    u_dim = 2  # params dim (stays 2)
    y_dim = 2  # (x,t)
    branch_arch = [u_dim, 40, 40, num_branches]
    trunk_arch = [y_dim, 40, 40, num_branches]

    key, subkey_t, subkey_A = jax.random.split(key, num=3)
    trunk_model = MLP(trunk_arch, key=subkey_t)
    A_model = jax.random.normal(subkey_A, (num_branches, s_train.shape[0]))

    model = (trunk_model, A_model)

    def deeponet_step1(model, u_tr):
        trunk_model, A_model = model
        trunk_mat = jax.vmap(trunk_model)(u_tr)
        return (trunk_mat @ A_model)

    def loss_fn(model, u_in, s_true):
        pred_y = deeponet_step1(model, u_in)
        return jnp.mean((s_true - pred_y) ** 2)
    



    # -------------------------------------------------
    # 1. Pretrain with Adam (unchanged)
    # -------------------------------------------------
    opt = optax.adam(lr)
    opt_state = opt.init(eqx.filter(model, eqx.is_inexact_array))

    loss_hist = []

    @eqx.filter_jit
    def train_step(model, opt_state, batch):
        loss, grads = eqx.filter_value_and_grad(loss_fn)(model, *batch)
        updates, opt_state = opt.update(grads, opt_state, model)
        model = eqx.apply_updates(model, updates)
        return model, opt_state, loss

    for step in range(num_trunk_epochs):  # scaffolding: tqdm(range(num_trunk_epochs), ...)
        model, opt_state, loss = train_step(model, opt_state, (xt_grid, ss_grid))
        loss_hist.append(float(loss))
        if step % 1000 == 0:
            print(f"[T={num_timesteps}] Adam step {step}: loss={float(loss):.3e}")

    print(f"[T={num_timesteps}] final adam loss:", float(loss))

    # -------------------------------------------------
    # 2. LBFGS refinement (exact same pattern you used)
    # -------------------------------------------------
    opt = optax.lbfgs()  # rebind the global name 'opt'; train_step will now
                         # see this new opt in subsequent calls

    for step in range(num_LBFGS_epochs):  # scaffolding: tqdm(range(num_LBFGS_epochs), ...)
        model, opt_state, loss = train_step(model, opt_state, (xt_grid, ss_grid))
        loss_hist.append(float(loss))
        if step % 1000 == 0:
            print(f"[T={num_timesteps}] LBFGS step {step}: loss={float(loss):.3e}")

    # -------------------------------------------------
    # final loss for this time prefix
    # -------------------------------------------------
    final_loss_val = float(loss_fn(model, xt_grid, ss_grid))
    t_max_val = float(t_grid[-1])

    print(
        f"[T={num_timesteps}] Final training loss after LBFGS: {final_loss_val:.6e}"
    )
    print(f"[T={num_timesteps}] t_max = {t_max_val}")

    # we'll also compute your "deepOnet_err" metric you had before
    deepOnet_err_val = float(np.mean(ss_grid - deeponet_step1(model, xt_grid)))


    # stash result
    results.append(
        {
            "num_timesteps_used": int(num_timesteps),
            "t_max_value": t_max_val,
            "final_loss": final_loss_val,
            "deepOnet_err": deepOnet_err_val,
        }
    )

# scaffolding: the CSV summary is cut. OUTPUTS: the optimiser state after the "LBFGS" phase is still
# Adam's (the jitted train_step kept the Adam `opt` it was traced with)
print("OUTPUTS", type(opt_state[0]).__name__)  # scaffolding
_report({"jit(train_step)"}, len(time_prefix_list) * (num_trunk_epochs + num_LBFGS_epochs))  # scaffolding
