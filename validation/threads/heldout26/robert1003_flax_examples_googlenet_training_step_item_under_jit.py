# source: https://github.com/robert1003/jax-flax-examples/blob/dbdd2b0a0f6c60e0435d845174af10f41ea5f372/CNNs/inception.py
# expect: trace-time-error at line 62
# runtime: ERROR ConcretizationTypeError
# why: FlaxModule.training_step is jitted (static self) but returns loss.item() and acc.item(); under jit the loss is a tracer, so .item() raises ConcretizationTypeError on the first training batch.
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


# ---- CNNs/module.py ----
import optax
import jax
import jax.numpy as jnp
import numpy as np
from functools import partial
from flax.training import train_state
from flax.core.frozen_dict import unfreeze

class FlaxModule:
    def __init__(self, model, rng, sample_input):
        self.model = model
        self.rng = rng
        self.sample_input = sample_input
        self.criterion = optax.softmax_cross_entropy_with_integer_labels

    def _forward_pass(self, state, param, X):
        logits, mutated_vars = state.apply_fn(param, X,
                mutable=['batch_stats'])
        y_hat = jnp.argmax(logits, axis=-1).astype(jnp.int32)

        return logits, y_hat

    def _calc_loss_acc(self, state, param, batch):
        X, y = batch
        logits, y_hat = self._forward_pass(state, param, X)
        loss = self.criterion(logits, y).mean()
        acc = (y_hat == y).astype(jnp.float32).mean()

        return loss, acc

    @partial(jax.jit, static_argnums=(0,))
    def training_step(self, state, batch, batch_idx):
        grad_fn = jax.value_and_grad(self._calc_loss_acc, argnums=1, has_aux=True)
        (loss, acc), grads = grad_fn(state, state.params, batch)
        return grads, (loss.item(), acc.item())

    @partial(jax.jit, static_argnums=(0,))
    def validation_step(self, state, batch, batch_idx):
        loss, acc = self._calc_loss_acc(state, batch)
        return loss.item(), acc.item()

    def predict_step(self, state, batch, batch_idx):
        X = batch
        logits = state.apply_fn(state.param, X)
        y_hat = jnp.argmax(logits, axis=-1).astype(jnp.int32)

        return y_hat

    def configure_train_state(self):
        optimizer = optax.adam(learning_rate=1e-3)
        self.rng, model_rng = jax.random.split(self.rng, 2)
        params = self.model.init(model_rng, self.sample_input)
        state = train_state.TrainState.create(apply_fn=self.model.apply,
                params=params, tx=optimizer)

        return state


# ---- CNNs/trainer.py ----
import jax
import jax.numpy as jnp
import numpy as np

from tqdm import tqdm

class FlaxTrainer:
    def __init__(self):
        pass

    def fit(self, flaxModule, train_dataloader, test_dataloader, epochs):
        train_state = flaxModule.configure_train_state()
    
        train_step = 0
        for epoch in range(1, epochs+1):
            # Train
            train_batch_loss = []
            train_batch_acc = []
            train_tqdm = tqdm(train_dataloader, desc=f'Train Epoch {epoch}', leave=False)
            for idx, batch in enumerate(train_tqdm):
                grads, (loss, acc) = flaxModule.training_step(train_state, batch, idx)
                train_state = train_state.apply_gradients(grads=grads)

                train_batch_loss.append(loss)
                train_batch_acc.append(acc)
                train_tqdm.set_postfix_str(f'loss={loss:.3f} acc={acc:.3f}')

                train_step += 1

            # Test
            test_batch_loss = []
            test_batch_acc = []
            test_tqdm = tqdm(test_dataloader, desc=f'Test Epoch {epoch}', leave=False)
            for idx, batch in enumerate(test_tqdm):
                loss, acc = flaxModule.validation_step(train_state, batch, idx)
                test_batch_loss.append(loss)
                test_batch_acc.append(acc)
                test_tqdm.set_postfix(f'loss={loss:.3f} acc={acc:.3f}')

            print('Epoch', epoch, np.mean(test_batch_loss))
            print('Epoch', epoch, np.mean(test_batch_acc))

        return train_state

    def predict(self, module, train_state, test_loader):
        prediction = []
        test_tqdm = tqdm(test_dataloader, desc=f'Predict Epoch {epoch}', leave=False)
        for idx, batch in enumerate(test_tqdm):
            prediction.append(flaxModule.predict_step(train_state, batch, idx))

        return np.concatenate(prediction)



def load_CIFAR10(batch_size, num_workers):  # scaffolding: stand-in for CNNs/data.py (torch/torchvision CIFAR10 loaders)
    rng = np.random.RandomState(0)  # scaffolding
    def _loader(n):  # scaffolding: lists of (images, labels) numpy batches, 16x16 RGB
        return [(rng.randn(batch_size, 16, 16, 3).astype(np.float32), rng.randint(0, 10, size=(batch_size,)).astype(np.int32)) for _ in range(n)]  # scaffolding
    return _loader(2), _loader(1), _loader(1)  # scaffolding


# ---- CNNs/inception.py ----
import jax.numpy as jnp
from flax import linen as nn
from typing import Dict, Callable

