# source: https://github.com/nanograv/discovery/commit/2861f05c372adf0e3b26c46136ce33c65c705294
# expect: none
# runtime: COMPILES 1 CALLS 10
# why: VariationalFit wraps the filter_jit-decorated ElboLoss.__call__ in another filter_jit of its value-and-grad, and run() passes beta as a JAX array, so the nested jits compile once for the ten steps of two run() calls.
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


import collections.abc
import typing
PyTree = typing.Any

import numpy as np

import jax
import jax.numpy as jnp
import equinox as eqx
import optax


class flowjax:  # scaffolding: stand-ins for flowjax.distributions and flowjax.wrappers
    class wrappers:
        class NonTrainable(eqx.Module):
            tree: typing.Any

    class distributions:
        class AbstractDistribution(eqx.Module):
            pass


class DiagGaussian(flowjax.distributions.AbstractDistribution):  # scaffolding: a flow stand-in
    loc: jax.Array
    log_scale: jax.Array

    def sample_and_log_prob(self, key, sample_shape):
        eps = jax.random.normal(key, sample_shape + self.loc.shape)
        x = self.loc + jnp.exp(self.log_scale) * eps
        log_prob = jax.scipy.stats.norm.logpdf(eps).sum(-1) - self.log_scale.sum()
        return x, log_prob



# modified from flowjax/train/losses.py

class ElboLoss:
    """Negative evidence lower bound (ELBO), approximated using samples.

    Args:
        target:      Target log posterior density up to an additive constant.
        num_samples: Minibatch size.
    """

    target: collections.abc.Callable[[jax.typing.ArrayLike], jax.Array]
    num_samples: int

    def __init__(self,
                 target: collections.abc.Callable[[jax.typing.ArrayLike], jax.Array],
                 num_samples: int):
        self.target = target
        self.num_samples = num_samples

    @eqx.filter_jit
    def __call__(self,
                 params: flowjax.distributions.AbstractDistribution,
                 static: flowjax.distributions.AbstractDistribution,
                 key: jax.Array,
                 beta: float = 1.0):
        """Compute the ELBO loss.

        Args:
            params: the trainable parameters of the model.
            static: the static components of the model.
            key:    JAX random seed.
            beta:   inverse temperature applied to target likelihood.
        """
        dist = eqx.combine(params, static)

        # requires only forward pass through the flow.
        samples, log_probs = dist.sample_and_log_prob(key, (self.num_samples,))
        target_density = jax.vmap(self.target)(samples)
        return (log_probs - beta * target_density).mean()


# modified from flowjax/train/train_utils.py to take combined loss + gradient,
# and to average over repeated minibatches

def step(params: PyTree,
         static: PyTree,
         key: jax.Array,
         beta: float,
         optimizer: optax.GradientTransformation,
         opt_state: PyTree,
         gradloss_fn: collections.abc.Callable,
         multibatch: int):
    """Carry out a training step.

    Args:
        params:      parameters for the model
        static:      static components of the model
        key:         JAX key passed to loss function
        beta:        inverse temperature passed to loss function
        optimizer:   Optax optimizer
        opt_state:   optimizer state
        gradloss_fn: loss and its gradient, e.g., from eqx.filter_value_and_grad(loss_fn)
        multibatch:  number of minibatches in this batch

    Returns:
        tuple:       (params, opt_state, loss_val)
    """
    losses, grads = [], []
    for i in range(multibatch):
        key, subkey = jax.random.split(key)
        loss, grad = gradloss_fn(params, static, subkey, beta)
        losses.append(loss)
        grads.append(grad)

    loss = np.mean(losses)
    grads = jax.tree_util.tree_map(lambda *x: sum(x) / multibatch, *grads)

    updates, opt_state = optimizer.update(grads, opt_state, params=params)
    params = eqx.apply_updates(params, updates)
    return params, opt_state, loss


# modified from flowjax/train/variational_fit.py

class VariationalFit:
    def __init__(self, dist, loss_fn, multibatch=1, optimizer=None, learning_rate=5e-4, annealing_schedule=None, patience=100, show_progress=True):
        self.dist, self.loss_fn = dist, loss_fn
        self.gradloss_fn = eqx.filter_jit(eqx.filter_value_and_grad(loss_fn))
        self.multibatch = multibatch

        self.optimizer = optimizer or optax.adam(learning_rate)
        params, static = eqx.partition(self.dist, eqx.is_inexact_array, is_leaf=lambda leaf: isinstance(leaf, flowjax.wrappers.NonTrainable))
        self.opt_state = self.optimizer.init(params)
        self.annealing_schedule = annealing_schedule or (lambda iter: 1.0)
        self.patience = patience

        self.show_progress = show_progress

        self.iter = 0
        self.losses = []
        self.best_params, self.best_iter = None, 0

    def run(self, key, steps = 100):
        params, static = eqx.partition(
            self.dist,
            eqx.is_inexact_array,
            is_leaf=lambda leaf: isinstance(leaf, flowjax.wrappers.NonTrainable),
        )

        if self.best_params:
            params = self.best_params

        key, subkey = jax.random.split(key)
        keys = jax.random.split(subkey, steps)

        if self.show_progress == True:
            keys = tqdm.tqdm(keys)

        for key in keys:
            params, self.opt_state, loss = step(params, static, key, beta=jnp.asarray(self.annealing_schedule(self.iter)),
                                                optimizer=self.optimizer, opt_state=self.opt_state,
                                                gradloss_fn=self.gradloss_fn, multibatch=self.multibatch)

            self.losses.append(loss.item())

            if loss.item() == min(self.losses):
                self.best_params = params
                self.best_iter = self.iter

            if self.iter - self.best_iter > self.patience:
                print(f'Early stopping at iteration {self.iter}')
                break

            if self.show_progress == True:
                keys.set_postfix({"loss": f'{self.losses[-1]:.2f}'})
            elif callable(self.show_progress):
                self.show_progress(eqx.combine(self.best_params, static), self.losses[-1], self.annealing_schedule(self.iter))

            self.iter = self.iter + 1

        if callable(self.show_progress) and hasattr(self.show_progress, 'freeze'):
            self.show_progress.freeze()

        return key, eqx.combine(self.best_params, static)


def target(x):  # scaffolding: a 2-d Gaussian log posterior
    return -0.5 * jnp.sum((x - jnp.array([1.0, -2.0])) ** 2)


dist = DiagGaussian(jnp.zeros(2), jnp.zeros(2))  # scaffolding
fit = VariationalFit(dist, ElboLoss(target, 16), show_progress=False,  # scaffolding
                     annealing_schedule=lambda iter: min(1.0, (iter + 1) / 4))  # scaffolding
key = jax.random.PRNGKey(0)  # scaffolding
for i in range(2):  # scaffolding: two consecutive run() calls
    key, dist = fit.run(key, steps=5)  # scaffolding
_report({"jit(ElboLoss)"}, 10)  # scaffolding
