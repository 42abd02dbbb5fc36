# source: https://github.com/forgi86/jax-tutorial/blob/a0fd1678b56aed65d4ccb52e1f0036fe6d1b2a70/gallery/meta_learning/maml_sines.ipynb
# expect: none
# runtime: COMPILES 3 CALLS 7
# why: the MAML make_step compiles once for the outer loop; inner_update's jax.jit(jax.grad(loss_fn)) is inlined under make_step and compiles only for the two eager calls (plain and vmapped).
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
    iters = 5000

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
iters = 5 # outer loop iterations  # scaffolding (was 20_000)
lr = 1e-3 # outer loop learning rate
alpha = .1 # inner loop learning rate (just one step)
key, subkey = jr.split(key)
batch_x, batch_y, amplitudes, phases = sample_datasets(subkey, batch_size=batch_size, K=K*2, return_params=True)
# support set, aka context, training set
batch_x1 = batch_x[:, :K]
batch_y1 = batch_y[:, :K]
# query set, test set
batch_x2 = batch_x[:, K:]
batch_y2 = batch_y[:, K:]
key, subkey = jr.split(key)
params_maml = mlp.init(subkey, jnp.ones((1,)))

loss_fn(params_maml, batch_x1[0, :, None], batch_y1[0, :, None])
def inner_update(p, x1, y1, iters=1):
    grad_fn = jax.jit(jax.grad(loss_fn))
    for _ in range(iters):
        grads = grad_fn(p, x1, y1) #jax.grad(loss_fn)(p, x1, y1)
        inner_sgd_fn = lambda g, p: (p - alpha*g)
        p = jax.tree_util.tree_map(inner_sgd_fn, grads, p)
    return p
#    Simpler 1-step version
#    grads = jax.grad(loss_fn)(p, x1, y1)
#    inner_sgd_fn = lambda g, p: (p - alpha*g)
#    return jax.tree_util.tree_map(inner_sgd_fn, grads, p)

def maml_loss(p, x1, y1, x2, y2):
    p2 = inner_update(p, x1, y1)
    return loss_fn(p2, x2, y2)

maml_loss(params_init, batch_x1[0], batch_y1[0], batch_x2[0], batch_y2[0])
def batched_maml_loss(p, x1_b, y1_b, x2_b, y2_b):
    maml_loss_cfg = partial(maml_loss, p) # fix first argument
    maml_loss_batch = jax.vmap(maml_loss_cfg) # vmap over the rest
    batch_losses = maml_loss_batch(x1_b, y1_b, x2_b, y2_b)
    return jnp.mean(batch_losses)

batched_maml_loss(params_maml, batch_x1, batch_y1, batch_x2, batch_y2)
meta_optimizer = optax.adam(learning_rate=lr)
meta_opt_state = meta_optimizer.init(params_maml)

@jax.jit
def make_step(p, s, x1, y1, x2, y2):
    l, g = jax.value_and_grad(batched_maml_loss)(p, x1, y1, x2, y2)
    u, s = meta_optimizer.update(g, s)
    p = optax.apply_updates(p, u)
    return p, s, l


losses = []
for i in tqdm(range(iters)):
    key, subkey = jr.split(key)
    
    batch_x, batch_y = sample_datasets(subkey, batch_size=batch_size, K=2*K)

    batch_x1 = batch_x[:, :K]
    batch_y1 = batch_y[:, :K]
    batch_x2 = batch_x[:, K:]
    batch_y2 = batch_y[:, K:]

    params_maml, meta_opt_state, loss = make_step(
        params_maml, meta_opt_state, batch_x1, batch_y1, batch_x2, batch_y2
    )
    losses.append(loss)
_report({"jit(make_step)", "jit(loss_fn)"}, 7)  # scaffolding
