# source: https://github.com/abnercorrea/machine-learning/blob/678c68008066ac47646648763530fa0070a66eae/src/abnercorrea/jax/optimizers/adam.py
# expect: stale-closure at line 88
# runtime: COMPILES 1 CALLS 6
# why: sgd_update is jitted with self static (identity hash) and reads self.epoch, which optimize() bumps every epoch; the first trace bakes epoch 1 into Adam's bias correction (and self.vd/self.sd state never carries over), so later steps silently use stale values.

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
from absl import logging
from abc import abstractmethod
from functools import partial

import jax
import jax.numpy as jnp
from jax import random

jax.tree_multimap = jax.tree_util.tree_map  # scaffolding: jax.tree_multimap was removed from jax


def create_sample_batch(x, y, mini_batch_size, prng_key):  # abnercorrea/jax/util/data_prep.py
    if mini_batch_size is None:
        return x, y

    n = y.size
    sample_indices = random.choice(prng_key, n, shape=(mini_batch_size,), replace=False).tolist()
    x_batch = x[sample_indices]
    y_batch = y[sample_indices]

    return x_batch, y_batch


class Optimizer():
    @abstractmethod
    def calculate_update(self, grads, epoch):
        pass

    @abstractmethod
    def optimize(self, params, x, y, loss_f):
        pass


class MiniBatchSGD(Optimizer):  # abnercorrea/jax/optimizers/gradient_descent.py (docstrings trimmed)
    def __init__(self, mini_batch_size=256, epochs=10000, learning_rate=1e-8, eps=1e-3, overshoot_decrease_rate=.5, stagnation_batch_size=2, prng_key=None):
        assert mini_batch_size is None or mini_batch_size > 0, 'mini_batch_size can be either greater than 0 or None (for ordinary GD).'
        assert stagnation_batch_size > 1, 'stagnation_batch_size has to be greater than 1.'

        self.mini_batch_size = mini_batch_size
        self.epochs = epochs
        self.epoch = 0
        self.learning_rate = learning_rate
        self.eps = eps
        self.overshoot_decrease_rate = overshoot_decrease_rate
        self.stagnation_batch_size = stagnation_batch_size
        self.prng_key = prng_key or random.PRNGKey(0)
        self.loss_hist = []

    @partial(jax.jit, static_argnames=('self',))
    def calculate_update(self, grads, epoch):
        # Ordinary SGD uses gradient for updates
        return grads

    @partial(jax.jit, static_argnames=('self', 'loss_f',))
    def sgd_update(self, params, x, y, loss_f):
        loss, grads = jax.value_and_grad(loss_f)(params, x, y)

        logging.debug(f'Epoch: {self.epoch}\nLoss: {loss}\nGrads: {grads}\nParams: {params}')

        update = self.calculate_update(grads, self.epoch)

        params = jax.tree_multimap(lambda p, g: p - self.learning_rate * g, params, update)

        logging.debug(f'Params updated: {params}')

        return params, loss, grads

    def optimize(self, params, x, y, loss_f):
        mini_batch_size, epochs, eps, learning_rate, overshoot_decrease_rate, stagnation_batch_size = self.mini_batch_size, self.epochs, self.eps, self.learning_rate, self.overshoot_decrease_rate, self.stagnation_batch_size
        loss_hist = self.loss_hist

        for epoch in range(1, epochs + 1):
            self.epoch = epoch

            # Creates mini batch
            x_batch, y_batch = create_sample_batch(x, y, mini_batch_size, self.prng_key)
            # Applies SGD update
            params, loss, grads = self.sgd_update(params, x_batch, y_batch, loss_f)
            loss_hist.append(loss.item())

            logging.debug(f'Loss hist: {loss_hist}')

            # TODO: vanished gradient? diverged?
            if jnp.all(jnp.isnan(grads[0])).item():
                logging.error(f'Gradient vanished! - epoch: {epoch}, loss: {loss}, prev_loss: {loss_hist[-2] if epoch > 1 else None}')
                break

            # TODO: research and improve learning rate decreasing
            if epoch > 1:
                overshoot = loss_hist[-1] > loss_hist[-2]
                if overshoot:
                    learning_rate *= overshoot_decrease_rate
                    logging.info(f'Overshoot! Lowering learning rate to {learning_rate} - Epoch: {epoch} - Loss: {loss} - Prev loss: {loss_hist[-2]}')

            # TODO: research and improve convergence checking
            if epoch >= stagnation_batch_size:
                loss_delta = jnp.abs(loss_hist[-1] - loss_hist[-stagnation_batch_size])
                logging.debug(f'Loss delta: {loss_delta}')
                if loss_delta <= eps:
                    logging.info(f'SGD converged in {epoch} epochs! - Initial loss: {loss_hist[0]}, final loss: {loss}')
                    break

        return params


