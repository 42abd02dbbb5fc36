# source: https://github.com/ghif/dl-jax101/blob/13740c2dcf6813f351c62ceb21bfbfd589b9e85e/3-convnet/3-conv2d.ipynb
# expect: jit-in-loop-or-body at line 87; shape-churn at line 108
# runtime: COMPILES 12 CALLS 12
# why: train_utils.train and evaluate define their @nnx.jit step functions inside the function body, and the notebook calls them once per epoch, so every epoch builds new jitted functions and compiles them again; the notebook's BatchIterator also yields the short last batch, so each epoch compiles twice per function (12 compiles for 12 calls).
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


import sys  # scaffolding
import types  # scaffolding
import numpy as _np  # scaffolding


# ---- scaffolding: stand-ins for packages that are not installed (grain, sklearn, matplotlib, safetensors) and the repo's plotting/checkpoint helpers ----
class _RandomAccessDataSource:  # scaffolding: grain.RandomAccessDataSource base class
    pass  # scaffolding


class _NoSharding:  # scaffolding
    pass  # scaffolding


class _IndexSampler:  # scaffolding: grain.IndexSampler, one epoch of indices (shuffled with the seed if asked)
    def __init__(self, num_records, num_epochs=1, shard_options=None, shuffle=False, seed=0):  # scaffolding
        self.order = _np.random.RandomState(seed).permutation(num_records) if shuffle else _np.arange(num_records)  # scaffolding


class _DataLoader:  # scaffolding: grain.DataLoader yields the records in sampler order, one at a time
    def __init__(self, data_source, sampler, worker_count=0):  # scaffolding
        self.data_source, self.sampler = data_source, sampler  # scaffolding

    def __iter__(self):  # scaffolding
        return (self.data_source[int(i)] for i in self.sampler.order)  # scaffolding


grain = types.SimpleNamespace(RandomAccessDataSource=_RandomAccessDataSource, IndexSampler=_IndexSampler,  # scaffolding
                              NoSharding=_NoSharding, DataLoader=_DataLoader)  # scaffolding


def fetch_openml(name, version=1, as_frame=False, parser=None):  # scaffolding: sklearn's download of Fashion-MNIST; random data of 224 + 144 rows instead of 60000 + 10000
    rs = _np.random.RandomState(0)  # scaffolding
    n_train, n_test = 224, 144  # scaffolding: 224 % 128 = 96 like 60000 % 128, 144 % 128 = 16 like 10000 % 128
    data = rs.randint(0, 256, size=(n_train + n_test, 784)).astype(_np.float64)  # scaffolding
    target = rs.randint(0, 10, size=n_train + n_test).astype(str)  # scaffolding
    return types.SimpleNamespace(data=data, target=target)  # scaffolding


def save_checkpoint(model, epoch, filedir):  # scaffolding: model_utils.save_checkpoint writes safetensors; not installed, no-op
    pass  # scaffolding


# ---- train_utils.py ----
import jax
import jax.numpy as jnp
from flax import nnx
import optax
from time import process_time
from tqdm import tqdm

def train(model, dataloader, optimizer, metrics, rngs=None):
    """
    Refactored training loop for Flax NNX.
    """
    model.train()
    train_time = 0.0
    losses = 0.
    
    # In NNX, we define a train_step function
    @nnx.jit
    def train_step(model, optimizer, metrics, batch):
        inputs, targets = batch
        def loss_fn(model):
            logits = model(inputs)
            loss = optax.softmax_cross_entropy_with_integer_labels(logits, targets).mean()
            return loss, logits

        (loss, logits), grads = nnx.value_and_grad(loss_fn, has_aux=True)(model)
        optimizer.update(model, grads) # optimizer is stateful in NNX
        metrics.update(values=loss, logits=logits, labels=targets)
        return loss

    with tqdm(dataloader, unit="batch") as tepoch:
        for (X, y) in tepoch:
            start_t = process_time()
            
            # Convert to jnp
            X_jax = jnp.asarray(X)
            y_jax = jnp.asarray(y)
            
            loss = train_step(model, optimizer, metrics, (X_jax, y_jax))
            
            # Since we use jnp.array(X.numpy()), it might be slow for large datasets.
            # In a real scenario, we'd use a JAX-friendly data loader.
            
            losses += loss.item()

            elapsed_time = process_time() - start_t
            train_time += elapsed_time

            tepoch.set_postfix({
                'loss': f"{loss.item():.4f}",
                'time(secs)': f"{train_time:.2f}"
            })

    losses /= len(dataloader)
    return losses, train_time

