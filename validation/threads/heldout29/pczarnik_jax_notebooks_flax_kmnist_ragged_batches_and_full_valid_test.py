# source: https://github.com/pczarnik/jax-notebooks/blob/f8bd79b33448a9b54f4c0a47a6b6151f3a9e3f0a/flax_mnist.ipynb
# expect: shape-churn at line 226
# runtime: COMPILES 6 CALLS 23
# why: batch_data slices the 90% training split in steps of batch_size=6144 and keeps the short last slice, so train_step and compute_metrics compile twice; compute_metrics then compiles again for the whole validation and test arrays.
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




# cell 1
from flax import linen as nn

class MLP(nn.Module):
    @nn.compact
    def __call__(self, x):
        x = x.reshape((x.shape[0], -1))
        x = nn.Dense(features=120)(x)
        x = nn.sigmoid(x)
        x = nn.Dense(features=84)(x)
        x = nn.sigmoid(x)
        x = nn.Dense(features=10)(x)
        return x
# cell 2
import jax
import jax.numpy as jnp

net = MLP()
print(net.tabulate(jax.random.key(0), jnp.ones((1, 28, 28))))
# cell 3
# from clu import metrics  # scaffolding: clu is not installed; a minimal stand-in of clu.metrics (Collection, Accuracy, Average) below
from flax import struct as _struct  # scaffolding


class metrics:  # scaffolding: only what the notebook uses
    @_struct.dataclass
    class Average:  # scaffolding
        total: jnp.ndarray  # scaffolding
        count: jnp.ndarray  # scaffolding

        @classmethod
        def empty(cls):  # scaffolding
            return cls(total=jnp.array(0, jnp.float32), count=jnp.array(0, jnp.int32))  # scaffolding

        @classmethod
        def from_output(cls, name):  # scaffolding
            @_struct.dataclass
            class FromOutput(cls):  # scaffolding
                @classmethod
                def from_model_output(klass, **kwargs):  # scaffolding
                    v = jnp.asarray(kwargs[name], jnp.float32)  # scaffolding
                    return klass(total=v.sum(), count=jnp.array(v.size, jnp.int32))  # scaffolding
            return FromOutput  # scaffolding

        def merge(self, other):  # scaffolding
            return type(self)(total=self.total + other.total, count=self.count + other.count)  # scaffolding

        def compute(self):  # scaffolding
            return self.total / self.count  # scaffolding

    @_struct.dataclass
    class Accuracy(Average):  # scaffolding
        @classmethod
        def from_model_output(cls, *, logits, labels, **kwargs):  # scaffolding
            c = (logits.argmax(axis=-1) == labels).astype(jnp.float32)  # scaffolding
            return cls(total=c.sum(), count=jnp.array(c.size, jnp.int32))  # scaffolding

    class Collection:  # scaffolding
        @classmethod
        def empty(cls):  # scaffolding
            return cls(**{k: t.empty() for k, t in cls.__annotations__.items()})  # scaffolding

        @classmethod
        def single_from_model_output(cls, **kwargs):  # scaffolding
            return cls(**{k: t.from_model_output(**kwargs) for k, t in cls.__annotations__.items()})  # scaffolding

        def merge(self, other):  # scaffolding
            return type(self)(**{k: getattr(self, k).merge(getattr(other, k)) for k in type(self).__annotations__})  # scaffolding

        def compute(self):  # scaffolding
            return {k: getattr(self, k).compute() for k in type(self).__annotations__}  # scaffolding
from flax.training import train_state
from flax import struct
import optax
# cell 4
@struct.dataclass
class Metrics(metrics.Collection):
    accuracy: metrics.Accuracy
    loss: metrics.Average.from_output('loss')
# cell 5
class TrainState(train_state.TrainState):
    metrics: Metrics

def create_train_state(module, optimizer, rng):
    params = module.init(rng, jnp.ones([1, 28, 28]))['params']
    train_state = TrainState.create(
        apply_fn=module.apply, params=params,
        tx=optimizer, metrics=Metrics.empty()
    )
    return train_state
# cell 6
@jax.jit
def train_step(state, X, y):
    def loss_fn(params):
        logits = state.apply_fn({'params': params}, X)
        loss = optax.softmax_cross_entropy_with_integer_labels(
            logits=logits, labels=y
        ).mean()
        return loss

    grads = jax.grad(loss_fn)(state.params)
    state = state.apply_gradients(grads=grads)
    return state
# cell 7
@jax.jit
def compute_metrics(*, state, X, y):
    logits = state.apply_fn({'params': state.params}, X)
    loss = optax.softmax_cross_entropy_with_integer_labels(
        logits=logits, labels=y
    ).mean()
    metric_updates = state.metrics.single_from_model_output(
        logits=logits, labels=y, loss=loss
    )
    metrics = state.metrics.merge(metric_updates)
    state = state.replace(metrics=metrics)
    return state
# cell 8
import numpy as np  # scaffolding: moved up for the stand-ins (the cell imports it next)
# import mnists  # scaffolding: the mnists package downloads KMNIST; a stand-in with random images below


