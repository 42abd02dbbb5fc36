# source: https://github.com/hypernicon/jax-notes/blob/7ada3197083b9ee45857507fe30abb446a4a631b/notebooks/jax-classification.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 15
# why: The learning rate is decayed every epoch and passed to the jitted train step as a plain Python float, and jax.jit(conv_nn) is built inline in the call; the float is a traced (weak-typed) argument and batch_size, the only static one, never changes, so train_step_conv_nn compiles once.

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
whitened_train = jax.random.normal(_k1, (128, 28, 28))
whitened_test = jax.random.normal(_k2, (128, 28, 28))
train_labels = jax.nn.one_hot(jax.random.randint(_k3, (128,), 0, 10), num_classes=10)
test_labels = jax.nn.one_hot(jax.random.randint(_k4, (128,), 0, 10), num_classes=10)


# cell 6 (the parts cells 9-12 use)
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


def initialize_mlp_params(key, hidden_dim=128, input_dim=784):
    key, key_w1, key_w2 = jax.random.split(key, 3)
    return (
        jax.random.normal(key_w1, (input_dim, hidden_dim)) * 2 / jnp.sqrt(input_dim),
        jnp.zeros((hidden_dim,)),
        jax.random.normal(key_w2, (hidden_dim, 10)) * 2 / jnp.sqrt(hidden_dim),
        jnp.zeros((10,)),
    ), key


# cell 9
def conv2d(x, w, b, strides=(1, 1), padding="SAME"):
    x = jax.lax.conv_general_dilated(
        x, w, strides, padding,
        dimension_numbers=("NHWC", "HWIO", "NHWC"),  # left hand spec, kernel spec, right hand spec
    )
    return x + b


def max_pool(x, window_shape=(2, 2), strides=(2, 2), padding="SAME"):
    wh, ww = window_shape
    sh, sw = strides
    window_dims = (1, wh, ww, 1)
    window_strides = (1, sh, sw, 1)
    return jax.lax.reduce_window(
        x,
        init_value=-jnp.inf,
        computation=jax.lax.max,   # see next section
        window_dimensions=window_dims,
        window_strides=window_strides,
        padding=padding,
    )


def conv_plus_pool(x, w, b, conv_strides=(1,1), window_shape=(2,2), pool_strides=(2,2), padding="SAME"):
    x = conv2d(x, w, b, conv_strides, padding)
    x = max_pool(x, window_shape, pool_strides, padding)
    return relu(x)


def conv_nn(x, *model_params):
    num_conv_layers = (len(model_params) - 4) // 2
    conv_params = model_params[:num_conv_layers*2]
    mlp_params = model_params[num_conv_layers*2:]

    x = x.reshape(x.shape[0], 28, 28, 1)
    for i in range(num_conv_layers):
        w, b = conv_params[i*2], conv_params[i*2+1]
        x = conv_plus_pool(x, w, b)

    x = x.reshape(x.shape[0], -1)
    
    return mlp(x, *mlp_params)


def initialize_conv_nn_params(key, num_conv_layers, kernel_size=3, hidden_dim=128, channel_multiplier=2):
    conv_params = []
    channels = 1
    input_dim = 28
    for _ in range(num_conv_layers):
        key, key_w = jax.random.split(key, 2)
        input_factor = kernel_size * kernel_size * channels
        conv_params.append(
            jax.random.normal(key_w, (kernel_size, kernel_size, channels, channels * channel_multiplier)) * 2 / jnp.sqrt(input_factor)
        )
        conv_params.append(jnp.zeros((channels * channel_multiplier,)))
        channels *= channel_multiplier
        input_dim = (input_dim + 1) // 2

    input_dim = input_dim * input_dim * channels
    print(f"Input dim at MLP: {input_dim}")
    mlp_params, key = initialize_mlp_params(key, hidden_dim, input_dim)

    params = conv_params + list(mlp_params)

    return tuple(params), key


def conv_nn_cross_entropy_loss(model_params, batch):
    images, labels = batch
    logits = conv_nn(images.reshape(images.shape[0], -1), *model_params)
    return -jnp.sum(labels * log_softmax(logits)) / images.shape[0]


# cell 11
from functools import partial

@partial(jax.jit, static_argnames=('batch_size',))
def train_step_conv_nn(model_params, images, labels, key, learning_rate, batch_size):
    key, subkey = jax.random.split(key)
    indices = jax.random.randint(subkey, (batch_size,), 0, images.shape[0])

    batch = (images[indices], labels[indices])

    # loss + grads in one pass
    loss, grads = jax.value_and_grad(conv_nn_cross_entropy_loss)(
        model_params, batch
    )

    # SGD update (works for nested PyTrees too)
    new_params = jax.tree.map(
        lambda p, g: p - learning_rate * g,
        model_params,
        grads,
    )

    return new_params, loss, key


_calls = 0  # scaffolding: counts train-step calls


def fit_mnist_jit(model_params, fwd_fn, loss_fn, train_step_fn, key, num_epochs, batch_size, batches_per_epoch, learning_rate, decay):
    global _calls  # scaffolding
    for epoch in range(num_epochs):
        for i in range(batches_per_epoch):
            model_params, _, key = train_step_fn(model_params, whitened_train, train_labels, key, learning_rate, batch_size)
            _calls += 1  # scaffolding
        
        learning_rate *= decay
        
        train_loss = loss_fn(model_params, (whitened_train, train_labels))
        test_loss = loss_fn(model_params, (whitened_test, test_labels))

        train_preds = jnp.argmax(fwd_fn(whitened_train.reshape(whitened_train.shape[0], -1), *model_params), axis=-1)
        train_acc = jnp.mean(train_preds == jnp.argmax(train_labels, axis=-1))
        test_preds = jnp.argmax(fwd_fn(whitened_test.reshape(whitened_test.shape[0], -1), *model_params), axis=-1)
        test_acc = jnp.mean(test_preds == jnp.argmax(test_labels, axis=-1))

        print(f"Epoch {epoch} lr: {learning_rate:.3e}, train loss: {train_loss:.3f}, acc: {train_acc:.3f}, test loss: {test_loss:.3f}, acc: {test_acc:.3f}")


# cell 12
import math  # scaffolding: imported in cell 8

batch_size = 128  # scaffolding: set in cell 8
batches_per_epoch = 3  # scaffolding: train_ds.shape[0] // batch_size in cell 8

model_params, key = initialize_conv_nn_params(key, num_conv_layers=3, hidden_dim=256, channel_multiplier=4)

num_epochs = 5  # scaffolding: 100 in the notebook
learning_rate = 1e-2
end_learning_rate = 1e-4
decay = math.exp(math.log(end_learning_rate / learning_rate) / num_epochs)

fit_mnist_jit(
    model_params, jax.jit(conv_nn), jax.jit(conv_nn_cross_entropy_loss), train_step_conv_nn, key, 
    num_epochs, batch_size, batches_per_epoch, learning_rate, decay
)
_report({"jit(train_step_conv_nn)"}, _calls)  # scaffolding