def evaluate(model, dataloader, metrics):
    """
    Refactored evaluation loop for Flax NNX.
    """
    model.eval()
    eval_time = 0.0
    losses = 0.0
    
    @nnx.jit
    def eval_step(model, metrics, batch):
        inputs, targets = batch
        logits = model(inputs)
        loss = optax.softmax_cross_entropy_with_integer_labels(logits, targets).mean()
        metrics.update(values=loss, logits=logits, labels=targets)
        return loss

    with tqdm(dataloader, unit="batch") as tepoch:
        for (X, y) in tepoch:
            start_t = process_time()
            
            X_jax = jnp.asarray(X)
            y_jax = jnp.asarray(y)
            
            loss = eval_step(model, metrics, (X_jax, y_jax))
            
            losses += loss.item()

            elapsed_time = process_time() - start_t
            eval_time += elapsed_time

            tepoch.set_postfix({
                'loss': f"{loss.item():.4f}",
                'time(secs)': f"{eval_time:.2f}"
            })
            
    losses /= len(dataloader)
    model.train()

    return losses, eval_time


tu = sys.modules[__name__]  # scaffolding: train_utils.py is inlined above

# cell 2
import sys, os
sys.path.append(os.path.abspath(os.path.join(os.getcwd(), os.pardir)))

from time import process_time
# from IPython import display  # scaffolding: not used below

import jax
import jax.numpy as jnp
from flax import nnx
import optax
import numpy as np
# import grain.python as grain  # scaffolding: stood in above
# from sklearn.datasets import fetch_openml  # scaffolding: stood in above
# import matplotlib.pyplot as plt  # scaffolding: not installed; plotting cells cut
# import safetensors  # scaffolding: not installed
# from safetensors.flax import save_file, load_file  # scaffolding

# Module lokal
# import viz_utils as vu  # scaffolding: plotting helpers, cut
# from plot_lib import set_default  # scaffolding: plotting helpers, cut
# import train_utils as tu  # scaffolding: inlined above
# from model_utils import save_checkpoint, load_checkpoint  # scaffolding: stood in above

import importlib
# importlib.reload(vu)  # scaffolding
# importlib.reload(tu)  # scaffolding

# set_default()  # scaffolding: matplotlib style
# cell 4
DATA_DIR = "../data"
MODEL_DIR = "../models"
MODEL_DIR = "/tmp/h28_pages_models"  # scaffolding: a scratch folder for the (stubbed) checkpoints
BATCH_SIZE = 128
LEARNING_RATE = 1e-3
EPOCHS = 5
EPOCHS = 3  # scaffolding: 3 epochs
SEED = 42
# cell 6
print("Memuat Fashion-MNIST via OpenML...")
fmnist = fetch_openml('Fashion-MNIST', version=1, as_frame=False, parser='liac-arff')
X_all, y_all = fmnist.data, fmnist.target.astype(np.int32)

# Split 60k / 10k
X_train, X_test = X_all[:60000], X_all[60000:]
y_train, y_test = y_all[:60000], y_all[60000:]
X_train, X_test = X_all[:224], X_all[224:]  # scaffolding: the stand-in data has 224 + 144 rows
y_train, y_test = y_all[:224], y_all[224:]  # scaffolding

class FashionMNISTSource(grain.RandomAccessDataSource):
    def __init__(self, images, labels):
        self._images = images
        self._labels = labels
        
    def __len__(self):
        return len(self._images)
        
    def __getitem__(self, index):
        # Reshape ke (28, 28, 1) - format JAX standard (H, W, C)
        image = self._images[index].reshape(28, 28, 1).astype(np.float32) / 255.0
        label = self._labels[index]
        return {'image': image, 'label': label}

train_source = FashionMNISTSource(X_train, y_train)
test_source = FashionMNISTSource(X_test, y_test)
print(f"Train size: {len(train_source)}, Test size: {len(test_source)}")

