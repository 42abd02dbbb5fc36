# source: https://github.com/pczarnik/jax-notebooks/blob/9fb73486537c79b2dddb9c1d4b42cb188621501d/equinox_mlp_receptive_fields.ipynb
# expect: jit-in-loop-or-body at line 270; shape-churn at line 222
# runtime: COMPILES 6 CALLS 126
# why: train_vis defines @eqx.filter_jit make_step in its body, so every visualize_receptive_field call in the cell-30 loop builds and compiles a new make_step; batch_data also yields a ragged last batch of 512, so the training make_step compiles twice.
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
# !pip install -q mnists  # scaffolding: shell command cut
# cell 2
# !pip install -q equinox  # scaffolding: shell command cut
# cell 3
import jax
import jax.numpy as jnp
# import matplotlib.pyplot as plt  # scaffolding: matplotlib not installed; a no-op stand-in below


class plt:  # scaffolding
    rcParams = {}  # scaffolding
    matshow = axis = show = staticmethod(lambda *a, **k: None)  # scaffolding
import equinox as eqx
import optax
from jaxtyping import Array, Float, Int, PyTree
import jax.tree_util as jtu
# cell 4
import numpy as np  # scaffolding: moved up for the stand-ins (the cell imports it next)
# import mnists  # scaffolding: the mnists package downloads MNIST; a stand-in with random images below


class mnists:  # scaffolding: 3000 train / 600 test random images (like the real 60000 / 10000 they leave a ragged last batch of 512)
    class MNIST:  # scaffolding
        def __init__(self):  # scaffolding
            self.rs = np.random.RandomState(0)  # scaffolding

        def train_images(self):  # scaffolding
            return self.rs.randint(0, 256, (3000, 28, 28)).astype(np.uint8)  # scaffolding

        def train_labels(self):  # scaffolding
            return self.rs.randint(0, 10, 3000)  # scaffolding

        def test_images(self):  # scaffolding
            return self.rs.randint(0, 256, (600, 28, 28)).astype(np.uint8)  # scaffolding

        def test_labels(self):  # scaffolding
            return self.rs.randint(0, 10, 600)  # scaffolding
import numpy as np
# from sklearn.model_selection import train_test_split  # scaffolding: sklearn not installed; stand-in below


def train_test_split(X, y, test_size, random_state):  # scaffolding: same split sizes as sklearn's
    idx = np.random.RandomState(random_state).permutation(len(X))  # scaffolding
    n_test = int(np.ceil(test_size * len(X)))  # scaffolding
    te, tr = idx[:n_test], idx[n_test:]  # scaffolding
    return X[tr], X[te], y[tr], y[te]  # scaffolding

dataset = mnists.MNIST()

X_train = dataset.train_images().astype(np.float32) / 255.0
y_train = dataset.train_labels().astype(np.int32)

X_train, X_valid, y_train, y_valid = train_test_split(
    X_train, y_train, test_size=0.1, random_state=0,
)

X_test = dataset.test_images().astype(np.float32) / 255.0
y_test = dataset.test_labels().astype(np.int32)

BATCH_SIZE = 512
# cell 5
def batch_data(X, y, batch_size):
    for i in range(0, len(y), batch_size):
        yield X[i:i+batch_size], y[i:i+batch_size]

X_dummy, y_dummy = next(iter(batch_data(X_train, y_train, BATCH_SIZE)))
X_dummy.shape, y_dummy.shape
# cell 6
key = jax.random.PRNGKey(0)
# cell 7
from functools import partial


class CNN(eqx.Module):
    layers: list

    def __init__(self, key):
        keys = jax.random.split(key, 5)
        self.layers = [
            partial(jnp.expand_dims, axis=0),  # scaffolding: in the notebook's stored outputs the first layer is functools.partial(expand_dims, axis=0) (cell 7 imports partial for it); the committed source lost the line
            eqx.nn.Conv2d(1, 16, kernel_size=5, padding=2, key=keys[0]),
            jax.nn.relu,
            eqx.nn.MaxPool2d(kernel_size=2, stride=2),
            eqx.nn.Conv2d(16, 64, kernel_size=5, key=keys[1]),
            jax.nn.relu,
            eqx.nn.MaxPool2d(kernel_size=2, stride=2),
            jnp.ravel,
            eqx.nn.Linear(1600, 128, key=keys[2]),
            jax.nn.relu,
            eqx.nn.Linear(128, 64, key=keys[3]),
            jax.nn.relu,
            eqx.nn.Linear(64, 10, key=keys[4]),
            jax.nn.log_softmax,
        ]

    def __call__(self, x: Float[Array, "28 28"]) -> Float[Array, "10"]:
        for layer in self.layers:
            x = layer(x)
        return x

