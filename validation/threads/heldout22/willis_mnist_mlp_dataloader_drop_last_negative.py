# source: https://github.com/Willis1118/JAX_learning/blob/d14708572b831476c3050e3e3831a371c83c937b/MNIST/train.py
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: both DataLoaders use drop_last=True, so every batch passed to the jitted update has shape (128, 784) and it compiles once.
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
import sys, types  # scaffolding
import numpy as np  # scaffolding
import jax  # scaffolding
jax.tree_map = jax.tree.map  # scaffolding: jax.tree_map was removed from jax


class DataLoader:  # scaffolding: stand-in for torch.utils.data.DataLoader (torch not installed)
    def __init__(self, dataset, batch_size=1, shuffle=False, collate_fn=None, drop_last=False):  # scaffolding
        self.dataset, self.batch_size, self.collate_fn, self.drop_last = dataset, batch_size, collate_fn, drop_last  # scaffolding

    def __len__(self):  # scaffolding
        n = len(self.dataset) // self.batch_size  # scaffolding
        return n if self.drop_last or len(self.dataset) % self.batch_size == 0 else n + 1  # scaffolding

    def __iter__(self):  # scaffolding
        for i in range(len(self)):  # scaffolding
            yield self.collate_fn(self.dataset[i * self.batch_size:(i + 1) * self.batch_size])  # scaffolding


class MNIST:  # scaffolding: random stand-in for torchvision MNIST (300 train / 150 test images)
    classes = [str(i) for i in range(10)]  # scaffolding

    def __new__(cls, root, train, download, transform):  # scaffolding
        r = np.random.default_rng(0 if train else 1)  # scaffolding
        return [(transform(r.integers(0, 256, (28, 28)).astype(np.uint8)), int(r.integers(10))) for _ in range(300 if train else 150)]  # scaffolding


sys.modules["torch"] = types.ModuleType("torch")  # scaffolding
sys.modules["torch.utils"] = types.ModuleType("torch.utils")  # scaffolding
sys.modules["torch.utils.data"] = types.SimpleNamespace(DataLoader=DataLoader)  # scaffolding
sys.modules["torchvision"] = types.ModuleType("torchvision")  # scaffolding
sys.modules["torchvision.datasets"] = types.SimpleNamespace(MNIST=MNIST)  # scaffolding
# --- MNIST/model.py (same repo) as written ---
'''
    Stateless nature of JAX enables us to keep track of the MLP as pure weights
'''
import numpy as np
import jax
import jax.numpy as jnp
from jax.scipy.special import logsumexp

def init_MLP(layer_widths: list, par_key, scale=0.001): 
    '''
        Initialize MLP weight on normal distribution
        Input: 
            layer_widths width of each layer
            key: random key
            scale: to scale down the std
        Output: initialized weights
    '''
    params = []

    keys = jax.random.split(par_key, num=len(layer_widths)-1)

    for in_width, out_width, key in zip(layer_widths[:-1], layer_widths[1:], keys): # --> crossing the in & out
        weight_key, bias_key = jax.random.split(key)

        params.append(
           [scale* jax.random.normal(weight_key, (out_width, in_width)),
            scale* jax.random.normal(bias_key, (out_width,))]
        )

    print(jax.tree_map(
        lambda x: x.shape,
        params
    ))

    return params

seed = 0

key = jax.random.PRNGKey(seed)
MLP_params = init_MLP([784, 512, 256, 10], key)

def MLP_predict(params: list, x: np.ndarray):
    '''
        forward run of MLP
        input:
            params: parameter of the MLP
            x: data
        output:
            forward result
    '''
    hidden_layer, last_layer = params[:-1], params[-1]

    for w, b in hidden_layer:
        x = jax.nn.relu(jnp.dot(w, x) + b)
    
    logits = jnp.dot(last_layer[0], x) + last_layer[1]

    # log(exp(o1) / sum(exp(o1), exp(o2),...))
    # a softmax probability
    return logits - logsumexp(logits)

