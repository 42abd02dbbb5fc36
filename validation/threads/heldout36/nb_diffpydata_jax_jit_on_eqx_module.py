# source: https://github.com/adonath/jax-diffusion-models-pydata-boston-2025/blob/838d2eff6c7381f4767b615709c79e33f17c9224/jax-diffusion-models-pydata-boston-2025.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 20
# why: score_matching_loss is decorated with plain @jax.jit yet takes an equinox Module, and is differentiated inside an eqx.filter_jit step that runs in a Python loop; the Module's non-array fields are static, the inner jit is inlined, and the step compiles once.

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


# cell 3
from functools import partial
from collections import namedtuple

import numpy as np

import jax
from jax import numpy as jnp
from jax import random
# cell 18
import equinox as eqx
import optax
# cell 19
random_state = np.random.RandomState(8923)

n_samples = 1_000
x = random_state.normal(size=(n_samples, 3))  # scaffolding: make_swiss_roll(n_samples=n_samples, noise=0.1, random_state=random_state)[0] in the notebook (sklearn)
x = 0.13 * x[:, [0, 2]] # drop z axis
# cell 21
class MLP(eqx.Module):
    """Simple MLP"""
    fc1: eqx.nn.Linear
    fc2: eqx.nn.Linear
    fc3: eqx.nn.Linear

    def __init__(self, in_dim, out_dim, key, hidden_dim=128):
        keys = jax.random.split(key, 3)
        self.fc1 = eqx.nn.Linear(in_dim, hidden_dim, key=keys[0])
        self.fc2 = eqx.nn.Linear(hidden_dim, hidden_dim, key=keys[1])
        self.fc3 = eqx.nn.Linear(hidden_dim, out_dim, key=keys[2])

    def __call__(self, x):
        x = jax.nn.gelu(self.fc1(x))
        x = jax.nn.gelu(self.fc2(x))
        x = self.fc3(x)
        return x
# cell 22
@jax.jit
def score_matching_loss(model, samples):
    """Score matching loss"""
    logp = jax.vmap(model)(samples)
    # Compute the norm loss
    norm_loss = jnp.linalg.norm(logp, axis=-1) ** 2 / 2.0
    
    # Compute the Jacobian loss
    jacob_mat = jax.vmap(jax.jacobian(model))(samples)
    tr_jacobian_loss = jnp.trace(jacob_mat, axis1=-2, axis2=-1)
    
    return (tr_jacobian_loss + norm_loss).mean()
# cell 23
model = MLP(2, 2, key=jax.random.key(1234), hidden_dim=128)

optimizer = optax.adam(learning_rate=1e-3)
opt_state = optimizer.init(model)

n_iter = 20  # scaffolding: 1000 in the notebook

@eqx.filter_jit
def make_step(model, opt_state, x):
    """Make a single step in the optimization routine"""
    loss_value, grads = eqx.filter_value_and_grad(score_matching_loss)(model, x)
    updates, opt_state = optimizer.update(
        grads, opt_state, eqx.filter(model, eqx.is_array)
    )
    model = eqx.apply_updates(model, updates)
    return model, opt_state, loss_value


for idx in range(n_iter):
    model, opt_state, train_loss = make_step(model, opt_state, x)
_report({"jit(make_step)", "jit(score_matching_loss)"}, n_iter)  # scaffolding
