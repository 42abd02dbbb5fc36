# source: https://github.com/mav3ri3k/college/blob/3c61d862c38ee1d814b08b1cc26a77dcfed35ceb/dl/ass1/2/main.py
# expect: none
# runtime: COMPILES 4 CALLS 603
# why: University deep-learning assignment script: a jitted train_step takes jax.grad of the separately jitted loss_fn (nested jit) for 500 epochs, and a jitted helper builds nn.Dense(4) inside the trace; every function compiles once.

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
import jax
import jax.numpy as jnp
import optax
import flax.linen as nn
from flax.training.train_state import TrainState
import numpy as onp

# ---- dl/ass1/2/main.py (matplotlib plotting dropped)
X = jnp.array([[98.6, 0.2],
               [99.5, 0.9],
               [98.7, 0.8],
               [99.0, 0.3],
               [100.2, 0.7],
               [98.4, 0.6]], dtype=jnp.float32)

y = jnp.array([[0],
               [1],
               [1],
               [0],
               [1],
               [0]], dtype=jnp.float32)

mu, sigma = X.mean(0), X.std(0)
Xn = (X - mu) / sigma

class MLP(nn.Module):
    hidden: int = 4
    @nn.compact
    def __call__(self, x):
        x = nn.Dense(self.hidden)(x)
        x = nn.relu(x)
        return nn.Dense(1)(x)

model = MLP()
rng = jax.random.key(0)
params = model.init(rng, jnp.ones((1, 2)))["params"]

@jax.jit
def loss_fn(params, x, y):
    logits = model.apply({"params": params}, x)
    return optax.sigmoid_binary_cross_entropy(logits, y).mean()

@jax.jit
def accuracy(params, x, y):
    logits = model.apply({"params": params}, x)
    return ((logits > 0.5) == y).mean()

optimizer = optax.adam(1e-2)
state = TrainState.create(
    apply_fn=model.apply,
    params=params,
    tx=optimizer
)

@jax.jit
def train_step(state, x, y):
    grads = jax.grad(loss_fn)(state.params, x, y)
    return state.apply_gradients(grads=grads)

epochs = 500
loss_hist, acc_hist = [], []

for epoch in range(epochs):
    state = train_step(state, Xn, y)
    if epoch % 10 == 0 or epoch == epochs - 1:
        loss = loss_fn(state.params, Xn, y)
        acc  = accuracy(state.params, Xn, y)
        loss_hist.append(float(loss))
        acc_hist.append(float(acc))
        print(f"epoch {epoch:3d}  loss={loss:.4f}  acc={acc:.3f}")

@jax.jit
def hidden_rep(params, x):
    x = nn.Dense(4).apply({"params": params["Dense_0"]}, x)
    return nn.relu(x)

H = hidden_rep(state.params, Xn)          # (6, 4)
_report({"jit(train_step)", "jit(loss_fn)", "jit(accuracy)", "jit(hidden_rep)"}, epochs + 2 * len(loss_hist) + 1)  # scaffolding
