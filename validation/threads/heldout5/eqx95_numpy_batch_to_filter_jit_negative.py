# source: https://github.com/patrick-kidger/equinox/issues/95
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: in 2022 filter_jit treated NumPy arrays as static and the enwik8 numpy batches failed to hash (ValueError: unhashable type numpy.ndarray); on equinox 0.13.8 NumPy arrays are traced like jax arrays, so the train step compiles once for two numpy batches of the same shape.
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


import numpy as np

import equinox as eqx
import jax
import jax.numpy as jnp
from optax import adam, clip_by_global_norm, chain, apply_every

# constants

BATCH_SIZE = 4
GRADIENT_ACCUMULATE_EVERY = 4
LEARNING_RATE = 2e-4
MAX_GRAD_NORM = 0.5
SEQ_LEN = 16  # scaffolding: 1024 in the issue


def loss_fn(model, data):  # scaffolding: the PaLM model and its loss are not in the issue text
    inp, labels = data[:, :-1], data[:, 1:]  # scaffolding
    logits = jax.vmap(jax.vmap(model))(jax.nn.one_hot(inp, 256))  # scaffolding
    return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), labels[..., None], -1))  # scaffolding


@eqx.filter_jit
def train_step(model, data, opt_state):
    loss, grads = eqx.filter_value_and_grad(loss_fn)(model, data)
    updates, opt_state = optim.update(grads, opt_state, model)
    model = eqx.apply_updates(model, updates)
    return model, opt_state, loss


model = eqx.nn.Linear(256, 256, key=jax.random.PRNGKey(0))  # scaffolding
optim = chain(
    clip_by_global_norm(MAX_GRAD_NORM),
    adam(LEARNING_RATE),
    apply_every(GRADIENT_ACCUMULATE_EVERY)
)
opt_state = optim.init(eqx.filter(model, eqx.is_array))
rng = np.random.default_rng(0)  # scaffolding: batches as the torch DataLoader yields them, converted to numpy
for _ in range(2):  # scaffolding
    data = rng.integers(0, 256, size=(BATCH_SIZE, SEQ_LEN + 1))  # scaffolding
    model, opt_state, loss = train_step(model, data, opt_state)
_report({"jit(train_step)"}, 2)  # scaffolding
