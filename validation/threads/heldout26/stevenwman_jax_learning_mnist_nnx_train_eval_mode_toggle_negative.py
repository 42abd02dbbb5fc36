# source: https://github.com/stevenwman/jax-learning/blob/b7efed555f5dcf3992d5c19e97135872228e72f9/mnist_tutorial.ipynb
# expect: none
# runtime: COMPILES 3 CALLS 23
# why: nnx.jit train_step/eval_step are called in a loop that toggles model.train()/model.eval() and pass the module and metrics objects, but the batches drop the remainder and the CNN has no mode-dependent layers, so each step compiles once.
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




# cell 0
# !wget -nc https://huggingface.co/datasets/ylecun/mnist/resolve/main/mnist/test-00000-of-00001.parquet
# !wget -nc https://huggingface.co/datasets/ylecun/mnist/resolve/main/mnist/train-00000-of-00001.parquet

# cell 1
# import pandas as pd  # scaffolding: no parquet files here; a stand-in frame follows
import numpy as np  # scaffolding
class _Frame:  # scaffolding: stand-in for the MNIST parquet DataFrame (row dicts with png bytes and a label)
    def __init__(self, n):  # scaffolding
        self.rows = [{'image': {'bytes': np.full((28, 28), i % 256, np.uint8).tobytes()}, 'label': i % 10} for i in range(n)]  # scaffolding: raw pixels instead of png bytes
        self.iloc = self.rows  # scaffolding
    def __len__(self):  # scaffolding
        return len(self.rows)  # scaffolding

test_file_path = 'content/test-00000-of-00001.parquet'
train_file_path = 'content/train-00000-of-00001.parquet'

mnist_train_df = _Frame(256 * 11 + 100)  # scaffolding: pd.read_parquet(train_file_path); 2916 rows instead of 60000
minst_test_df = _Frame(256 * 2)  # scaffolding: pd.read_parquet(test_file_path)

# cell 2
import io
# from PIL import Image  # scaffolding: PIL is not installed; stand-in decodes the raw pixels above
class Image:  # scaffolding
    @staticmethod  # scaffolding
    def open(f):  # scaffolding
        return np.frombuffer(f.read(), np.uint8).reshape(28, 28)  # scaffolding
import numpy as np


class Dataset:
    def __init__(self, df):
        self.df = df

    def __len__(self):
        return len(self.df)
    
    def __getitem__(self, index):
        return convert_to_numpy(self.df.iloc[index])


def convert_to_numpy(data_dict):
    png_bytes = data_dict['image']['bytes']
    image = Image.open(io.BytesIO(png_bytes))
    image_array = np.array(image, dtype=np.float32) / 255.0
    label_array = np.array(data_dict['label'])
    return {'image':image_array[:,:,np.newaxis], 'label':label_array}

# cell 3
class grain:  # scaffolding: stand-in for the grain package (not installed): sequential sampler + Batch(drop_remainder)
    class samplers:  # scaffolding
        @staticmethod  # scaffolding
        def SequentialSampler(num_records, shard_options):  # scaffolding
            return range(num_records)  # scaffolding
    class sharding:  # scaffolding
        @staticmethod  # scaffolding
        def NoSharding():  # scaffolding
            return None  # scaffolding
    class transforms:  # scaffolding
        class Batch:  # scaffolding
            def __init__(self, batch_size, drop_remainder=False):  # scaffolding
                self.batch_size, self.drop_remainder = batch_size, drop_remainder  # scaffolding
    class DataLoader:  # scaffolding
        def __init__(self, data_source, sampler, operations):  # scaffolding
            self.data_source, self.sampler, self.batch = data_source, sampler, operations[0]  # scaffolding
        def __iter__(self):  # scaffolding
            idx, bs = list(self.sampler), self.batch.batch_size  # scaffolding
            stop = len(idx) - len(idx) % bs if self.batch.drop_remainder else len(idx)  # scaffolding
            for i in range(0, stop, bs):  # scaffolding
                items = [self.data_source[j] for j in idx[i:i + bs]]  # scaffolding
                yield {k: np.stack([it[k] for it in items]) for k in items[0]}  # scaffolding

batch_size = 256

mnist_train = Dataset(mnist_train_df)
mnist_test = Dataset(mnist_train_df)

sampler = grain.samplers.SequentialSampler(
    num_records=len(mnist_train),
    shard_options=grain.sharding.NoSharding())

train_dl = grain.DataLoader(
    data_source=mnist_train,
    sampler=sampler,
    operations=[grain.transforms.Batch(batch_size=batch_size, drop_remainder=True)]
)

test_dl = grain.DataLoader(
    data_source=mnist_test,
    sampler=sampler,
    operations=[grain.transforms.Batch(batch_size=batch_size, drop_remainder=True)]
)

# cell 4
from flax import nnx
from functools import partial

