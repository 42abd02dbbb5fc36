# source: https://github.com/ghif/dl-jax101/blob/13740c2dcf6813f351c62ceb21bfbfd589b9e85e/5-generative/1-ae.py
# expect: shape-churn at line 280
# runtime: COMPILES 2 CALLS 2
# why: the module-level @nnx.jit train_step is fed by the script's BatchIterator, which also yields the short last batch (60000 % 128 = 96 MNIST rows), so train_step compiles once for 128-row and again for 96-row batches every run (2 compiles for 2 calls here).
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


# ---- scaffolding: stand-ins for packages that are not installed (grain, sklearn, skimage, matplotlib, safetensors) and the repo's checkpoint helper ----
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


def _save_checkpoint(model, epoch, filedir):  # scaffolding: model_utils.save_checkpoint writes safetensors (not installed); no-op
    pass  # scaffolding


mu = types.SimpleNamespace(save_checkpoint=_save_checkpoint)  # scaffolding: model_utils stand-in (only save_checkpoint is used)


def random_noise(image, mode='gaussian', rng=None):  # scaffolding: skimage.util.random_noise (not installed), gaussian mode: add N(0, 0.01) noise and clip to [0, 1]
    out = image + _np.random.default_rng(rng).normal(0.0, 0.1, image.shape)  # scaffolding
    return _np.clip(out, 0.0, 1.0)  # scaffolding


# ---- 5-generative/1-ae.py ----
import jax
import jax.numpy as jnp
from flax import nnx
# import matplotlib.pyplot as plt  # scaffolding: not installed; the plotting lines are cut
import sys, os
import numpy as np
import time as timer
from tqdm import tqdm
# import grain.python as grain  # scaffolding: stood in above
# from sklearn.datasets import fetch_openml  # scaffolding: stood in above
# from skimage.util import random_noise  # scaffolding: stood in above
import optax

# Add parent directory to path to import utils
# sys.path.append(os.path.abspath(os.path.join(os.getcwd(), os.pardir)))  # scaffolding
# import viz_utils as vu  # scaffolding: plotting helpers, their calls are cut
# import model_utils as mu  # scaffolding: stood in above

# Define constants
MODEL_DIR = "../models"
MODEL_DIR = "/tmp/h28_pages_models"  # scaffolding: scratch folder

BATCH_SIZE = 128
NUM_EPOCH = 1
IS_DENOISING = True # True: Denoising Autoencoder, False: Standard Autoencoder
NOISE_TYPE = "gaussian" # {"gaussian", "salt"}
NVIZ = 64
nrow = np.floor(np.sqrt(NVIZ)).astype(int)

DATASET = "mnist"
mname = "ae" if not IS_DENOISING else f"dae_{NOISE_TYPE}"

checkpoint_dir = os.path.join(MODEL_DIR, f"{mname}_{DATASET}")
if not os.path.exists(checkpoint_dir):
    os.makedirs(checkpoint_dir)
    print(f'The new directory {checkpoint_dir} has been created')

# Load MNIST using scikit-learn
print("Loading MNIST via OpenML (may take a minute)...")
mnist = fetch_openml('mnist_784', version=1, as_frame=False, parser='liac-arff')
X_all, y_all = mnist.data, mnist.target.astype(np.int32)

# Split into train and test (60k / 10k)
X_train_all, X_test_all = X_all[:60000], X_all[60000:]
y_train_all, y_test_all = y_all[:60000], y_all[60000:]
X_train_all, X_test_all = X_all[:224], X_all[224:]  # scaffolding: the stand-in data has 224 + 144 rows (224 % 128 = 96 like 60000 % 128)
y_train_all, y_test_all = y_all[:224], y_all[224:]  # scaffolding