key, subkey = jax.random.split(key, 2)
model = CNN(subkey)
model
# cell 8
def cross_entropy(
    y: Int[Array, "batch"],
    pred_y: Float[Array, "batch 10"],
) -> Float[Array, ""]:
    pred_y = jnp.take_along_axis(pred_y, jnp.expand_dims(y, 1), axis=1)
    return -jnp.mean(pred_y)

def loss(
    model: CNN,
    x: Float[Array, "batch 28 28"],
    y: Int[Array, "batch"],
) -> Float[Array, ""]:
    pred_y = jax.vmap(model)(x)
    return cross_entropy(y, pred_y)


loss_val = loss(model, X_dummy, y_dummy)
print(loss_val)
output = jax.vmap(model)(X_dummy)
output.shape
# cell 9
#jax.value_and_grad(loss)(model, X_dummy, y_dummy)
# cell 10
params, static = eqx.partition(model, eqx.is_array)

def loss2(params, static, x, y):
    model = eqx.combine(params, static)
    return loss(model, x, y)

loss_value, grads = jax.value_and_grad(loss2)(params, static, X_dummy, y_dummy)
loss_value, type(grads)
# cell 11
value, grads = eqx.filter_value_and_grad(loss)(model, X_dummy, y_dummy)
value, type(grads)
# cell 12
loss = eqx.filter_jit(loss)

@eqx.filter_jit
def compute_accuracy(
    model: CNN,
    x: Float[Array, "batch 28 28"],
    y: Int[Array, "batch"],
) -> Float[Array, ""]:
    pred_y = jax.vmap(model)(x)
    pred_y = jnp.argmax(pred_y, axis=1)
    return jnp.mean(y == pred_y)

compute_accuracy(model, X_dummy, y_dummy)
# cell 13
def evaluate(model, X_test, y_test):
    avg_loss = 0
    avg_acc = 0
    n_batches = (len(X_test) + BATCH_SIZE - 1) // BATCH_SIZE
    for x, y in batch_data(X_test, y_test, BATCH_SIZE):
        avg_loss += loss(model, x, y)
        avg_acc += compute_accuracy(model, x, y)
    return avg_loss / n_batches, avg_acc / n_batches
# cell 14
evaluate(model, X_test, y_test)
# cell 15
optim = optax.adamw(1e-3)
# cell 16
def train(
    model: CNN,
    X_train, y_train, X_test, y_test,
    optim: optax.GradientTransformation,
    epochs: int, print_every: int,
) -> CNN:
    opt_state = optim.init(eqx.filter(model, eqx.is_array))

    @eqx.filter_jit
    def make_step(
        model: CNN,
        opt_state: PyTree,
        x: Float[Array, "batch 28 28"],
        y: Int[Array, "batch"],
    ):
        loss_val, grads = eqx.filter_value_and_grad(loss)(model, x, y)
        updates, opt_state = optim.update(grads, opt_state, model)
        model = eqx.apply_updates(model, updates)
        return model, opt_state, loss_val

    n_batches = (len(X_train) + BATCH_SIZE - 1) // BATCH_SIZE

    try:
        for epoch in range(epochs):
            avg_train_loss = 0
            for x, y in batch_data(X_train, y_train, BATCH_SIZE):
                model, opt_state, train_loss = make_step(model, opt_state, x, y)
                avg_train_loss += train_loss

            if (epoch + 1) % print_every == 0:
                test_loss, test_accuracy = evaluate(model, X_test, y_test)
                print(
                    f"[{epoch + 1:3d}] train_loss={train_loss.item()/n_batches:2.3f} "
                    f"test_loss={test_loss.item():2.3f} test_accuracy={test_accuracy.item():2.3f}"
                )
    except KeyboardInterrupt:
        pass
    return model
# cell 17
trained_model = train(model, X_train, y_train, X_test, y_test, optim=optim, epochs=1, print_every=1)  # scaffolding: epochs 100 -> 1
# cell 18
key = jax.random.PRNGKey(0)
# cell 19
class VisReceptiveFields(eqx.Module):
    img: Float[Array, "28 28"]
    layers: list

    def __init__(self, img, layers):
        self.img = jnp.array(img)
        self.layers = layers

    def __call__(self):
        x = self.img
        for layer in self.layers:
            x = layer(x)
        return x

