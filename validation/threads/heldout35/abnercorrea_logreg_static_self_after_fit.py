# source: https://github.com/abnercorrea/machine-learning/blob/678c68008066ac47646648763530fa0070a66eae/src/abnercorrea/jax/linear/logistic_regression.py
# expect: none
# runtime: COMPILES 2 CALLS 7
# why: predict/accuracy are jitted with self static and read self.params, which fit() reassigns, but as in the notebook each classifier is fitted before its first accuracy call, so the single trace sees the fitted parameters; sgd_update's stale self.epoch only feeds a debug log and the plain-gradient calculate_update that ignores it.

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


class GradientDescent(MiniBatchSGD):
    def __init__(self, **kwargs):
        """
        In ordinary gradient descent, the batch size is equal to the entire training set.
        """
        assert 'mini_batch_size' not in kwargs
        super().__init__(mini_batch_size=None, **kwargs)


class LogisticRegressionClassifierJax:  # abnercorrea/jax/linear/logistic_regression.py
    def __init__(self, params, optimizer: Optimizer):
        self.params = params
        self.optimizer = optimizer

    @staticmethod
    @jax.jit
    def log_likelihood_loss(params, x, y):
        w, b = params
        p = jax.nn.sigmoid(jnp.dot(x, w) + b)
        # likelihood = jnp.product(p ** y * (1 - p) ** (1 - y))
        log_likelihood = jnp.sum(y * jnp.log(p) + (1 - y) * jnp.log(1 - p))
        return -log_likelihood

    @partial(jax.jit, static_argnames=('self',))
    def predict(self, x):
        w, b = self.params
        p = jax.nn.sigmoid(jnp.dot(x, w) + b)
        return jnp.where(p >= .5, 1, 0)

    def fit(self, x, y):
        self.params = self.optimizer.optimize(self.params, x, y, self.log_likelihood_loss)

    @partial(jax.jit, static_argnames=('self',))
    def accuracy(self, x, y):
        yp = self.predict(x)
        accurate = jnp.count_nonzero(yp == y)
        n = y.size
        return accurate / n


# scaffolding: synthetic two-class data instead of the notebook's sklearn make_classification split
kx = jax.random.PRNGKey(1)
xtr = jax.random.normal(kx, (200, 4))
ytrb = (xtr @ jnp.array([1.0, -2.0, 0.5, 0.0]) > 0).astype(jnp.float32)
xte = jax.random.normal(jax.random.PRNGKey(2), (50, 4))
yteb = (xte @ jnp.array([1.0, -2.0, 0.5, 0.0]) > 0).astype(jnp.float32)
params = [(jnp.zeros(4), jnp.zeros(()))]  # scaffolding

# --- notebook cells 23-25 ---
lrc = LogisticRegressionClassifierJax(
    params=params[0], 
    optimizer=GradientDescent(
        epochs=6,  # scaffolding: was 5000
        learning_rate=1e-3,  # scaffolding: was 1e1 (the notebook's loss is a mean, the module's a sum)
        eps=0.0,  # scaffolding: was 1e-5, so all 6 epochs run
        overshoot_decrease_rate=.5, 
        stagnation_batch_size=2
    )
)
lrc.fit(xtr, ytrb)
acc = lrc.accuracy(xte, yteb).item()
ref = float(jnp.mean(jnp.where(jax.nn.sigmoid(xte @ lrc.params[0] + lrc.params[1]) >= .5, 1, 0) == yteb))  # scaffolding: eager check with the fitted params
print("ACC", acc, "MATCHES_FITTED_PARAMS", abs(acc - ref) < 1e-6)  # scaffolding
_report({"jit(sgd_update)", "jit(accuracy)"}, len(lrc.optimizer.loss_hist) + 1)
