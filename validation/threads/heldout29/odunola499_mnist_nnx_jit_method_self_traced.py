# source: https://github.com/odunola499/learning-jax/blob/deb964e8a1a76d83c29542e7044759d6e44cdd8b/mnist/train.py
# expect: trace-time-error at line 142
# runtime: ERROR TypeError
# why: train_step is a method decorated with @nnx.jit, so self (a plain Python Module holding loaders and the model) is passed as a traced argument and nnx.jit raises TypeError ('problematic value is of type Module ... at path self') on the first batch.
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
# ---- mnist/dataset.py ----
import numpy as np
# from datasets import load_dataset  # scaffolding: ylecun/mnist needs a download; a small stand-in below
from torch.utils.data import Dataset, DataLoader

class Data(Dataset):
    def __init__(self, data):
        self.data = data
    def __len__(self):
        return len(self.data)
    def __getitem__(self, idx):
        row = self.data[idx]
        image = np.array(row['image']).astype(np.float32) / 255
        label = np.array(row['label'])
        return {
            'image': image,
            'label': label
        }

def collate_fn(batch):
    images = [item['image'] for item in batch]
    labels = [item['label'] for item in batch]
    images = np.stack(images)
    images = images[...,None]
    labels = np.stack(labels)
    return {'image': images, 'label': labels}


def load_dataset(name, split):  # scaffolding: stand-in for datasets.load_dataset('ylecun/mnist'): rows of a 28x28 uint8 image and an int label
    rng = np.random.default_rng(0 if split == 'train' else 1)  # scaffolding
    n = 32 if split == 'train' else 16  # scaffolding: 60000/10000 rows cut to 32/16 (divisible by the batch of 8)
    return [{'image': rng.integers(0, 256, (28, 28), dtype=np.uint8), 'label': int(rng.integers(0, 10))} for _ in range(n)]  # scaffolding


def get_loaders(batch = 2):
    train_dataset = load_dataset('ylecun/mnist', split='train')
    valid_dataset = load_dataset('ylecun/mnist', split = 'test')
    train_dataset = Data(train_dataset)
    valid_dataset = Data(valid_dataset)
    train_dataloader = DataLoader(train_dataset, batch_size=batch, shuffle=True, collate_fn=collate_fn)
    valid_dataloader = DataLoader(valid_dataset, batch_size=batch, shuffle=False, collate_fn=collate_fn)
    return train_dataloader, valid_dataloader


# ---- mnist/model.py ----
from flax import nnx
from functools import partial
from jax import numpy as jnp

class CNN(nnx.Module):
    def __init__(self, *, rngs:nnx.Rngs):
        self.conv1 = nnx.Conv(1, 32, kernel_size = (3,3), rngs = rngs)
        self.conv2 = nnx.Conv(32, 64, kernel_size = (3,3), rngs = rngs)
        self.avg_pool = partial(nnx.avg_pool, window_shape = (2,2), strides = (2,2))
        self.linear1 = nnx.Linear(3136, 256, rngs = rngs)
        self.linear2 = nnx.Linear(256, 10, rngs = rngs)

    def __call__(self,x):
        x = self.avg_pool(nnx.relu(self.conv1(x)))
        x = self.avg_pool(nnx.relu(self.conv2(x)))
        x = x.reshape((x.shape[0], -1))
        x = nnx.relu(self.linear1(x))
        x = self.linear2(x)
        return x


# ---- mnist/train.py ----
import optax
from flax import nnx
# from model import CNN  # scaffolding: model.py is inlined above
# from dataset import get_loaders  # scaffolding: dataset.py is inlined above
from tqdm.auto import tqdm

config = {
    'lr':0.005,
    'momentum':0.9
}
class Module:
    def __init__(self):
        self.valid_loader = None
        self.train_loader = None
        self.model = None
        self.optimizer = None
        self.metrics = None
        self.configure_model()
        self.configure_optimizers()
        self.configure_metrics()

    def configure_model(self):
        self.model = CNN(rngs = nnx.Rngs(0))

    def retrieve_loaders(self):
        train_loader, valid_loader = get_loaders(8)
        self.train_loader = train_loader
        self.valid_loader = valid_loader

    def configure_metrics(self):
        metrics = nnx.MultiMetric(
            accuracy = nnx.metrics.Accuracy(),
            loss = nnx.metrics.Average('loss')
        )
        self.metrics = metrics

    def configure_optimizers(self):
        learning_rate = config['lr']
        momentum = config['momentum']
        optimizer = nnx.Optimizer(self.model, optax.adamw(learning_rate, momentum), wrt=nnx.Param)  # scaffolding: wrt= is required since flax 0.11 (TypeError without it)
        self.optimizer = optimizer

    def loss_fn(self, model:CNN, batch):
        logits = model(batch['image'])
        loss = optax.softmax_cross_entropy_with_integer_labels(
            logits = logits,
            labels = batch['label']
        ).mean()
        return loss, logits

    @nnx.jit
    def train_step(self, model:CNN, batch, optimizer:nnx.Optimizer, metrics: nnx.MultiMetric):
        grad_fn = nnx.value_and_grad(self.loss_fn, has_aux = True)
        (loss, logits), grads =  grad_fn(model, batch)
        metrics.update(loss = loss, logits = logits, labels = batch['label'])
        optimizer.update(grads)

    @nnx.jit
    def eval_step(self, model:CNN, batch, metrics: nnx.MultiMetric):
        loss, logits = self.loss_fn(model, batch)
        metrics.update(loss = loss, logits = logits, labels = batch['label'])

    def run_single_epoch(self):
        eval_every = 10
        metrics_history = {
            'train_loss': [],
            'train_accuracy': [],
            'val_loss': [],
            'val_accuracy': []
        }
        for step, batch in enumerate(tqdm(self.train_loader)):
            self.train_step(
                model = self.model,
                batch = batch,
                optimizer = self.optimizer,
                metrics = self.metrics
            )


        for step, batch in enumerate(tqdm(self.valid_loader)):
            self.eval_step(
                model = self.model,
                batch = batch,
                metrics = self.metrics
            )




module = Module()  # scaffolding: train.py defines Module but never runs it; one epoch as its methods intend
module.retrieve_loaders()  # scaffolding
try:  # scaffolding
    module.run_single_epoch()  # scaffolding
    _report({"jit(train_step)", "jit(eval_step)"}, 6)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
