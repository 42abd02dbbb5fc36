# source: https://github.com/astro-informatics/harmonic/blob/dbb9feab66a71224a67b001314b926247abb2af3/harmonic/model.py
# expect: none
# runtime: COMPILES 1 CALLS 45
# why: The flow trainer permutes a dataset whose size is not a multiple of the batch size, but train_epoch drops the incomplete batch before reshaping, so the jitted train_step (built once per fit inside make_training_loop) sees one batch shape and compiles once.

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
import optax
from flax.training import train_state  # Useful dataclass to keep train state
import flax.linen as nn  # scaffolding


class _DiagAffineFlow(nn.Module):  # scaffolding: stand-in for harmonic.flows.RealNVP
    ndim: int

    def setup(self):
        self.shift = self.param("shift", nn.initializers.zeros, (self.ndim,))
        self.log_scale = self.param("log_scale", nn.initializers.zeros, (self.ndim,))

    def __call__(self, x):
        return self.log_prob(x)

    def log_prob(self, x, temperature=1.0):
        z = (x - self.shift) * jnp.exp(-self.log_scale)
        return jnp.sum(-0.5 * z**2 / temperature - self.log_scale, axis=-1)


def make_training_loop(model):
    """
    Create a function that trains an NF model.
    """

    def train_step(batch, state, variables):
        def loss(params):
            log_det = model.apply(
                {"params": params, "variables": variables},
                batch,
                temperature=1.0,
                method=model.log_prob,
            )
            return -jnp.mean(log_det)

        grad_fn = jax.value_and_grad(loss)
        value, grad = grad_fn(state.params)
        state = state.apply_gradients(grads=grad)
        return value, state

    train_step = jax.jit(train_step)

    def train_epoch(rng, state, variables, train_ds, batch_size):
        """Train for a single epoch."""
        train_ds_size = len(train_ds)
        steps_per_epoch = train_ds_size // batch_size
        if steps_per_epoch > 0:
            perms = jax.random.permutation(rng, train_ds_size)

            perms = perms[: steps_per_epoch * batch_size]  # skip incomplete batch
            perms = perms.reshape((steps_per_epoch, batch_size))
            for perm in perms:
                batch = train_ds[perm, ...]
                value, state = train_step(batch, state, variables)
        else:
            value, state = train_step(train_ds, state, variables)

        return value, state

    def train_flow(
        rng,
        state,
        variables,
        data: jnp.ndarray,
        num_epochs: int,
        batch_size: int,
        verbose: bool = False,
    ):
        loss_values = jnp.zeros(num_epochs)
        pbar = range(num_epochs)
        best_state = state
        best_loss = 1e9
        for epoch in pbar:
            # Use a separate PRNG key to permute image data during shuffling
            rng, input_rng = jax.random.split(rng)
            # Run an optimization step over a training batch
            value, state = train_epoch(input_rng, state, variables, data, batch_size)
            loss_values = loss_values.at[epoch].set(value)
            if loss_values[epoch] < best_loss:
                best_state = state
                best_loss = loss_values[epoch]

        return rng, best_state, loss_values

    return train_flow, train_epoch, train_step


# scaffolding: the parts of FlowModel.fit / create_train_state that drive the loop
ndim, learning_rate, momentum = 2, 0.001, 0.9
flow = _DiagAffineFlow(ndim)
key = jax.random.PRNGKey(1000)
key, rng_model, rng_init, rng_train = jax.random.split(key, 4)
X = jax.random.normal(jax.random.PRNGKey(0), (1000, ndim))  # 1000 = 15 * 64 + 40
variables = flow.init(rng_model, jnp.ones((1, ndim)))
params = flow.init(rng_init, jnp.ones((1, ndim)))["params"]
tx = optax.adam(learning_rate, momentum)
state = train_state.TrainState.create(apply_fn=flow.apply, params=params, tx=tx)
epochs, batch_size = 3, 64
train_flow, train_epoch, train_step = make_training_loop(flow)
rng, state, loss_values = train_flow(
    rng_train, state, variables, X, epochs, batch_size, verbose=False
)
_report({"jit(train_step)"}, epochs * (1000 // batch_size))  # scaffolding
