# source: https://github.com/d2l-ai/d2l-en/pull/2347
# expect: none
# runtime: COMPILES 4 CALLS 21
# why: The PR jits Classifier.loss/accuracy with self static and fit_epoch toggles self.model.training; flax modules hash by field value, so each mode compiles once and later epochs reuse the cache.
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
import sys
import types
from dataclasses import field
from functools import partial
import flax
from flax import linen as nn
from flax.training.train_state import TrainState
import jax
from jax import numpy as jnp
import numpy as np
import optax

d2l = types.SimpleNamespace()  # scaffolding: the d2l.jax helpers used below
d2l.nn_Module = nn.Module  # scaffolding
d2l.reshape = lambda x, *args, **kwargs: x.reshape(*args, **kwargs)  # scaffolding
d2l.astype = lambda x, *args, **kwargs: x.astype(*args, **kwargs)  # scaffolding
d2l.argmax = lambda x, *args, **kwargs: x.argmax(*args, **kwargs)  # scaffolding
d2l.reduce_mean = lambda x, *args, **kwargs: x.mean(*args, **kwargs)  # scaffolding
d2l.float32 = jnp.float32  # scaffolding
d2l.get_key = lambda: jax.random.PRNGKey(0)  # scaffolding


class Module(d2l.nn_Module):  # scaffolding base list: d2l.HyperParameters and the ProgressBoard field left out
    """Defined in :numref:`sec_oo-design`"""

    def plot(self, key, value, train):  # scaffolding: the ProgressBoard drawing is left out
        pass  # scaffolding

    def training_step(self, params, batch):
        l, grads = jax.value_and_grad(self.loss)(params, *batch[:-1],
                                                 batch[-1])
        self.plot("loss", l, train=True)
        return l, grads

    def validation_step(self, params, batch):
        l = self.loss(params, *batch[:-1], batch[-1])
        self.plot('loss', l, train=False)

    def configure_optimizers(self):
        """Defined in :numref:`sec_classification`"""
        return optax.sgd(self.lr)

    def apply_init(self, dummy_input, **kwargs):
        """Defined in :numref:`sec_lazy_init`"""
        if kwargs and 'key' in kwargs and (kwargs['key'] is not None):
            self.key = kwargs['key']
        else:
            # Dropout key is only used for models with dropout layers
            self.key = {'params': d2l.get_key(), 'dropout': d2l.get_key()}
        params = self.init(self.key, dummy_input)
        return params


class Classifier(Module):
    """Defined in :numref:`sec_classification`"""
    def validation_step(self, params, batch):
        self.plot('loss', self.loss(params, *batch[:-1], batch[-1]),
                  train=False)
        self.plot('acc', self.accuracy(params, *batch[:-1], batch[-1]),
                  train=False)

    @partial(jax.jit, static_argnums=(0, 4))
    def accuracy(self, params, X, Y, averaged=True):
        """Compute the number of correct predictions.
    
        Defined in :numref:`sec_classification`"""
        Y_hat = self.apply(params, X)
        Y_hat = d2l.reshape(Y_hat, (-1, Y_hat.shape[-1]))
        preds = d2l.astype(d2l.argmax(Y_hat, axis=1), Y.dtype)
        compare = d2l.astype(preds == d2l.reshape(Y, -1), d2l.float32)
        return d2l.reduce_mean(compare) if averaged else compare

    @partial(jax.jit, static_argnums=(0, 4))
    def loss(self, params, X, Y, averaged=True):
        """Defined in :numref:`sec_dropout`"""
        Y_hat = self.apply(params, X, rngs={'dropout': jax.random.PRNGKey(0)})
        Y_hat = d2l.reshape(Y_hat, (-1, Y_hat.shape[-1]))
        fn = optax.softmax_cross_entropy_with_integer_labels
        return fn(Y_hat, Y).mean() if averaged else fn(Y_hat, Y)


class Trainer:  # scaffolding: d2l.HyperParameters base and save_hyperparameters left out
    def __init__(self, max_epochs):  # scaffolding
        self.max_epochs = max_epochs  # scaffolding

    def prepare_data(self, data):
        self.train_dataloader = data.train_dataloader()
        self.val_dataloader = data.val_dataloader()
        self.num_train_batches = len(self.train_dataloader)
        self.num_val_batches = (len(self.val_dataloader)
                                if self.val_dataloader is not None else 0)

    def prepare_model(self, model):
        model.trainer = self
        self.model = model

    def fit(self, model, data, key=None):
        self.prepare_data(data)
        self.prepare_model(model)
        self.optim = model.configure_optimizers()
        dummy_input = next(iter(self.train_dataloader))[0]
        # Flax uses optax under the hood for a single state obj TrainState
        self.state = TrainState.create(apply_fn=model.apply,
                                       params=model.apply_init(dummy_input, key=key),
                                       tx=model.configure_optimizers())
        self.epoch = 0
        self.train_batch_idx = 0
        self.val_batch_idx = 0
        for self.epoch in range(self.max_epochs):
            self.fit_epoch()

    def prepare_batch(self, batch):
        """Defined in :numref:`sec_linear_scratch`"""
        return batch

    def fit_epoch(self):
        """Defined in :numref:`sec_linear_scratch`"""
        self.model.training = True
        for batch in self.train_dataloader:
            _, grads = self.model.training_step(self.state.params,
                                                self.prepare_batch(batch))
            self.state = self.state.apply_gradients(grads=grads)
            self.train_batch_idx += 1
        if self.val_dataloader is None:
            return
        self.model.training = False
        for batch in self.val_dataloader:
            self.model.validation_step(self.state.params,
                                       self.prepare_batch(batch))
            self.val_batch_idx += 1


class DropoutMLP(Classifier):
    num_outputs: int
    num_hiddens_1: int
    num_hiddens_2: int
    dropout_1: float
    dropout_2: float
    lr: float
    training: bool = True

    @nn.compact
    def __call__(self, X):
        x = nn.relu(nn.Dense(self.num_hiddens_1)(X.reshape((X.shape[0], -1))))
        x = nn.Dropout(self.dropout_1, deterministic=not self.training)(x)
        x = nn.relu(nn.Dense(self.num_hiddens_2)(x))
        x = nn.Dropout(self.dropout_2, deterministic=not self.training)(x)
        return nn.Dense(self.num_outputs)(x)


class FashionMNIST:  # scaffolding: 3 train and 2 val batches of random 28x28 images
    def __init__(self, batch_size):  # scaffolding
        r = np.random.RandomState(0)  # scaffolding
        mk = lambda: (r.rand(batch_size, 28, 28, 1).astype(np.float32), r.randint(0, 10, batch_size).astype(np.int32))  # scaffolding
        self.train, self.val = [mk() for _ in range(3)], [mk() for _ in range(2)]  # scaffolding

    def train_dataloader(self):  # scaffolding
        return self.train  # scaffolding

    def val_dataloader(self):  # scaffolding
        return self.val  # scaffolding


hparams = {'num_outputs':10, 'num_hiddens_1':256, 'num_hiddens_2':256,
           'dropout_1':0.5, 'dropout_2':0.5, 'lr':0.1}
model = DropoutMLP(**hparams)
data = FashionMNIST(batch_size=256)
trainer = Trainer(max_epochs=3)  # scaffolding: 3 epochs instead of 10
trainer.fit(model, data)
print(sorted(set(n for n in _COMPILED if "loss" in n or "accuracy" in n)), len(_COMPILED))  # scaffolding
_report({"jit(loss)", "jit(accuracy)"}, 3 * (3 + 2 + 2))  # scaffolding: loss per train batch, loss and accuracy per val batch, 3 epochs