class Adam(MiniBatchSGD):  # abnercorrea/jax/optimizers/adam.py
    """
    Adaptive moment estimation. (Adam = Momentum + RMSProp)

    https://arxiv.org/pdf/1412.6980.pdf
    """
    def __init__(self, momentum=0.9, rms_momentum=0.999, rms_eps=1e-8, **kwargs):
        super().__init__(**kwargs)

        self.momentum = momentum
        self.rms_momentum = rms_momentum
        self.rms_eps = rms_eps
        self.vd = None
        self.sd = None

    @partial(jax.jit, static_argnames=('self',))
    def calculate_update(self, grads, epoch):
        logging.debug(f'epoch: {epoch}')

        zeroes = jax.tree_multimap(lambda g: jnp.zeros_like(g), grads)

        # Momentum
        vd = jax.tree_multimap(lambda vd, g: self.momentum * vd + (1 - self.momentum) * g, self.vd or zeroes, grads)
        vd_correction = 1 / (1 - self.momentum ** epoch)
        self.vd = jax.tree_multimap(lambda vd: vd * vd_correction, vd)

        # RMSProp
        sd = jax.tree_multimap(lambda sd, g: self.rms_momentum * sd + (1 - self.rms_momentum) * g ** 2, self.sd or zeroes, grads)
        sd_correction = 1 / (1 - self.rms_momentum ** epoch)
        self.sd = jax.tree_multimap(lambda sd: sd * sd_correction, sd)

        # ADAM update
        update = jax.tree_multimap(lambda vd, sd: vd / (sd ** 0.5 + self.rms_eps), self.vd, self.sd)

        return update


def mse_loss(params, x, y):  # scaffolding: a linear-regression loss, params = [w, b]
    w, b = params
    return jnp.mean((x @ w + b - y) ** 2)


x = jnp.linspace(-1.0, 1.0, 64).reshape(32, 2)  # scaffolding: stand-in data
y = x @ jnp.array([2.0, -1.0]) + 0.5  # scaffolding
params0 = [jnp.zeros(2), jnp.zeros(())]  # scaffolding
opt = Adam(mini_batch_size=None, epochs=5, learning_rate=1e-2, eps=0.0)  # scaffolding
params = opt.optimize(params0, x, y, mse_loss)  # scaffolding
# scaffolding: after 5 epochs self.epoch is 5, but the cached trace still uses epoch 1
# (bias corrections 1/(1-0.9**1)) and the momentum state self.vd never carries over
stale = opt.sgd_update(params, x, y, mse_loss)[0][0]  # scaffolding
with jax.disable_jit():  # scaffolding: eager reference at the current epoch
    fresh = Adam(mini_batch_size=None, epochs=5, learning_rate=1e-2, eps=0.0)
    fresh.epoch = opt.epoch
    ref = MiniBatchSGD.sgd_update.__wrapped__(fresh, params, x, y, mse_loss)[0][0]
print("EPOCH", opt.epoch, "STALE_EQUALS_CURRENT", bool(jnp.allclose(stale, ref)))  # scaffolding
_report({"jit(sgd_update)"}, 6)
