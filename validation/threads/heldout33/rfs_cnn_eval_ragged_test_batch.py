# source: https://github.com/rezaarezvan/rfs/blob/e8f1a25b368cdab4f64f78b7f7b35b39d60fc3bb/rfs/models/CNN/eval.py
# expect: shape-churn at line 107
# runtime: COMPILES 2 CALLS 9
# why: evaluate() runs the eqx.filter_jit compute_accuracy (and loss_fn) over a test DataLoader without drop_last; MNIST's 10000 test images leave a 16-image last batch, so both compile a second time for the short batch.

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
import jax
import torch
import optax
import equinox as eqx
import jax.numpy as jnp
from torch.utils.data import TensorDataset  # scaffolding
from jaxtyping import PyTree, Float, Int, Array


# parameters.py
# Hyperparameters
BATCH_SIZE = 64
LEARNING_RATE = 1e-4
STEPS = 4  # scaffolding: 300
PRINT_EVERY = 2  # scaffolding: 10
SEED = 69420


# CNN.py
class CNN(eqx.Module):
    layers: list

    def __init__(self, key):
        key1, key2, key3, key4 = jax.random.split(key, 4)
        self.layers = [
            eqx.nn.Conv2d(1, 3, kernel_size=4, key=key1),
            eqx.nn.MaxPool2d(kernel_size=2),
            jax.nn.relu,
            jnp.ravel,
            eqx.nn.Linear(1728, 512, key=key2),
            jax.nn.sigmoid,
            eqx.nn.Linear(512, 64, key=key3),
            jax.nn.relu,
            eqx.nn.Linear(64, 10, key=key4),
            jax.nn.log_softmax,
        ]

    def __call__(self, x: Float[Array, "1 28 28"]) -> Float[Array, "10"]:
        for layer in self.layers:
            x = layer(x)
        return x


# loss.py
def cross_entropy(
    y: Int[Array, " batch"], pred_y: Float[Array, "batch 10"]
) -> Float[Array, ""]:
    pred_y = jnp.take_along_axis(pred_y, jnp.expand_dims(y, 1), axis=1)
    return -jnp.mean(pred_y)


def loss_fn(
    model: CNN, x: Float[Array, "batch 1 28 28"], y: Int[Array, " batch"]
) -> Float[Array, ""]:
    pred_y = jax.vmap(model)(x)
    return cross_entropy(y, pred_y)


loss_fn = eqx.filter_jit(loss_fn)


# eval.py
@eqx.filter_jit
def compute_accuracy(
    model: CNN, x: Float[Array, "batch 1 28 28"], y: Int[Array, " batch"]
) -> Float[Array, ""]:
    pred_y = jax.vmap(model)(x)
    pred_y = jnp.argmax(pred_y, axis=1)
    return jnp.mean(y == pred_y)


def evaluate(model: CNN, testloader: torch.utils.data.DataLoader):
    avg_loss = 0
    avg_acc = 0
    for x, y in testloader:
        x = x.numpy()
        y = y.numpy()
        avg_loss += loss_fn(model, x, y)
        avg_acc += compute_accuracy(model, x, y)
    return avg_loss / len(testloader), avg_acc / len(testloader)


# data_loader.py (torchvision MNIST replaced)
_g = torch.Generator().manual_seed(0)  # scaffolding
train_dataset = TensorDataset(torch.randn(256, 1, 28, 28, generator=_g), torch.randint(0, 10, (256,), generator=_g))  # scaffolding: MNIST train split
test_dataset = TensorDataset(torch.randn(136, 1, 28, 28, generator=_g), torch.randint(0, 10, (136,), generator=_g))  # scaffolding: MNIST test split (10000 = 156*64 + 16; here 2*64 + 8)
trainloader = torch.utils.data.DataLoader(
    train_dataset, batch_size=BATCH_SIZE, shuffle=True
)

testloader = torch.utils.data.DataLoader(
    test_dataset, batch_size=BATCH_SIZE, shuffle=True
)


# train.py
def train(
    model: CNN,
    trainloader: torch.utils.data.DataLoader,
    testloader: torch.utils.data.DataLoader,
    optim: optax.GradientTransformation,
    steps: int,
    print_every: int,
) -> CNN:
    opt_state = optim.init(eqx.filter(model, eqx.is_array))

    @eqx.filter_jit
    def make_step(
        model: CNN,
        opt_state: PyTree,
        x: Float[Array, "batch 1 28 28"],
        y: Int[Array, " batch"],
    ):
        loss_value, grads = eqx.filter_value_and_grad(loss_fn)(model, x, y)
        updates, opt_state = optim.update(grads, opt_state, model)
        model = eqx.apply_updates(model, updates)
        return model, opt_state, loss_value

    def infinite_trainloader():
        while True:
            yield from trainloader

    for step, (x, y) in zip(range(steps), infinite_trainloader()):
        x = x.numpy()
        y = y.numpy()
        model, opt_state, train_loss = make_step(model, opt_state, x, y)
        if (step % print_every) == 0 or (step == steps - 1):
            test_loss, test_accuracy = evaluate(model, testloader)
            print(
                f"{step=}, train_loss={train_loss.item()}, "
                f"test_loss={test_loss.item()}, test_accuracy={test_accuracy.item()}"  # joined: the multi-line f-string needs Python 3.12
            )
    return model


# main.py
key = jax.random.PRNGKey(SEED)
key, subkey = jax.random.split(key, 2)
model = CNN(subkey)
optim = optax.adamw(LEARNING_RATE)
model = train(model, trainloader, testloader, optim, STEPS, PRINT_EVERY)
_report({"jit(compute_accuracy)"}, 3 * len(testloader))  # scaffolding: evaluate() runs at steps 0, 2 and 3