num_classes = 10
# cell 8
def create_loader(source, batch_size, shuffle=True, seed=42):
    sampler = grain.IndexSampler(
        num_records=len(source),
        num_epochs=1,
        shard_options=grain.NoSharding(),
        shuffle=shuffle,
        seed=seed
    )
    
    loader = grain.DataLoader(
        data_source=source,
        sampler=sampler,
        worker_count=0, # Sync execution
    )

    # Convert record dictionaries to tuples for multi-assignment
    class BatchIterator:
        def __init__(self, loader, batch_size, num_records):
            self.loader = loader
            self.batch_size = batch_size
            self.num_records = num_records
        
        def __len__(self):
            return (self.num_records + self.batch_size - 1) // self.batch_size

        def __iter__(self):
            batch_images = []
            batch_labels = []
            for record in self.loader:
                batch_images.append(record['image'])
                batch_labels.append(record['label'])
                if len(batch_images) == self.batch_size:
                    yield np.stack(batch_images), np.array(batch_labels)
                    batch_images = []
                    batch_labels = []
            if batch_images:
                 yield np.stack(batch_images), np.array(batch_labels)
    
    return BatchIterator(loader, batch_size, len(source))

train_loader = create_loader(train_source, BATCH_SIZE, shuffle=True, seed=SEED)
test_loader = create_loader(test_source, BATCH_SIZE, shuffle=False)

# Peek the batched data
for ib, (X_batch, y_batch) in enumerate(train_loader):
    print(f"[{ib}] Shape of X [N, C, H, W]: {X_batch.shape}")
    print(f"[{ib}] Shape of y: {y_batch.shape}, {y_batch.dtype}")
# cell 12
class ConvNet(nnx.Module):
    def __init__(self, c_in, n_classes, rngs: nnx.Rngs):
        self.conv1 = nnx.Conv(c_in, 32, kernel_size=(3, 3), padding='SAME', rngs=rngs)
        self.conv2 = nnx.Conv(32, 64, kernel_size=(3, 3), padding='SAME', rngs=rngs)
        self.avg_pool = lambda x: jnp.mean(x, axis=(1, 2)) # Global Average Pooling
        self.linear = nnx.Linear(64, n_classes, rngs=rngs)
        
    def __call__(self, x):
        x = nnx.relu(self.conv1(x))
        x = nnx.max_pool(x, window_shape=(2, 2), strides=(2, 2))
        x = nnx.relu(self.conv2(x))
        x = nnx.max_pool(x, window_shape=(2, 2), strides=(2, 2))
        x = self.avg_pool(x)
        x = self.linear(x)
        return x

rngs = nnx.Rngs(SEED)
model = ConvNet(1, num_classes, rngs=rngs)
nnx.display(model)
# cell 14
optimizer = nnx.Optimizer(model, optax.adam(LEARNING_RATE), wrt=nnx.Param)
metrics = nnx.MultiMetric(
    accuracy=nnx.metrics.Accuracy(),
    loss=nnx.metrics.Average(),
)

history = {'train_loss': [], 'train_acc': [], 'test_loss': [], 'test_acc': []}

checkpoint_dir = f"{MODEL_DIR}/conv2d_v2"

# create checkpoint directory if not exists
if not os.path.exists(checkpoint_dir):
    os.makedirs(checkpoint_dir)

for epoch in range(EPOCHS):
    # Reset metrics for each epoch
    metrics.reset()
    
    # Train
    train_loss, train_time = tu.train(model, train_loader, optimizer, metrics)
    train_results = metrics.compute()
    history['train_loss'].append(train_results['loss'])
    history['train_acc'].append(train_results['accuracy'])
    
    # Evaluate
    metrics.reset()
    tu.evaluate(model, test_loader, metrics)
    test_results = metrics.compute()
    history['test_loss'].append(test_results['loss'])
    history['test_acc'].append(test_results['accuracy'])
    
    print(f"[Epoch {epoch+1}/{EPOCHS}] Train Acc: {train_results['accuracy']:.4f}, Test Acc: {test_results['accuracy']:.4f}")
    save_checkpoint(model, epoch + 1, filedir=f"{checkpoint_dir}")

_report({"jit(train_step)", "jit(eval_step)"}, EPOCHS * (2 + 2))  # scaffolding: per epoch 2 train batches (128, 96) and 2 test batches (128, 16)
