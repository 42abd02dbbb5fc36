# source: https://github.com/forgi86/jax-tutorial/blob/a0fd1678b56aed65d4ccb52e1f0036fe6d1b2a70/gallery/meta_learning/maml_sines.ipynb
# expect: shape-churn at line 98
# runtime: COMPILES 2 CALLS 20
# why: under jax.vmap(train, in_axes=(None, 0, 0)) the first make_step call gets unbatched params and a Python-int step, later calls get batched params and an array step, so the jitted step compiles twice.
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
from functools import partial
from tqdm import tqdm
import jax
import jax.numpy as jnp
import jax.random as jr
import flax.linen as nn
import optax
from flax.training import train_state

key = jr.key(42)
# lower and upper bounds for the sinusoidal dataset parameters
xl = -5.0
xu = 5.0
al = 0.1
au = 0.5
pl = 0.0
pu = 2 * jnp.pi
batch_size = 32 # meta batch size for MAML
K = 5 # K-shot regression
def sample_datasets(key, batch_size, K, noise_std=0.0, return_params=False):

    """
    Sample a batch of tasks from the sine function with random phases and amplitudes.
    Each task is defined by a different amplitude and phase shift.
    """
    key_amp, key_phase, key_x, key_e = jr.split(key, 4)
    
    amplitudes = jr.uniform(key_amp, shape=(batch_size,), minval=al, maxval=au)
    phases = jr.uniform(key_phase, shape=(batch_size,), minval=pl, maxval=pu)
    batch_x = jr.uniform(key_x, shape=(batch_size, K), minval=xl, maxval=xu)
    batch_y = amplitudes[:, None] * jnp.sin(batch_x + phases[:, None])
    batch_y += jr.normal(key_e, shape=batch_y.shape) * noise_std  # Add noise

    batch_x = batch_x[..., None]
    batch_y = batch_y[..., None]
    
    if return_params:
        # Return the parameters used to generate the tasks, useful for performance evaluation and plotting
        return batch_x, batch_y, amplitudes, phases
    else:
        # Return only the inputs and outputs
        return batch_x, batch_y

key, subkey = jr.split(key)
batch_x_val, batch_y_val, amplitudes, phases = sample_datasets(subkey, batch_size=batch_size, K=K, return_params=True)
# A simple MLP (stock code from copilot)
class MLP(nn.Module):
    hidden_size: int
    output_size: int

    @nn.compact
    def __call__(self, x):
        x = nn.Dense(self.hidden_size)(x)
        x = nn.tanh(x)
        x = nn.Dense(self.hidden_size)(x)
        x = nn.tanh(x)
        x = nn.Dense(self.output_size)(x)
        return x
    
# Initialize the MLP
mlp = MLP(hidden_size=40, output_size=1)
# Function that trains a single model

def loss_fn(p, x, y):
    y_hat = mlp.apply(p, x)
    loss = jnp.mean((y - y_hat) ** 2)
    return loss

def train(params, x, y):
    iters = 20  # scaffolding (was 5000)

    loss_cfg = partial(loss_fn, x=x, y=y)
    opt = optax.adamw(learning_rate=1e-2)
    state = train_state.TrainState.create(apply_fn=loss_cfg, params=params, tx=opt)

    @jax.jit
    def make_step(state):
        loss, grads = jax.value_and_grad(state.apply_fn)(state.params)
        state = state.apply_gradients(grads=grads)
        return loss, state

    losses = jnp.empty(iters)
    for idx in range(iters):
        loss, state = make_step(state)
        losses = losses.at[idx].set(loss)
        # pbar.set_postfix_str(loss.item())

    return state.params, jnp.array(losses)
key, subkey = jr.split(key)
params_init = mlp.init(subkey, jnp.ones((1,)))
params_standard, losses = jax.vmap(train, in_axes=(None, 0, 0))(params_init, batch_x_val[..., None], batch_y_val[..., None]) # params of standard training
_report({"jit(make_step)"}, 20)  # scaffolding
