# source: https://github.com/abhishekshuklamath/meta-learning/blob/60ea3f4ec94a4d311a9239b1f9b7995112634678/hyperparameter_optimization/hyperparameter_optimization.ipynb
# expect: jit-in-loop-or-body at line 81
# runtime: COMPILES 4 CALLS 20
# why: base_logistic_model defines its @jit step inside the function body and the notebook calls the function once per (regularisation weight, task) pair, so step is traced and compiled again on every call (4 compiles for 4 model fits here, 165 in the notebook's sweep).

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
import numpy as np
import random
import jax
import jax.numpy as jnp
from jax import vmap,grad
from functools import partial
from jax.example_libraries import stax
from jax.example_libraries.stax import Dense,Relu,Flatten,Sigmoid
from jax import jit
from jax.example_libraries import optimizers

rng=jax.random.PRNGKey(1)
num_task_sample=5
ethnic_grp_min_pop=60 #min population among all subpopulatiosn
reg_weight=0.1
lr=0.001


class _Frame:  # scaffolding: minimal stand-in for the pandas DataFrame/Series the notebook reads from CSV
    def __init__(self, a):
        self.a = np.asarray(a, dtype=np.float32)
        self.shape = self.a.shape

    @property
    def iloc(self):
        return self

    def __getitem__(self, idx):
        return _Frame(self.a[idx])

    def to_numpy(self):
        return self.a


_np_rng = np.random.RandomState(0)  # scaffolding: synthetic genotype-like data instead of processed_data.csv
x_train = _Frame(_np_rng.randint(0, 3, size=(600, 20)))  # scaffolding
y_train = _Frame(_np_rng.randint(0, 2, size=(600, 1)))  # scaffolding
x_test = _np_rng.randint(0, 3, size=(60, 20)).astype(np.float32)  # scaffolding
y_test = _np_rng.randint(0, 2, size=(60, 1)).astype(np.float32)  # scaffolding
eth_train = np.array(["A", "B", "C"])  # scaffolding
epochs = 5  # scaffolding: was 5000
batch_size = 30

def base_logistic_model(eth_train, x_train, y_train, x_test, y_test,epochs=20000,batch_size=20,reg_weight=reg_weight):
    num_features = x_train.shape[1]
    in_shape = (-1, num_features)

    basenet_init, basenet_apply = stax.serial(Dense(1), Sigmoid)
    out_shape, basenet_params = basenet_init(rng, input_shape=in_shape)
    opt_init, opt_update, get_params = optimizers.adam(step_size=lr)
    opt_state = opt_init(basenet_params)

    @jit
    def step(i, opt_state, x1, y1):
        p = get_params(opt_state)
        g = grad(batch_loss)(p, x1, y1)
        l = batch_loss(p, x1, y1)
        return opt_update(i, g, opt_state), l


    def binary_cross_entropy(y_hat, y):
        bce = y * jnp.log(y_hat) + (1 - y) * jnp.log(1 - y_hat)
        
        return jnp.mean(-bce)

    def loss(params, inputs, targets):
        predictions = basenet_apply(params, inputs)
        bce=binary_cross_entropy(predictions, targets)
        
        return binary_cross_entropy(predictions, targets) + reg_weight * jnp.linalg.norm(basenet_params[0][0], 1)


    def batch_loss(p,x1,y1):
        task_losses = vmap(partial(loss, p))(x1, y1)
        return jnp.mean(task_losses)

    def accuracy(params, inputs, targets):
        predictions = basenet_apply(params, inputs)
        return jnp.mean((predictions >= 1/2) == (targets >= 1/2))

    def update(p, x1, y1):
        grads = grad(loss)(p, x1, y1)
        inner_sgd_fn = lambda g, state: (state - lr * g)
        return jax.tree_util.tree_map(inner_sgd_fn,grads,p)  # scaffolding: tree_multimap was removed from jax

    np_batched_loss = []
    for i in range(epochs):  # scaffolding: tqdm dropped
        indices = np.random.randint(x_train.shape[0], size=batch_size * num_task_sample)
        x1, y1 = x_train.iloc[indices].to_numpy(), y_train.iloc[indices].to_numpy()
        opt_state, l = step(i, opt_state, x1, y1)
        np_batched_loss.append(l)
    basenet_params = get_params(opt_state)
    #  if i % 1000 == 0:
    #     train_loss = loss(basenet_params, x_train.to_numpy(), y_train.to_numpy())
    #    print(i, 'training loss', train_loss)

    indx = np.random.randint(x_test.shape[0], size=batch_size)
    test_indx = np.delete(np.arange(x_test.shape[0]), indx)
    x1, y1 = x_test[indx], y_test[indx]
    for i in range(batch_size):
        basenet_params = update(basenet_params, x1, y1)

    logistic_test_acc = accuracy(basenet_params, x_test, y_test)

    #print('test error accuracy', logistic_test_acc)
    return np_batched_loss, logistic_test_acc

_n_calls = 0  # scaffolding
weights_vec=np.arange(11)
tasks = ["MXL", "YRI"]  # scaffolding: stands in for random.sample(list(eth),k=3)
for reg in weights_vec[:2]:  # scaffolding: 2 of the 11 regularisation weights
    for t in tasks:
        beta = base_logistic_model(eth_train, x_train, y_train, x_test, y_test, epochs, batch_size,reg/10)
        _n_calls += epochs  # scaffolding
        print('reg weight', reg, 'task', t, 'test acc', beta[1])  # scaffolding
_report({"jit(step)"}, _n_calls)  # scaffolding
