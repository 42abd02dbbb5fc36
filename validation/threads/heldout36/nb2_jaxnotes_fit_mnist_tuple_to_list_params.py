# source: https://github.com/hypernicon/jax-notes/blob/7ada3197083b9ee45857507fe30abb446a4a631b/notebooks/jax-classification.ipynb
# expect: shape-churn at line 94
# runtime: COMPILES 6 CALLS 24
# why: initialize_mlp_params returns a tuple, but the hand-written SGD update rebuilds model_params as a list, so the second call of grad(jit(mlp_cross_entropy_loss)) sees a different pytree structure and the jitted loss is traced and compiled again (forward and backward) once the container type changes.

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
import jax  # scaffolding: imports from earlier cells
import jax.numpy as jnp  # scaffolding

key = jax.random.key(42)  # scaffolding
# scaffolding: stand-in for the whitened MNIST arrays and one-hot labels of cells 1-5 (small, random)
key, _k1, _k2, _k3, _k4 = jax.random.split(key, 5)
whitened_train = jax.random.normal(_k1, (256, 28, 28))
whitened_test = jax.random.normal(_k2, (128, 28, 28))
train_labels = jax.nn.one_hot(jax.random.randint(_k3, (256,), 0, 10), num_classes=10)
test_labels = jax.nn.one_hot(jax.random.randint(_k4, (128,), 0, 10), num_classes=10)
train_ds = whitened_train  # scaffolding: cell 8 reads train_ds.shape[0]


_calls = [0]  # scaffolding: counts grad_fn calls


# cell 6
def linear(x, w, b):
    return x @ w + b


def relu(x):
    return jnp.maximum(0, x)


def log_softmax(x):
    max_x = jnp.max(x, axis=-1, keepdims=True)
    # log-sum-exp trick to avoid numerical instability
    return x - max_x - jnp.log(jnp.sum(jnp.exp(x - max_x), axis=-1, keepdims=True))


def mlp(x, w1, b1, w2, b2):
    x = linear(x, w1, b1)
    x = relu(x)
    x = linear(x, w2, b2)
    return x


@jax.jit
def mlp_cross_entropy_loss(model_params, batch):
    images, labels = batch
    logits = mlp(images.reshape(images.shape[0], -1), *model_params)
    return -jnp.sum(labels * log_softmax(logits)) / images.shape[0]


mlp_cross_entropy_grad_fn = jax.grad(mlp_cross_entropy_loss)


def initialize_mlp_params(key, hidden_dim=128, input_dim=784):
    key, key_w1, key_w2 = jax.random.split(key, 3)
    return (
        jax.random.normal(key_w1, (input_dim, hidden_dim)) * 2 / jnp.sqrt(input_dim),
        jnp.zeros((hidden_dim,)),
        jax.random.normal(key_w2, (hidden_dim, 10)) * 2 / jnp.sqrt(hidden_dim),
        jnp.zeros((10,)),
    ), key


# cell 7
def fit_mnist(model_params, fwd_fn, loss_fn, grad_fn, key, num_epochs, batch_size, batches_per_epoch, learning_rate, decay):
    for epoch in range(num_epochs):
        for i in range(batches_per_epoch):
            key, key_subsample = jax.random.split(key)
            indices = jax.random.randint(key_subsample, (batch_size,), 0, whitened_train.shape[0])
            batch = (whitened_train[indices], train_labels[indices])
            grads = grad_fn(model_params, batch)
            _calls[0] += 1  # scaffolding
            model_params = [
                param - learning_rate * grad
                for param, grad in zip(model_params, grads) 
            ]
        
        learning_rate *= decay
        
        train_loss = loss_fn(model_params, (whitened_train, train_labels))
        test_loss = loss_fn(model_params, (whitened_test, test_labels))

        train_preds = jnp.argmax(fwd_fn(whitened_train.reshape(whitened_train.shape[0], -1), *model_params), axis=-1)
        train_acc = jnp.mean(train_preds == jnp.argmax(train_labels, axis=-1))
        test_preds = jnp.argmax(fwd_fn(whitened_test.reshape(whitened_test.shape[0], -1), *model_params), axis=-1)
        test_acc = jnp.mean(test_preds == jnp.argmax(test_labels, axis=-1))

        print(f"Epoch {epoch} lr: {learning_rate:.3e}, train loss: {train_loss:.3f}, acc: {train_acc:.3f}, test loss: {test_loss:.3f}, acc: {test_acc:.3f}")


# cell 8
import math

batch_size = 32  # scaffolding: 128 in the notebook
num_epochs = 3  # scaffolding: 25 in the notebook
batches_per_epoch = train_ds.shape[0] // batch_size

learning_rate = 1e-1
end_learning_rate = 1e-2
decay = math.exp(math.log(end_learning_rate / learning_rate) / num_epochs)

model_params, key = initialize_mlp_params(key, hidden_dim=128)

fit_mnist(
    model_params, mlp, mlp_cross_entropy_loss, mlp_cross_entropy_grad_fn, 
    key, num_epochs, batch_size, batches_per_epoch, learning_rate, decay
)


_report({"jit(mlp_cross_entropy_loss)"}, _calls[0])  # scaffolding
