# source: https://github.com/xiaji888/jax.flax.optax.cifar10/blob/8c4b5940beb0102a2b97f8e7d7127b485620aad9/jax.flax.optax.cifar10/33..py
# expect: shape-churn at line 107
# runtime: COMPILES 2 CALLS 9
# why: CIFAR10.get_batches slices range(0, len(data), batch_size) without dropping the remainder, so each epoch ends with a short batch (50000 % 128 = 80 rows) and the jitted train_step is compiled a second time for it.

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
import jax.numpy as jnp
import flax.nnx as nn
from flax import nnx
import optax
import numpy as np
import pickle
import os

# scaffolding: the script reads CIFAR-10 pickles from `path`/`files`, which it never defines; write a
# small stand-in batch file (336 = 2*128 + 80 rows, the same remainder as 50000 % 128 = 80)
import tempfile  # scaffolding
path = tempfile.mkdtemp()  # scaffolding
files = ["data_batch_1"]  # scaffolding
with open(os.path.join(path, files[0]), "wb") as _f:  # scaffolding
    _r = np.random.default_rng(0)
    pickle.dump({"data": _r.integers(0, 256, size=(336, 3072), dtype=np.uint8),
                 "labels": [int(v) for v in _r.integers(0, 10, size=336)]}, _f)

class CIFAR10:
    def __init__(self, train):
        self.data, self.labels = self.load_data(train)
    
    def load_data(self, train):      
        data, labels = [], []
        for f in files:
            with open(os.path.join(path, f), 'rb') as file:
                batch = pickle.load(file, encoding='latin1')
                data.append(batch['data'])
                labels.extend(batch['labels'])
        
        data = np.vstack(data).reshape(-1, 32, 32, 3) / 255.0
        return data, np.array(labels)
    
    def get_batches(self, batch_size=128):
        indices = np.random.permutation(len(self.data))
        for i in range(0, len(self.data), batch_size):
            batch_indices = indices[i:i+batch_size]
            yield {
                'image': jnp.array(self.data[batch_indices]),
                'label': jnp.array(self.labels[batch_indices])
            }
            
class CNN(nn.Module):
    def __init__(self):
        # scaffolding: the script's nn.Conv(32, (3, 3)) / nn.Conv(64, (3, 3)) / nn.Linear(10) omit
        # in_features and rngs and cannot be built with flax.nnx; same layers with the missing arguments
        _rngs = nnx.Rngs(0)
        self.conv1 = nn.Conv(3, 32, (3, 3), rngs=_rngs)
        self.conv2 = nn.Conv(32, 64, (3, 3), rngs=_rngs)
        self.linear = nn.Linear(64, 10, rngs=_rngs)
    
    def __call__(self, x):
        x = jax.nn.relu(self.conv1(x))
        x = jax.nn.relu(self.conv2(x))
        x = jnp.mean(x, axis=(1, 2))
        return self.linear(x)
model = CNN()
graphdef, params = nnx.split(model)
tx = optax.adam(0.001)
opt_state = tx.init(params)

@jax.jit
def train_step(params, opt_state, batch):
    def loss_fn(params):
        model = nnx.merge(graphdef, params)
        logits = model(batch['image'])
        return optax.softmax_cross_entropy_with_integer_labels(logits, batch['label']).mean()
    
    loss, grads = jax.value_and_grad(loss_fn)(params)
    updates, opt_state = tx.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss
train = True
dataset = CIFAR10(train)
_calls = 0  # scaffolding
for epoch in range(3):  # scaffolding: 10 epochs in the script
    total_loss, count = 0, 0
    for batch in dataset.get_batches(128):
        params, opt_state, loss = train_step(params, opt_state, batch)
        _calls += 1  # scaffolding
        total_loss += loss
        count += 1
    print(f'Epoch {epoch+1}, Loss: {total_loss/count:.4f}')
_report({"jit(train_step)"}, _calls)  # scaffolding