class mnists:  # scaffolding: 15000 train / 2000 test random 28x28 images (after the 10% split 13500 = 2 x 6144 + 1212, ragged like the real 54000 = 8 x 6144 + 4848)
    class KMNIST:  # scaffolding
        def __init__(self):  # scaffolding
            self.rs = np.random.RandomState(0)  # scaffolding

        def train_images(self):  # scaffolding
            return self.rs.randint(0, 256, (15000, 28, 28)).astype(np.uint8)  # scaffolding

        def train_labels(self):  # scaffolding
            return self.rs.randint(0, 10, 15000)  # scaffolding

        def test_images(self):  # scaffolding
            return self.rs.randint(0, 256, (2000, 28, 28)).astype(np.uint8)  # scaffolding

        def test_labels(self):  # scaffolding
            return self.rs.randint(0, 10, 2000)  # scaffolding
import numpy as np
# from sklearn.model_selection import train_test_split  # scaffolding: sklearn not installed; stand-in below


def train_test_split(X, y, test_size, random_state):  # scaffolding: same split sizes as sklearn's
    idx = np.random.RandomState(random_state).permutation(len(X))  # scaffolding
    n_test = int(np.ceil(test_size * len(X)))  # scaffolding
    te, tr = idx[:n_test], idx[n_test:]  # scaffolding
    return X[tr], X[te], y[tr], y[te]  # scaffolding

dataset = mnists.KMNIST()

X_train = dataset.train_images().astype(np.float32) / 255.0
y_train = dataset.train_labels().astype(np.int32)

X_train, X_valid, y_train, y_valid = train_test_split(
    X_train, y_train, test_size=0.1, random_state=0,
)

X_test = dataset.test_images().astype(np.float32) / 255.0
y_test = dataset.test_labels().astype(np.int32)
# cell 9
def batch_data(X, y, batch_size):
    for i in range(0, len(y), batch_size):
        yield X[i:i+batch_size], y[i:i+batch_size]
# cell 10
def create_metrics_history():
    return {
        'epoch': 0,
        'train_loss': [],
        'train_accuracy': [],
        'valid_loss': [],
        'valid_accuracy': [],
        'test_loss': [],
        'test_accuracy': [],
        'best_valid_loss': np.inf,
        'best_epoch': 0,
    }

metrics_history = create_metrics_history()

# optimizer = optax.sgd(learning_rate=0.001, momentum=0.9, nesterov=True)
optimizer = optax.adam(learning_rate=0.001)
model = MLP()
state = best_state = create_train_state(model, optimizer, jax.random.key(0))
# cell 11
from copy import deepcopy
import time

def train_model(state, best_state, num_epochs, metrics_history,
                report_every, batch_size):
    metrics_history = deepcopy(metrics_history)
    
    start_epoch = metrics_history['epoch']

    for epoch in range(start_epoch, num_epochs):
        try:
            tic = time.time()
    
            for X_batch, y_batch in batch_data(X_train, y_train, batch_size):
                state = train_step(state, X_batch, y_batch)
                state = compute_metrics(state=state, X=X_batch, y=y_batch)
            
            for metric, value in state.metrics.compute().items():
                metrics_history[f'train_{metric}'].append(value)
    
            state = state.replace(metrics=state.metrics.empty())
    
            valid_state = compute_metrics(state=state, X=X_valid, y=y_valid)
            for metric, value in valid_state.metrics.compute().items():
                metrics_history[f'valid_{metric}'].append(value)
    
            if metrics_history['valid_loss'][-1] < metrics_history['best_valid_loss']:
                metrics_history['best_valid_loss'] = metrics_history['valid_loss'][-1]
                metrics_history['best_epoch'] = epoch + 1
                best_state = state
    
            metrics_history['epoch'] = epoch + 1
            
            if (epoch + 1) % report_every == 0:
                toc = time.time()
                print(
                    f"[{toc-tic:.3f}s] Epoch: {epoch+1: 5d}, "
                    f"[Train] loss: {metrics_history['train_loss'][-1]:.3f}, "
                    f"accuracy: {metrics_history['train_accuracy'][-1]:.3f}, "
                    f"[Valid] loss: {metrics_history['valid_loss'][-1]:.3f}, "
                    f"accuracy: {metrics_history['valid_accuracy'][-1]:.3f}"
                )
        except KeyboardInterrupt:
            break

    return state, best_state, metrics_history

state, best_state, metrics_history = train_model(
    state, best_state, num_epochs=3, report_every=1,  # scaffolding: num_epochs=300, report_every=10 -> 3, 1
    batch_size=6144, metrics_history=metrics_history
)
# cell 12
def evaluate_on_test(state, best_state, metrics_history):
    def _evaluate(st, epoch):
        st = compute_metrics(state=st, X=X_test, y=y_test)

        print(f"[Test] Epoch: {epoch}", end=' ')
        for metric, value in st.metrics.compute().items():
            # metrics_history[f'test_{metric}'].append(value)
            print(f"{metric}: {value:.3f}", end=' ')
        print()

    _evaluate(best_state, metrics_history['best_epoch'])
    _evaluate(state, metrics_history['epoch'])
    return metrics_history

metrics_history = evaluate_on_test(state, best_state, metrics_history)
# (cells 13-41: plots, LeNet, dropout CNN and ResNet runs with the same train_model / compute_metrics, cut)  # scaffolding
_report({"jit(train_step)", "jit(compute_metrics)"}, 3 * 3 * 2 + 3 + 2)  # scaffolding: 3 epochs x 3 batches x (train_step + compute_metrics), 3 validation calls, 2 test calls
