# source: https://github.com/Ceyron/machine-learning-and-simulation/blob/b8ee2b117939245e22571c403d1330b8a99ac9d1/english/neural_operators/lorenz_mlp_emulator_jax.ipynb
# expect: shape-churn at line 171
# runtime: COMPILES 2 CALLS 58
# why: The notebook's dataloader yields ceil(n/64) batches with a short final batch (29994 = 468*64 + 42 in the notebook; 1794 = 28*64 + 2 here), so the eqx.filter_jit update_fn is traced and compiled a second time at the last batch of the first epoch.

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


import jax
import jax.numpy as jnp
import jax.tree_util as jtu
import equinox as eqx
import optax
from tqdm import tqdm


def lorenz_rhs(u, *, sigma, rho, beta):
    x, y, z = u
    x_dot = sigma * (y - x)
    y_dot = x * (rho - z) - y
    z_dot = x * y - beta * z
    u_dot = jnp.array([x_dot, y_dot, z_dot])
    return u_dot


class LorenzStepperRK4:
    def __init__(self, dt=0.01, *, sigma=10, rho=28, beta=8/3):
        self.dt = dt
        self.sigma = sigma
        self.rho = rho
        self.beta = beta
    
    def __call__(self, u_prev):
        lorenz_rhs_fixed = lambda u: lorenz_rhs(
            u,
            sigma=self.sigma,
            rho=self.rho,
            beta=self.beta,
        )
        k_1 = lorenz_rhs_fixed(u_prev)
        k_2 = lorenz_rhs_fixed(u_prev + 0.5 * self.dt * k_1)
        k_3 = lorenz_rhs_fixed(u_prev + 0.5 * self.dt * k_2)
        k_4 = lorenz_rhs_fixed(u_prev + self.dt * k_3)
        u_next = u_prev + self.dt * (k_1 + 2*k_2 + 2*k_3 + k_4)/6
        return u_next


lorenz_stepper = LorenzStepperRK4()


def rollout(stepper, n, *, include_init: bool = False):
    def scan_fn(u, _):
        u_next = stepper(u)
        return u_next, u_next

    def rollout_fn(u_0):
        _, trj = jax.lax.scan(scan_fn, u_0, None, length=n)

        if include_init:
            return jnp.concatenate([jnp.expand_dims(u_0, axis=0), trj], axis=0)

        return trj

    return rollout_fn


u_0_set = jax.random.normal(jax.random.PRNGKey(0), (9, 3))
dataset = jax.vmap(rollout(lorenz_stepper, 300+200, include_init=False))(u_0_set)[:, 200:]  # scaffolding: 5000+2000 / 2000: cut to 300+200 / 200
train_dataset, test_dataset = dataset[:6], dataset[6:]


def slice_windows_of_two(one_trj):
    num_time_steps = one_trj.shape[0]

    windows = []
    for i in range(num_time_steps-1):
        windows.append(one_trj[i:i+2])
    
    return jnp.stack(windows)


train_subtrj = jnp.concatenate(jax.vmap(slice_windows_of_two)(train_dataset))  # 6 * 299 = 1794 = 28 * 64 + 2


def dataloader(
    data,
    *,
    batch_size: int,
    key,
):
    """
    Loop generator over the data. The data can be a PyTree or an Array. For
    supervised learning problems you can also hand over a tuple of Arrays
    (=PyTree).
    """

    n_samples_list = [a.shape[0] for a in jtu.tree_leaves(data)]

    if not all(n == n_samples_list[0] for n in n_samples_list):
        raise ValueError(
            "All arrays / PyTree leaves must have the same number of samples. (Leading array axis)"
        )

    n_samples = n_samples_list[0]

    n_batches = int(jnp.ceil(n_samples / batch_size))

    permutation = jax.random.permutation(key, n_samples)

    for batch_id in range(n_batches):
        start = batch_id * batch_size
        end = min((batch_id + 1) * batch_size, n_samples)

        batch_indices = permutation[start:end]

        sub_data = jtu.tree_map(lambda a: a[batch_indices], data)

        yield sub_data


lorenz_emulator = eqx.nn.MLP(
    3,
    3,
    160,
    8,
    jax.nn.relu,
    key = jax.random.PRNGKey(42),
)

optimizer = optax.adam(optax.warmup_cosine_decay_schedule(0.0, 3e-4, 15_000, 100_000))
opt_state = optimizer.init(eqx.filter(lorenz_emulator, eqx.is_array))

def loss_fn(model, batch):
    x, y = batch[:, 0], batch[:, 1]
    y_pred = jax.vmap(model)(x)
    return jnp.mean(jnp.square(y_pred - y))

@eqx.filter_jit
def update_fn(model, state, batch):
    loss, grad = eqx.filter_value_and_grad(loss_fn)(model, batch)
    updates, new_state = optimizer.update(grad, state, model)
    new_model = eqx.apply_updates(model, updates)
    return new_model, new_state, loss

shuffle_key = jax.random.PRNGKey(99)
train_loss_history = []

for epoch in tqdm(range(2), disable=True):  # scaffolding: 200 epochs cut to 2, progress bar off
    shuffle_key, subkey = jax.random.split(shuffle_key)

    for batch in dataloader(train_subtrj, batch_size=64, key=subkey):
        lorenz_emulator, opt_state, loss = update_fn(
            lorenz_emulator,
            opt_state,
            batch,
        )
        train_loss_history.append(loss)

_report({"jit(update_fn)"}, len(train_loss_history))  # scaffolding