def forward(params, x):
    return jax.vmap(MLP_predict, in_axes=(None, 0))(params, x)

def criterion(params: list, imgs: np.ndarray, labels: np.ndarray):
    pred = forward(params, imgs)

    return -jnp.mean(pred * labels) # --> with one hot representation, this will produce the log softmax for the ground truth label

@jax.jit
def update(params, imgs, labels, lr):
    loss, grads = jax.value_and_grad(criterion)(params, imgs, labels)

    # SGD update
    return loss, jax.tree_map(
        lambda p, g: p - lr*g,
        params, 
        grads
    )

def accuracy(params, loader):

    corr = 0
    for img, label in loader:
        pred = jnp.argmax(forward(params, img), axis=1) # yield 
        corr += np.sum(pred == label)

    return corr / (len(loader) * 128)

# dummy = np.random.randn(784)
# pred = MLP_predict(MLP_params, dummy)
# print('single data pred', pred, pred.shape)

# batched_MLP_pred = jax.vmap(MLP_predict, in_axes=(None, 0))
# batch_dummy = np.random.randn(16, 784)
# pred = batched_MLP_pred(MLP_params, batch_dummy)
# print('batched data pred', pred, pred.shape)

sys.modules["model"] = types.SimpleNamespace(init_MLP=init_MLP, update=update, accuracy=accuracy)  # scaffolding
# --- MNIST/train.py as written ---
import numpy as np
import jax

from torch.utils.data import DataLoader
from torchvision.datasets import MNIST

from model import init_MLP, update, accuracy

def to_flatten_nparr(x):
    '''
        transform PILImage to nparray
    '''
    return np.ravel(np.array(x, dtype=np.float32))

def collate_fn(data):
    '''
        input: data -> [(image, label)] * batch_size
    '''

    # will turn [(image, lable)] --> ([images], [labels])
    # zip ((,),(,),(,)...) will take the first and second element in every tuple and zip into a tuple of two lists
    transposed_data = list(zip(*data))

    images, labels = np.stack(transposed_data[0]), np.array(transposed_data[1])

    return images, labels

batch_size = 128
train_dataset = MNIST(root='train_mnist', train=True, download=True, transform=to_flatten_nparr)
test_dataset = MNIST(root='test_mnist', train=False, download=True, transform=to_flatten_nparr)

train_loader = DataLoader(
    train_dataset,
    batch_size=batch_size,
    shuffle=True,
    collate_fn=collate_fn,
    drop_last=True # --> drop the last 
)

test_loader = DataLoader(
    test_dataset,
    batch_size=batch_size,
    shuffle=False,
    collate_fn=collate_fn,
    drop_last=True
)

img, label = next(iter(train_loader))

assert img.shape == (128, 784)
assert label.shape == (128,)

seed = 42
key = jax.random.PRNGKey(seed)
image_size = [28, 28]
MLP_params = init_MLP([np.prod(image_size), 512, 256, len(MNIST.classes)], key)
lr = 1e-2

epochs = 2  # scaffolding (was 20)
train_steps = 0
log_every = 100

avg_loss = 0
avg_acc = 0

for epoch in range(epochs):
    avg_loss = 0

    for imgs, labels in train_loader:
        gt_labels = jax.nn.one_hot(labels, len(MNIST.classes))
        loss, MLP_params = update(MLP_params, imgs, gt_labels, lr)

        avg_loss += loss

        if train_steps % log_every == 0 and train_steps > 0:
            print(f"Epoch: {epoch}, Steps: {train_steps}, Loss: {loss:4f}")
        
        train_steps += 1
    
    print(f"Epoch: {epoch}, Avg Loss: {(avg_loss / len(train_loader)):4f}, Train Acc: {accuracy(MLP_params, train_loader):4f}, Test Acc: {accuracy(MLP_params, test_loader):4f}")
_report({"jit(update)"}, 4)  # scaffolding
