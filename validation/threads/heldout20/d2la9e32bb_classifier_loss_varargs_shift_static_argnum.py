# source: https://github.com/d2l-ai/d2l-en/commit/a9e32bbedf0ff718a885e88681226241ba83144a
# expect: bad-static-spec at line 51
# runtime: ERROR ValueError
# why: training_step unpacks the batch with *batch[:-1]; a seq2seq batch has two inputs, so every argument of the jitted loss shifts by one and static_argnums=(0, 5) makes the TrainState (unhashable) the static `averaged`; the commit passes the inputs as one tuple.

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

import flax.linen as nn  # scaffolding
import jax
import jax.numpy as jnp
import optax
from flax.training import train_state  # scaffolding


class _EncoderDecoder(nn.Module):  # scaffolding: a tiny two-input seq2seq model (enc_X, dec_X)
    @nn.compact
    def __call__(self, enc_X, dec_X, training=False):
        h = nn.Embed(10, 8)(enc_X).mean(1, keepdims=True) + nn.Embed(10, 8)(dec_X)
        return nn.Dense(10)(h)


# d2l/jax.py before the commit (Classifier; d2l.Module is replaced by a plain class)
class Classifier:
    """Defined in :numref:`sec_classification`"""
    def training_step(self, params, batch, state):
        # Here value is a tuple since models with BatchNorm layers require
        # the loss to return auxiliary data
        value, grads = jax.value_and_grad(
            self.loss, has_aux=True)(params, *batch[:-1], batch[-1], state)
        l, _ = value
        return value, grads

    @partial(jax.jit, static_argnums=(0, 5))
    def loss(self, params, X, Y, state, averaged=True):
        """Defined in :numref:`sec_softmax_concise`"""
        Y_hat = state.apply_fn({'params': params}, X,
                               mutable=False, rngs=None)  # To be used later (e.g., for batch norm)
        Y_hat = jnp.reshape(Y_hat, (-1, Y_hat.shape[-1]))
        Y = jnp.reshape(Y, (-1,))
        fn = optax.softmax_cross_entropy_with_integer_labels
        # The returned empty dictionary is a placeholder for auxiliary data,
        # which will be used later (e.g., for batch norm)
        return (fn(Y_hat, Y).mean(), {}) if averaged else (fn(Y_hat, Y), {})


model = _EncoderDecoder()  # scaffolding
enc_X, dec_X, Y = jnp.ones((4, 6), jnp.int32), jnp.ones((4, 5), jnp.int32), jnp.ones((4, 5), jnp.int32)  # scaffolding: machine-translation batch
params = model.init(jax.random.PRNGKey(0), enc_X, dec_X)['params']  # scaffolding
state = train_state.TrainState.create(apply_fn=model.apply, params=params, tx=optax.sgd(0.1))  # scaffolding
clf = Classifier()  # scaffolding
try:  # scaffolding
    for _ in range(3):  # scaffolding: three training steps (the Trainer's fit_epoch)
        (l, _), grads = clf.training_step(state.params, (enc_X, dec_X, Y), state)  # scaffolding
        state = state.apply_gradients(grads=grads)  # scaffolding
    _report({"jit(loss)"}, 3)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
