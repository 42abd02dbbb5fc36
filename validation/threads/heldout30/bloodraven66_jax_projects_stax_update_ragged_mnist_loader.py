# source: https://github.com/bloodraven66/jax_projects/blob/b63c52b2d4feae5211f9ee284248e2652eb723f2/jax_intro.ipynb
# expect: shape-churn at line 114
# runtime: COMPILES 2 CALLS 15
# why: train_loader batches MNIST by 256 without drop_last, so every epoch ends with a 96-row batch (60000 = 234 * 256 + 96) and the jitted stax update compiles a second time for that shape.
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
import torch
from torch.utils.data import DataLoader
# from torchvision.datasets import MNIST  # scaffolding: MNIST needs a download; a marked stand-in Dataset below
from torchvision import transforms
from tqdm import tqdm  # scaffolding: tqdm_notebook needs ipywidgets, plain tqdm instead
from jax.example_libraries import stax, optimizers  # scaffolding: moved from jax.experimental
from jax import random, grad, jit, vmap, value_and_grad
import numpy as np
from jax.example_libraries.stax import Conv, Dense, Flatten, Relu, LogSoftmax  # scaffolding: moved from jax.experimental.stax
import warnings
import time
# import matplotlib.pyplot as plt  # scaffolding: not installed and unused in the cells kept
warnings.filterwarnings('ignore')
from PIL import Image  # scaffolding


class MNIST(torch.utils.data.Dataset):  # scaffolding: stand-in for torchvision's MNIST (download needed): random 28x28 PIL images through the real transform; 608 train rows = 2 * 256 + 96, as 60000 = 234 * 256 + 96; 300 test rows
    def __init__(self, root, train=True, download=False, transform=None):  # scaffolding
        rs = np.random.RandomState(0 if train else 1)  # scaffolding
        n = 608 if train else 300  # scaffolding
        self.data = rs.randint(0, 256, (n, 28, 28)).astype(np.uint8)  # scaffolding
        self.targets = rs.randint(0, 10, n)  # scaffolding
        self.transform = transform  # scaffolding
    def __len__(self):  # scaffolding
        return len(self.data)  # scaffolding
    def __getitem__(self, i):  # scaffolding
        img = Image.fromarray(self.data[i], mode="L")  # scaffolding
        return (self.transform(img) if self.transform else img), int(self.targets[i])  # scaffolding
# cell 2
class Args():
    def __init__(self):
        self.bs = 256
        self.no_classes = 10
        self.key = random.PRNGKey(1)
        self.no_epochs = 5
        self.lr = 0.0001
args = Args()
# cell 3
tsfm = transforms.Compose([transforms.ToTensor(), transforms.Normalize((0.1307,), (0.3081,))])
train_dataset = MNIST('/tmp/', train=True, download=True, transform=tsfm)
test_dataset = MNIST('/tmp/', train=False, download=True, transform=tsfm)

train_loader = DataLoader(train_dataset, batch_size=args.bs, shuffle=True, collate_fn=None)
test_loader = DataLoader(test_dataset, batch_size=args.bs, shuffle=True, collate_fn=None)

init_fun, model = stax.serial(Conv(4, (3, 3), (2, 2), padding="SAME"), Relu,
                                 Conv(8, (3, 3), (2, 2), padding="SAME"), Relu,
                                 Flatten, Dense(args.no_classes),
                                 LogSoftmax)

_, params = init_fun(args.key, (args.bs, 1, 28, 28))
# cell 4
@jit
def update(params, data, target, opt_state):
    value, grads = value_and_grad(loss)(params, data, target)
    opt_state = opt_update(0, grads, opt_state)
    return get_params(opt_state), opt_state, value

def one_hot(x, k, dtype=np.float32):
    return np.array(x[:, None] == np.arange(k), dtype)

def accuracy(params, loader, bar=False):
    correct_count = 0
    for data, target in tqdm(loader, disable=bar, desc='Evaluating'):
        target = one_hot(np.array(target), args.no_classes)
        target_class = np.argmax(target, axis=1)
        pred_class = np.argmax(model(params, np.array(data)), axis=1)
        correct_count += np.sum(pred_class == target_class)
    return correct_count/len(loader.dataset)

def loss(params, images, targets):
    preds = model(params, images)
    return -np.sum(preds * targets)

def train(opt_state, epochs=10):

    metrics = {'train':[], 'test':[], 'loss':[]}
    params = get_params(opt_state)
    # metrics['train'].append(round(accuracy(params, train_loader), 2))
    # metrics['test'].append(round(accuracy(params, test_loader), 2))
    start = time.time()
    for epoch in tqdm(range(epochs), desc='Training'):
        for data, target in train_loader:
            target = one_hot(np.array(target), args.no_classes)
            _calls.append(1)  # scaffolding
            params, opt_state, loss = update(params, np.array(data), target, opt_state)
            metrics['loss'].append(loss)
        # metrics['train'].append(round(accuracy(params, train_loader, bar=True), 2))
    end = time.time() - start
    metrics['test'].append(round(accuracy(params, test_loader, bar=True), 2))
    return metrics, end
_calls = []  # scaffolding
args.lr = 0.005
opt_init, opt_update, get_params = optimizers.adam(args.lr)
opt_state = opt_init(params)

metrics, end = train(opt_state, epochs=5)
# plot_accuracy(metrics)
print("Max test accuracy: {}".format(max(metrics['test'])))
print("Total time elapsed: {}".format(end))

print(sorted(set(_COMPILED)), file=__import__("sys").stderr)  # scaffolding
_report({"jit(update)"}, len(_calls))  # scaffolding
