# source: https://github.com/LucMc/JAX_tutorials/blob/2c47ad31c8e22fb2b0d6a06daf4b12fce81b90d7/basic_nn.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 100
# why: the @staticmethod @jax.jit update takes the TrainState (whose apply_fn is a jax.jit-wrapped model.apply kept as static metadata) and compiles once for the 100-step loop; the inner jitted apply_fn is inlined.
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
import jax.numpy as jnp
import jax
from functools import partial
from jax import random
import flax
import flax.linen as nn
from flax.training.train_state import TrainState
import optax

rng = random.PRNGKey(0)

class Net(nn.Module):
    n_hidden: int
    n_output: int

    @nn.compact
    def __call__(self, x):
        x = nn.relu( nn.Dense(self.n_hidden)(x) )
        x = nn.relu( nn.Dense(self.n_hidden)(x) )
        x = nn.Dense(self.n_output)(x)
        return x
    
    @staticmethod
    @jax.jit
    def update(model_state: TrainState, inputs: jnp.ndarray, targets: jnp.ndarray):

        def loss_fn(params):
            predictions = model_state.apply_fn(params, inputs)
            return jnp.mean((targets-predictions)**2)

        loss, grads = jax.value_and_grad(loss_fn)(model_state.params)
        model_state = model_state.apply_gradients(grads=grads)
        return model_state, loss
    
def create_state(rng, model, in_shape, learning_rate):
    params = model.init(rng, jnp.zeros(in_shape))
    tx = optax.adam(learning_rate)
    return TrainState.create(apply_fn=jax.jit(model.apply), params=params, tx=tx)

rng, key = random.split(rng)
in_shape = (1,1)
model = Net(n_hidden=64, n_output=1)
model_state = create_state(key, model, in_shape, 0.003)
example_model = Net(n_hidden=4, n_output=1)
example_model_state = create_state(key, model, in_shape, 0.003)
example_model_state.params
xrange_inputs = jnp.linspace(-5,5,100).reshape((100,1))
targets = jnp.sin(xrange_inputs)
loss_example = lambda data, label: (data-label)**2
prediction = model_state.apply_fn(model_state.params, xrange_inputs)
# model_state = create_state(key, model, in_shape, 0.003)
losses = []

for i in range(100):
    model_state, loss = model.update(model_state=model_state, inputs=xrange_inputs, targets=targets)
    losses.append(loss)
# xrange_inputs = jnp.linspace(-5,5,100).reshape((100,1))
# targets = jnp.sin(xrange_inputs)
predictions = model_state.apply_fn(model_state.params, xrange_inputs)
_report({"jit(update)"}, 100)  # scaffolding