vis_model = VisReceptiveFields(jax.random.uniform(jax.random.PRNGKey(0), (28, 28)), trained_model.layers[:3])
vis_model
# cell 20
vis_model().shape
# cell 21
filter_spec = jtu.tree_map(lambda _: False, vis_model)
filter_spec = eqx.tree_at(lambda tree: tree.img, filter_spec, replace=True)
# cell 22
def train_vis(
    model: VisReceptiveFields,
    optim: optax.GradientTransformation,
    epochs: int, print_every: int,
    filter_idx: int,
    filter_spec
):
    opt_state = optim.init(eqx.filter(model, eqx.is_array))

    @eqx.filter_jit
    def make_step(
        model: CNN,
        opt_state: PyTree,
    ):
        def loss_vis(diff_model, static_model):
            model = eqx.combine(diff_model, static_model)
            activations = model()
            activations = activations[filter_idx, 1:-1, 1:-1]
            # activations = activations[filter_idx]
            return -jnp.mean(activations)

        diff_model, static_model = eqx.partition(model, filter_spec)
        loss_val, grads = eqx.filter_value_and_grad(loss_vis)(diff_model, static_model)
        updates, opt_state = optim.update(grads, opt_state, model)
        model = eqx.apply_updates(model, updates)
        return model, opt_state, loss_val

    for epoch in range(epochs):
        model, opt_state, loss_val = make_step(model, opt_state)

        if (epoch + 1) % print_every == 0:
            print(f"[{epoch + 1:3d}] loss={loss_val.item():2.3f}")

    return model
# cell 23
# trained_vis_model = train_vis(vis_model, optim, 1000, 100, filter_idx=1, filter_spec=filter_spec)  # scaffolding: cut; with current optax, adamw's update (weight decay over the full model) rejects the img-only grads with a pytree structure ValueError (the stored output shows it ran in 2024); cell 30 uses optax.sgd, which runs
# cell 24
vis_model().shape
# cell 25
def visualize_receptive_field(img, layers, filter_idx, optim, epochs, print_every):
    vis_model = VisReceptiveFields(img, layers)
    filter_spec = jtu.tree_map(lambda _: False, vis_model)
    filter_spec = eqx.tree_at(lambda tree: tree.img, filter_spec, replace=True)
    vis_model = train_vis(vis_model, optim, epochs, print_every, filter_idx, filter_spec)
    img = vis_model.img
    img = img - img.min()
    img = img / img.max()
    return img
# cell 26
trained_model.layers
# cell 27
def tiles(examples):
    rows_count = examples.shape[0]
    cols_count = examples.shape[1]
    tile_height = examples.shape[2]
    tile_width = examples.shape[3]

    space_between_tiles = 2
    img_matrix = np.empty(shape=(rows_count * (tile_height + space_between_tiles) - space_between_tiles,
                                 cols_count * (tile_width + space_between_tiles) - space_between_tiles))
    img_matrix.fill(np.nan)

    for r in range(rows_count):
        for c in range(cols_count):
            x_0 = r * (tile_height + space_between_tiles)
            y_0 = c * (tile_width + space_between_tiles)
            img_matrix[x_0:x_0 + tile_height, y_0:y_0 + tile_width] = examples[r, c]

    plt.matshow(img_matrix, cmap='gray', interpolation='none')
    plt.axis('off')
    plt.show()
# cell 28

# cell 29
# %matplotlib inline  # scaffolding: IPython magics cut
# %config InlineBackend.figure_format = 'retina'  # scaffolding
plt.rcParams["figure.figsize"] = [16, 9]
# cell 30
optim = optax.sgd(10)

n_layers = len(trained_model.layers)
layer_range = [1]  # scaffolding: [1, 2, 3, 4, 5, 6] cut to the first layer (CPU time)
filter_counts = [4]  # scaffolding: [16, 16, 16, 64, 64, 64] cut to 4 filters (still a square tile)

init_img = jax.random.uniform(jax.random.PRNGKey(0), (28, 28))
img = init_img  # scaffolding: `img` was left over from an earlier run in the notebook's kernel; NameError otherwise

for i, l in enumerate(layer_range):
    imgs = []
    filter_count = filter_counts[i]
    for j in range(filter_count):
        img = visualize_receptive_field(img, trained_model.layers[:l+1], j, optim, 30, 31)
        imgs.append(np.array(img))
    wh = int(filter_count ** 0.5)
    tiles(np.array(imgs).reshape(wh, wh, 28, 28))
    print()
# cell 31

print("make_step compiles:", sum(1 for n in _COMPILED if n == "jit(make_step)"))  # scaffolding
_report({"jit(make_step)"}, 6 + 4 * 30)  # scaffolding: train 1 epoch x 6 batches (2700 = 5 x 512 + 140); train_vis 4 calls x 30 steps (cell 30)