class CNN(nnx.Module):

    def __init__(self, *, rngs: nnx.Rngs):
        self.conv1 = nnx.Conv(1, 32, kernel_size=(3,3), rngs=rngs)
        self.conv2 = nnx.Conv(32, 64, kernel_size=(3,3), rngs=rngs)
        self.avg_pool = partial(nnx.avg_pool, window_shape=(2,2), strides=(2,2))
        self.linear1 = nnx.Linear(3136, 256, rngs=rngs)
        self.linear2 = nnx.Linear(256, 10, rngs=rngs)

    def __call__(self, x):
        x = self.avg_pool(nnx.relu(self.conv1(x)))
        x = self.avg_pool(nnx.relu(self.conv2(x)))
        x = x.reshape(x.shape[0], -1) # flatten
        x = nnx.relu(self.linear1(x))
        x = self.linear2(x)
        return x
    
model = CNN(rngs=nnx.Rngs(0))

# nnx.display(model)  # scaffolding: notebook display only

# cell 5
import jax.numpy as jnp

y = model(jnp.ones((1,28,28,1)))
y

# cell 6
import optax

learning_rate = 0.005
momentum = 0.9

optimizer = nnx.Optimizer(model, optax.adamw(learning_rate, momentum), wrt=nnx.Param)
metrics = nnx.MultiMetric(
    accuracy=nnx.metrics.Accuracy(),
    loss=nnx.metrics.Average('loss'),
)

# nnx.display(optimizer)  # scaffolding: notebook display only

# cell 7
def loss_fn(model: CNN, batch):
    logits = model(batch['image'])
    loss = optax.softmax_cross_entropy_with_integer_labels(
        logits=logits, labels=batch['label']
    ).mean()
    return loss, logits

@nnx.jit
def train_step(model: CNN, optimizer: nnx.Optimizer, metrics: nnx.MultiMetric, batch):
    grad_fn = nnx.value_and_grad(loss_fn, has_aux=True)
    (loss, logits), grads = grad_fn(model, batch)
    metrics.update(loss=loss, logits=logits, labels=batch['label']) # In-place updates.
    optimizer.update(model, grads) # In-place updates.

@nnx.jit
def eval_step(model: CNN, metrics: nnx.MultiMetric, batch):
    loss, logits = loss_fn(model, batch)
    metrics.update(loss=loss, logits=logits, labels=batch['label']) # In-place updates.

# cell 8
# from IPython.display import clear_output  # scaffolding: plotting left out
# import matplotlib.pyplot as plt  # scaffolding: plotting left out
_calls = 0  # scaffolding

eval_every = 10
train_steps = 1000
metrics_history = {
  'train_loss': [],
  'train_accuracy': [],
  'test_loss': [],
  'test_accuracy': [],
}

rngs = nnx.Rngs(0)

for step, batch in enumerate(train_dl):
    model.train()
    train_step(model, optimizer, metrics, batch)
    _calls += 1  # scaffolding

    if step > 0 and (step % eval_every == 0 or step == train_steps - 1):
        for metric, value in metrics.compute().items():
            metrics_history[f'train_{metric}'].append(value)
        metrics.reset()

        model.eval()
        for test_batch in test_dl:
            eval_step(model, metrics, test_batch)
            _calls += 1  # scaffolding

        for metric, value in metrics.compute().items():
            metrics_history[f'test_{metric}'].append(value)
        metrics.reset()

        # clear_output(wait=True)  # scaffolding: plotting left out

        # fig, (ax1, ax2) = plt.subplots(1,2, figsize=(15,5))  # scaffolding: plotting left out
        # ax1.set_title('Loss')  # scaffolding: plotting left out
        # ax2.set_title('Accuracy')  # scaffolding: plotting left out
        # for dataset in ('train', 'test'):  # scaffolding: plotting left out
        # ax1.plot(metrics_history[f'{dataset}_loss'], label=f'{dataset}_loss')  # scaffolding: plotting left out
        # ax2.plot(metrics_history[f'{dataset}_accuracy'], label=f'{dataset}_accuracy')  # scaffolding: plotting left out
        # ax1.legend()  # scaffolding: plotting left out
        # ax2.legend()  # scaffolding: plotting left out
        # plt.show()  # scaffolding: plotting left out

# cell 9
model.eval()

@nnx.jit
def pred_step(model: CNN, batch):
    logits = model(batch['image'])
    return logits.argmax(axis=1)

# cell 10
test_dl_iter = iter(test_dl)
test_batch = next(test_dl_iter)

pred = pred_step(model, test_batch)

pred = pred  # scaffolding: the plotting below is left out
# fig, axs = plt.subplots(6,6, figsize=(12,12))  # scaffolding: plotting left out
# for i, ax in enumerate(axs.flatten()):  # scaffolding: plotting left out
#     ax.imshow(test_batch['image'][i, ... , 0], cmap='gray')  # scaffolding: plotting left out
#     ax.set_title(f'lable={pred[i]}')  # scaffolding: plotting left out
#     ax.axis('off')  # scaffolding: plotting left out
_calls += 1  # scaffolding
_report({"jit(train_step)", "jit(eval_step)", "jit(pred_step)"}, _calls)  # scaffolding
