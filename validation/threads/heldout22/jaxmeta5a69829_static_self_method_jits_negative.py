# source: https://github.com/tristandeleu/jax-meta-learning/commit/5a69829bd14eb3b3785e27bdac5a3b465ecc3f9d
# expect: none
# runtime: COMPILES 2 CALLS 12
# why: before the commit train_step and batch_outer_loss are jitted methods with self static (hashed by identity); for one metalearner each compiles once and is reused across steps and evaluations (the commit changed it for memory).
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


import haiku as hk  # scaffolding
import numpy as np  # scaffolding
import jax.numpy as jnp
import optax

from abc import ABC, abstractmethod
from jax import jit, grad, tree_util, vmap, random
import jax  # scaffolding
from jax import lax  # scaffolding: maml.py imports
from functools import partial
from collections import namedtuple


def cross_entropy(logits, targets):  # scaffolding: jax_meta.utils.losses
    return -jnp.take_along_axis(jax.nn.log_softmax(logits), targets[..., None], -1)[..., 0]  # scaffolding


def accuracy(logits, targets):  # scaffolding: jax_meta.utils.metrics
    return jnp.mean(jnp.argmax(logits, -1) == targets)  # scaffolding


MetaLearnerState = namedtuple('MetaLearnerState', ['model', 'optimizer', 'key'])


class MetaLearner(ABC):
    def __init__(self):
        self._optimizer = None

    @abstractmethod
    def loss(self, params, state, inputs, targets, args):
        pass

    @abstractmethod
    def adapt(self, params, state, inputs, targets, args):
        pass

    @abstractmethod
    def meta_init(self, key, *args, **kwargs):
        pass

    def step(self, params, state, train, test, *args):
        return self.train_step(params, state, train, test, args)

    def outer_loss(self, params, state, train, test, args):
        adapted_params, inner_logs = self.adapt(
            params, state, train.inputs, train.targets, args
        )
        outer_loss, (state, outer_logs) = self.loss(
            adapted_params, state, test.inputs, test.targets, args
        )
        return (outer_loss, state, inner_logs, outer_logs)

    @partial(jit, static_argnums=(0, 5))
    def train_step(self, params, state, train, test, args):
        outer_loss_grad = grad(self.batch_outer_loss, has_aux=True)
        grads, (model_state, logs) = outer_loss_grad(
            params, state.model, train, test, args)

        # Apply gradient descent
        updates, opt_state = self.optimizer.update(grads, state.optimizer, params)
        params = optax.apply_updates(params, updates)

        # TODO: The key will eventually be split and used in various methods
        state = MetaLearnerState(model=model_state, optimizer=opt_state, key=state.key)

        return params, state, logs

    @property
    def optimizer(self):
        if self._optimizer is None:
            raise ValueError(f'`{self:s}` contains no optimizer. To train the'
                             'model, you must call the `init` function.')
        return self._optimizer

    @partial(jit, static_argnums=(0, 5))
    def batch_outer_loss(self, params, state, train, test, args):
        outer_loss = vmap(self.outer_loss, in_axes=(None, None, 0, 0, None))
        outer_losses, states, inner_logs, outer_logs = outer_loss(
            params, state, train, test, args
        )
        state = tree_util.tree_map(partial(jnp.mean, axis=0), states)

        logs = {
            **{f'inner/{k}': v for (k, v) in inner_logs.items()},
            **{f'outer/{k}': v for (k, v) in outer_logs.items()}
        }
        return jnp.mean(outer_losses), (state, logs)

    def init(self, key, optimizer, *args, **kwargs):
        self._optimizer = optimizer
        key, subkey = random.split(key)
        params, model_state = self.meta_init(subkey, *args, **kwargs)
        state = MetaLearnerState(
            model=model_state,
            optimizer=self.optimizer.init(params),
            key=key
        )
        return params, state

    def evaluate(self, params, state, dataset, *args):
        if dataset.size is None:
            raise RuntimeError('The dataset for evaluation must be finite, '
                'got an infinite dataset. You must set the `size` argument '
                'when creating the dataset.')

        results = None
        for i, batch in enumerate(dataset.reset()):
            _, (_, logs) = self.batch_outer_loss(
                params,
                state.model,
                batch['train'],
                batch['test'],
                args
            )
            logs = tree_util.tree_map(lambda arr: jnp.mean(arr, axis=0), logs)

            if results is None:
                results = logs
            else:
                online_mean = lambda mean, arr: mean + ((arr - mean) / (i + 1))
                results = tree_util.tree_map(online_mean, results, logs)

        return results


class MAML(MetaLearner):
    def __init__(self, model, num_steps=5, alpha=0.1):
        super().__init__()
        self.model = model
        self.num_steps = num_steps
        self.alpha = alpha

    def loss(self, params, state, inputs, targets, args):
        logits, state = self.model.apply(params, state, inputs, *args)
        loss = jnp.mean(cross_entropy(logits, targets))
        logs = {
            'loss': loss,
            'accuracy': accuracy(logits, targets),
        }
        return loss, (state, logs)

    def adapt(self, init_params, state, inputs, targets, args):
        loss_grad = grad(self.loss, has_aux=True)
        gradient_descent = lambda p, g: p - self.alpha * g  # Gradient descent
        def _gradient_update(params, _):
            # Do not update the state during adaptation
            grads, (_, logs) = loss_grad(params, state, inputs, targets, args)
            params = tree_util.tree_map(gradient_descent, params, grads)
            return params, logs

        return lax.scan(
            _gradient_update,
            init_params,
            None,
            length=self.num_steps
        )

    def meta_init(self, key, *args, **kwargs):
        return self.model.init(key, *args, **kwargs)


Task = namedtuple('Task', ['inputs', 'targets'])  # scaffolding


class Dataset:  # scaffolding: a finite few-shot dataset of 2 batches of 4 tasks, 5-way 1-shot, 8 features
    size = 2  # scaffolding

    def reset(self):  # scaffolding
        rs = np.random.RandomState(0)  # scaffolding
        for _ in range(self.size):  # scaffolding
            mk = lambda n: Task(rs.randn(4, n, 8).astype(np.float32), rs.randint(0, 5, (4, n)))  # scaffolding
            yield {'train': mk(5), 'test': mk(15)}  # scaffolding


model = hk.without_apply_rng(hk.transform_with_state(lambda x: hk.Linear(5)(x)))  # scaffolding
metalearner = MAML(model, num_steps=2)  # scaffolding
params, state = metalearner.init(jax.random.PRNGKey(0), optax.adam(1e-3), jnp.zeros((1, 8)))  # scaffolding
for epoch in range(3):  # scaffolding: 3 epochs of 2 meta-training steps, each followed by an evaluation
    for batch in Dataset().reset():  # scaffolding
        params, state, logs = metalearner.step(params, state, batch['train'], batch['test'])  # scaffolding
    results = metalearner.evaluate(params, state, Dataset())  # scaffolding
_report({"jit(batch_outer_loss)", "jit(train_step)"}, 12)  # scaffolding: 6 train steps + 6 evaluation batches
