# source: https://github.com/OsaRobots/lbd/blob/e186bbe81fec66cc81b22e523f8062df394fe239/src/models/main_mlp.py
# expect: none
# runtime: COMPILES 1 CALLS 6
# why: MLPModel.__call__ defines an @nnx.scan-decorated forward inside the method body and create_models is an @nnx.vmap method, which look like transforms rebuilt on every call, but they only run inside the @nnx.jit train_step, which sees fixed drop_remainder batches and compiles once.

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
from flax import nnx
import jax
import jax.numpy as jnp
from typing import Callable
import optax 

# TODO add param for dropout rate
class MLP(nnx.Module):
    def __init__(self, 
                 hidden_dims, 
                 rngs: nnx.Rngs, 
                 activation: Callable = nnx.relu):
      
      self.mlp = nnx.Sequential(
         nnx.Linear(hidden_dims, hidden_dims, rngs=rngs),
         activation,
         nnx.Dropout(rate=.1, rngs=rngs),
         nnx.Linear(hidden_dims, hidden_dims, rngs=rngs),
         nnx.Dropout(rate=.1, rngs=rngs)
      )

    def __call__(self, x):
        x = self.mlp(x)
        return x

class MLPModel(nnx.Module):
    def __init__(self, 
                 in_dims, 
                 hidden_dims, 
                 out_dims, 
                 num_mlps, 
                 rngs: nnx.Rngs, 
                 activation: Callable = nnx.relu):
        
        self.hidden_dims = hidden_dims
        self.initial_linear = nnx.Linear(in_dims, hidden_dims, rngs=rngs)
        self.activation = activation 
        self.out_layer = nnx.Linear(hidden_dims, out_dims, rngs=rngs)
        keys = jax.random.split(jax.random.key(0), num_mlps)
        self.models = self.create_models(keys)
    
    # TODO more flexible way of writing this? 
    @nnx.vmap(in_axes=(None, 0), out_axes=0)
    def create_models(self, key: jax.Array):
        return MLP(hidden_dims=self.hidden_dims, rngs=nnx.Rngs(key))

    def __call__(self, x):
        @nnx.scan(in_axes=(0, nnx.Carry), out_axes=nnx.Carry)
        def forward(model: MLP, x):
            x = model(x)
            return x 
        z = self.activation(self.initial_linear(x))
        z = forward(self.models, z)
        z_out = self.out_layer(z)
        return z_out
    
    def fit(self, batch_size, train_steps, dataset):  # scaffolding: annotation tf.data.Dataset dropped (no tensorflow)
        """
        We train the MLP model such that it takes 
        """
        dataset = dataset.repeat().shuffle(150)
        dataset = dataset.batch(batch_size, drop_remainder=True).take(train_steps).prefetch(1)

rngs = nnx.Rngs(0)
in_dims = 41
hidden_dims = 10
out_dims = 20
num_mlps = 1
learning_rate = 0.005
momentum = 0.9
train_ratio = .75
batch_size = 32 
train_steps = 6  # scaffolding: 5000 in main_mlp.py
eval_every = 5
shuffle_buffer_size = 1024

model = MLPModel(in_dims, hidden_dims, out_dims, num_mlps, rngs)
optimizer = nnx.Optimizer(model, optax.adamw(learning_rate, momentum), wrt=nnx.Param)  # scaffolding: wrt= is required by flax 0.12

metrics = nnx.MultiMetric(
    accuracy=nnx.metrics.Accuracy(),
    loss=nnx.metrics.Average('loss'),
)

def loss_fn(model: MLPModel, batch):
    logits = model(batch['inputs'])
    loss = optax.softmax_cross_entropy(
        logits=logits, labels=batch['targets']
    ).mean()
    return loss, logits

@nnx.jit
def train_step(model: MLPModel,
               optimizer: nnx.Optimizer,
               metrics: nnx.MultiMetric,
               batch):
    
    grad_fn = nnx.value_and_grad(loss_fn, has_aux=True)
    (loss, logits), grads = grad_fn(model, batch)

    # convert one-hot to class indices for the metric
    # TODO: dtype here?
    labels_idx = jnp.argmax(batch['targets'], axis=-1)
    # jax.debug.print("labels look like {labels_idx}", labels_idx=labels_idx)
    metrics.update(loss=loss,
                   logits=logits,
                   labels=labels_idx)      
    
    optimizer.update(model, grads)  # scaffolding: optimizer.update(grads) before flax 0.11

def _stand_in_batches():  # scaffolding: stand-in for tf.data.Dataset.load('./data/mlp_tf_dataset') ... .batch(batch_size, drop_remainder=True)
    rs = jax.random.split(jax.random.key(1), train_steps)
    for k in rs:
        k1, k2 = jax.random.split(k)
        yield {"inputs": jax.random.normal(k1, (batch_size, in_dims)),
               "targets": jax.nn.one_hot(jax.random.randint(k2, (batch_size,), 0, out_dims), out_dims)}

for step, batch in enumerate(_stand_in_batches()):
    train_step(model, optimizer, metrics, batch)

print(metrics.compute())
_report({"jit(train_step)"}, train_steps)