'''
Each block consists of four branches:
    1x1 conv
    1x1 conv -> 3x3 conv
    1x1 conv -> 5x5 conv
    3x3 maxpool -> 1x1 conv
then we concatenate the output of those four branches.

The first layer is used for dimensionality reduction.
(1x1 conv will keep the height & weight of img, only
chaning its depth)
'''
class InceptionBlock(nn.Module):
    c_reduce: Dict # require 3x3, 5x5
    c_out: Dict # require 1x1, 3x3, 5x5, max
    act_fn: Callable # an callable activation function

    def _conv_bn(self, out_channel, kernel_size, x, train):
        x = nn.Conv(out_channel, kernel_size, 
                kernel_init=nn.initializers.kaiming_normal(),
                use_bias=False)(x)
        x = nn.BatchNorm()(x, use_running_average=not train)
        x = self.act_fn(x)

        return x

    @nn.compact
    def __call__(self, x, train=True):
        # 1x1 conv
        x_1x1 = self._conv_bn(self.c_out['1x1'], (1, 1), x, train)

        # 1x1 conv -> 3x3 conv
        x_3x3 = self._conv_bn(self.c_reduce['3x3'], (1, 1),
                    x, train)
        x_3x3 = self._conv_bn(self.c_out['3x3'], (3, 3),
                    x_3x3, train)

        # 1x1 conv -> 5x5 conv
        x_5x5 = self._conv_bn(self.c_reduce['5x5'], (1, 1),
                    x, train)
        x_5x5 = self._conv_bn(self.c_out['5x5'], (5, 5),
                    x_5x5, train)

        # 3x3 maxpool -> 1x1 conv
        x_max = nn.max_pool(x, (3, 3), strides=(1, 1), padding='SAME')
        x_max = self._conv_bn(self.c_out['max'], (1, 1),
                    x_max, train)

        # concat all outputs
        x_out = jnp.concatenate([x_1x1, x_3x3, x_5x5, x_max], axis=-1)

        return x_out

'''
GoogleNet consists of two part:
    1. A conv-batchnorm layer that convert the input channel
       to the desired channel.
    2. Nine InceptionBlock stacked sequentially.

Since we are classifying CIFAR 10 instead of ImageNet, 
we can reduce the number of filters in 5x5 layers.
'''
class GoogleNet_cifar10(nn.Module):
    num_classes: int
    act_fn: Callable

    def _build_args(self,
            reduce_3x3,
            reduce_5x5,
            out_1x1,
            out_3x3,
            out_5x5,
            out_max):
        c_reduce = {'3x3': reduce_3x3, '5x5': reduce_5x5}
        c_out = {'1x1': out_1x1, '3x3': out_3x3, '5x5': out_5x5, 
                'max': out_max}
        return c_reduce, c_out, self.act_fn

    @nn.compact
    def __call__(self, x, train=True):
        # Convert input channel to desired channel
        x = nn.Conv(64, kernel_size=(3, 3), 
            kernel_init=nn.initializers.kaiming_normal(), use_bias=False)(x)
        x = nn.BatchNorm()(x, use_running_average=not train)
        x = self.act_fn(x)

        # Nine InceptionBlock
        inceptionBlocks = [
            InceptionBlock(*self._build_args(32, 16, 16, 32, 8, 8)),
            InceptionBlock(*self._build_args(32, 16, 24, 48, 12, 12)),
            lambda x, train: nn.max_pool(x, (3, 3), strides=(2, 2)),
            InceptionBlock(*self._build_args(32, 16, 24, 48, 12, 12)),
            InceptionBlock(*self._build_args(32, 16, 24, 48, 16, 16)),
            InceptionBlock(*self._build_args(32, 16, 16, 48, 16, 16)),
            InceptionBlock(*self._build_args(32, 16, 32, 48, 24, 24)),
            lambda x, train: nn.max_pool(x, (3, 3), strides=(2, 2)),
            InceptionBlock(*self._build_args(8, 16, 32, 64, 16, 16)),
            InceptionBlock(*self._build_args(8, 16, 32, 64, 16, 16))
        ]
        for block in inceptionBlocks:
            x = block(x, train=train)

        x = x.mean(axis=(1, 2))
        x = nn.Dense(self.num_classes)(x)

        return x

def main():
    # from data import load_CIFAR10  # scaffolding: stand-in defined above
    train_loader, val_loader, test_loader = load_CIFAR10(batch_size=8, num_workers=8)  # scaffolding: batch 128 -> 8

    # from module import FlaxModule  # scaffolding: inlined above
    import jax
    model = GoogleNet_cifar10(10, nn.relu)
    key = jax.random.PRNGKey(0)
    rng, key = jax.random.split(key, 2)
    module = FlaxModule(model, rng, next(iter(train_loader))[0])

    # from trainer import FlaxTrainer  # scaffolding: inlined above
    trainer = FlaxTrainer()
    train_state = trainer.fit(module, train_loader, val_loader, epochs=2)  # scaffolding: 200 -> 2 epochs


try:  # scaffolding
    main()  # scaffolding
    _report({"jit(training_step)", "jit(validation_step)"}, 4)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
