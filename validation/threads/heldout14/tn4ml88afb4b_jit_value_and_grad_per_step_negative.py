# source: https://github.com/bsc-quantic/tn4ml/commit/88afb4b
# expect: none
# runtime: COMPILES 1 CALLS 8
# why: train_step builds jax.jit(value_and_grad) on every batch, and the loss wraps a nested jax.jit(jax.vmap(single_loss)) inside the jitted loss_fn, but value_and_grad is one function object created once per create_train_step, so every new jit wrapper hits the same cache and the step compiles once.

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


def embed(x, embedding):  # scaffolding: trigonometric embedding of each feature
    return jnp.stack([jnp.cos(jnp.pi * x / 2), jnp.sin(jnp.pi * x / 2)], axis=-1)


class Model:
    """scaffolding: a small MPS-like model standing in for tn4ml's quimb TensorNetwork Model"""

    def __init__(self, L=4, bond=3):
        keys = jax.random.split(jax.random.PRNGKey(0), L)
        self.arrays = tuple(jax.random.normal(k, (bond, 2, bond)) * 0.3 for k in keys)
        self.optimizer = optax.adam(1e-2)
        self.device = ("cpu", 0)
        self.sitetags = None

    def update_tensors(self, params):
        self.arrays = tuple(params)

    def loss(self, params, phi):  # scaffolding: contract the MPS with the embedded sample
        v = jnp.ones(params[0].shape[0])
        for a, p in zip(params, phi):
            v = jnp.einsum("i,ijk,j->k", v, a, p)
        return -jnp.log(jnp.sum(v ** 2) + 1e-6)

    def create_train_step(self, params, loss_func):
        init_params = {i: jnp.array(data) for i, data in enumerate(params)}
        opt_state = self.optimizer.init(init_params)

        def value_and_grad(params, data=None, targets=None):
            """Calculates loss value and gradient."""

            def loss_scalar_fn(data, targets, *params):
                return loss_func(data, targets, *params)

            loss, grads = jax.value_and_grad(
                loss_scalar_fn, argnums=range(2, 2 + len(params))
            )(data, targets, *params)
            return loss, grads

        def train_step(params, opt_state, data=None, grad_clip_threshold=None):
            """Performs one training step."""

            if data is not None:
                if isinstance(data, tuple) and len(data) == 2:
                    data, targets = data
                    data, targets = jnp.array(data), jnp.array(targets)
                    data = jax.device_put(
                        data, device=jax.devices(self.device[0])[self.device[1]]
                    )
                    targets = jax.device_put(
                        targets, device=jax.devices(self.device[0])[self.device[1]]
                    )
                else:
                    data = jax.device_put(
                        jnp.array(data),
                        device=jax.devices(self.device[0])[self.device[1]],
                    )
                    targets = None
            else:
                targets = None

            loss, grads = jax.jit(value_and_grad, backend=self.device[0])(
                params, data, targets
            )

            # convert to pytree structure
            grads = {i: jnp.array(data) for i, data in enumerate(grads)}
            params = {i: jnp.array(data) for i, data in enumerate(params)}

            updates, opt_state = self.optimizer.update(grads, opt_state)
            params = optax.apply_updates(params, updates)

            # convert back to arrays
            params = tuple(jnp.array(v) for v in params.values())

            # update TN inplace
            self.update_tensors(params)

            return params, opt_state, loss

        return train_step, opt_state

    def train(self, inputs, batch_size, epochs, embedding=None):
        def loss_fn(data=None, targets=None, *params):
            """
            Batches embedding + loss computation internally, with model params fixed externally.
            """

            # Define batched version of embed + loss logic
            def single_loss(x, y=None):
                tn_i = embed(x, embedding)  # create TN from data
                return self.loss(params, tn_i)

            # Choose vmap axis setup (UNSUPERVISED)
            vmapped_loss = jax.jit(
                jax.vmap(single_loss, in_axes=(0,)), backend=self.device[0]
            )  # only data needed
            return jnp.mean(vmapped_loss(data))

        params = self.arrays
        self.loss_func = jax.jit(loss_fn, backend=self.device[0])
        self.step, self.opt_state = self.create_train_step(
            params=params, loss_func=self.loss_func
        )
        calls = 0
        for epoch in range(epochs):
            for b in range(len(inputs) // batch_size):
                batch_data = inputs[b * batch_size:(b + 1) * batch_size]
                params, self.opt_state, loss = self.step(params, self.opt_state, batch_data)
                calls += 1
        return calls


# scaffolding: 32 random 4-feature samples, batches of 8, two epochs
import numpy as np

inputs = np.random.default_rng(0).uniform(size=(32, 4)).astype(np.float32)
model = Model()
calls = model.train(inputs, batch_size=8, epochs=2)
_report({"jit(value_and_grad)"}, calls)