class MNISTSource(grain.RandomAccessDataSource):
    def __init__(self, images, labels):
        self._images = images
        self._labels = labels
        
    def __len__(self):
        return len(self._images)
        
    def __getitem__(self, index):
        # MNIST in OpenML is flattened (784,)
        # Reshape to (1, 28, 28) and normalize to [-1, 1]
        image = (self._images[index].reshape(1, 28, 28).astype(np.float32) / 255.0) * 2.0 - 1.0
        label = self._labels[index]
        return {'image': image, 'label': label}

train_source = MNISTSource(X_train_all, y_train_all)
test_source = MNISTSource(X_test_all, y_test_all)

def create_loader(data_source, batch_size, shuffle=False, seed=0):
    sampler = grain.IndexSampler(
        num_records=len(data_source),
        shard_options=grain.NoSharding(),
        shuffle=shuffle,
        num_epochs=1,
        seed=seed,
    )
    dataloader = grain.DataLoader(
        data_source=data_source,
        sampler=sampler,
        worker_count=0,
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
    
    return BatchIterator(dataloader, batch_size, len(data_source))

train_loader = create_loader(train_source, BATCH_SIZE, shuffle=True, seed=42)
test_loader = create_loader(test_source, BATCH_SIZE, shuffle=False, seed=42)

# Noise generator using skimage
def add_noise(x, noise_type="gaussian", seed=None):
    # x is in range [-1, 1], convert to [0, 1] for skimage
    x_01 = (x + 1.0) / 2.0
    
    # Map noise types
    mode = 'gaussian' if noise_type == 'gaussian' else 's&p' if noise_type == 'salt' else noise_type
    
    # Apply noise via skimage (operates on numpy arrays)
    x_noisy_01 = random_noise(np.array(x_01), mode=mode, rng=seed)
    
    # Convert back to [-1, 1]
    return jnp.array(x_noisy_01 * 2.0 - 1.0, dtype=jnp.float32)

# Define model architecture (NNX)
class Autoencoder(nnx.Module):
    def __init__(self, input_size, hidden_size, rngs: nnx.Rngs):
        self.encoder = nnx.Sequential(
            nnx.Linear(input_size, hidden_size, rngs=rngs),
            nnx.tanh,
        )
        self.decoder = nnx.Sequential(
            nnx.Linear(hidden_size, input_size, rngs=rngs),
            nnx.tanh,
        )

    def __call__(self, x):
        z = self.encoder(x)
        y = self.decoder(z)
        return y

# Set training configuration
input_size = 28 * 28
hidden_size = 128
rngs = nnx.Rngs(0)
model = Autoencoder(input_size, hidden_size, rngs=rngs)

optimizer = nnx.Optimizer(model, optax.adam(3e-4), wrt=nnx.Param)
metrics = nnx.MultiMetric(
    loss=nnx.metrics.Average('loss'),
)

@nnx.jit
def train_step(model, optimizer, metrics, x, xn):
    def loss_fn(model):
        xr = model(xn)
        loss = jnp.mean((xr - x)**2) # MSE Loss
        return loss
    
    loss, grads = nnx.value_and_grad(loss_fn)(model)
    optimizer.update(model, grads)
    metrics.update(loss=loss)
    return loss

def get_fixed_samples(loader, n_viz):
    imgs, labels = [], []
    count = 0
    for batch_X, batch_y in loader:
        x, y = batch_X, batch_y
        imgs.append(x)
        labels.append(y)
        count += x.shape[0]
        if count >= n_viz: break
    return jnp.concatenate(imgs, axis=0)[:n_viz], jnp.concatenate(labels, axis=0)[:n_viz]

fixed_in_imgs, fixed_labels = get_fixed_samples(test_loader, NVIZ)

# Save real samples
# grid_real = vu.set_grid(fixed_in_imgs, num_cells=NVIZ)  # scaffolding: plotting cut
# plt.figure(figsize=(10, 10))  # scaffolding: plotting cut
# plt.imshow(np.transpose(np.array(vu.normalize(grid_real, 0, 1)), (1, 2, 0)), cmap='gray')  # scaffolding: plotting cut
# plt.axis('off')  # scaffolding: plotting cut
# plt.savefig(os.path.join(checkpoint_dir, 'real_samples.jpg'), bbox_inches='tight')  # scaffolding: plotting cut
# plt.close()  # scaffolding: plotting cut

# Train model
for epoch in range(NUM_EPOCH):
    start_t = timer.time()
    metrics.reset()
    
    with tqdm(train_loader, unit="batch") as tepoch:
        for batch_idx, (X, y) in enumerate(tepoch):
            # X is (B, 1, 28, 28)
            X_flat = X.reshape(X.shape[0], -1)
            
            if IS_DENOISING:
                # Use batch_idx as seed for noise reproducibility if needed
                noise_seed = epoch * 10000 + batch_idx
                Xn = add_noise(X, noise_type=NOISE_TYPE, seed=noise_seed)
                Xn_flat = Xn.reshape(Xn.shape[0], -1)
            else:
                Xn_flat = X_flat
            
            train_step(model, optimizer, metrics, jnp.array(X_flat), jnp.array(Xn_flat))
            
            if batch_idx % 100 == 0:
                tepoch.set_postfix(loss=metrics.compute()['loss'])

    elapsed_t = timer.time() - start_t
    epoch_loss = metrics.compute()['loss']
    print(f'Epoch [{epoch+1}/{NUM_EPOCH}], loss: {epoch_loss:.4f}, elapsed_t: {elapsed_t: 0.2f} secs')

    # Save model
    mu.save_checkpoint(model, epoch + 1, filedir=checkpoint_dir)
    
    # Visualization
    fixed_in_flatten = fixed_in_imgs.reshape(fixed_in_imgs.shape[0], -1)
    rec_imgs_flat = model(fixed_in_flatten)
    rec_imgs = rec_imgs_flat.reshape(-1, 1, 28, 28)
    
    # grid_rec = vu.set_grid(rec_imgs, num_cells=NVIZ)  # scaffolding: plotting cut
    # plt.figure(figsize=(10, 10))  # scaffolding: plotting cut
    # plt.imshow(np.transpose(np.array(vu.normalize(grid_rec, 0, 1)), (1, 2, 0)), cmap='gray')  # scaffolding: plotting cut
    # plt.axis('off')  # scaffolding: plotting cut
    # plt.savefig(os.path.join(checkpoint_dir, f'reconstructed_samples_{epoch}.jpg'), bbox_inches='tight')  # scaffolding: plotting cut
    # plt.close()  # scaffolding: plotting cut

    if IS_DENOISING:
        # Static noise for visualization
        fixed_in_n = add_noise(fixed_in_imgs, noise_type=NOISE_TYPE, seed=42)
        
        # grid_noisy = vu.set_grid(fixed_in_n, num_cells=NVIZ)  # scaffolding: plotting cut
        # plt.figure(figsize=(10, 10))  # scaffolding: plotting cut
        # plt.imshow(np.transpose(np.array(vu.normalize(grid_noisy, 0, 1)), (1, 2, 0)), cmap='gray')  # scaffolding: plotting cut
        # plt.axis('off')  # scaffolding: plotting cut
        # plt.savefig(os.path.join(checkpoint_dir, 'noisy_samples.jpg'), bbox_inches='tight')  # scaffolding: plotting cut
        # plt.close()  # scaffolding: plotting cut

    # t-SNE
    Z = model.encoder(fixed_in_flatten)
    tsne_path = os.path.join(checkpoint_dir, f"tsne_{epoch}.jpg")
    # vu.plot_features_tsne(np.array(Z), np.array(fixed_labels), tsne_path)  # scaffolding: plotting cut

print("Training finished!")

_report({"jit(train_step)"}, NUM_EPOCH * 2)  # scaffolding: one epoch of 2 batches (128 and 96)
