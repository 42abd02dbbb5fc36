# source: https://github.com/gcucurull/jax-gcn/pull/1
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: Indexing with np.array(idx) (as the sibling repo gcucurull/jax-gat does) gathers with an array index; update compiles once for three epochs.

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
import numpy
import jax
import jax.numpy as np
from jax import jit, grad, random, lax
from jax.example_libraries import optimizers  # scaffolding: was jax.experimental.optimizers
import jax.nn as nn
from jax.nn.initializers import glorot_uniform, zeros


# --- models.py (repo HEAD), dense path only ---
def Dropout(rate):
    def init_fun(rng, input_shape):
        return input_shape, ()
    def apply_fun(params, inputs, is_training, **kwargs):
        rng = kwargs.get('rng', None)
        keep = random.bernoulli(rng, rate, inputs.shape)
        outs = np.where(keep, inputs / rate, 0)
        # if not training, just return inputs and discard any computation done
        out = lax.cond(is_training, outs, lambda x: x, inputs, lambda x: x)
        return out
    return init_fun, apply_fun


def GraphConvolution(out_dim, bias=False, sparse=False):
    def init_fun(rng, input_shape):
        output_shape = input_shape[:-1] + (out_dim,)
        k1, k2 = random.split(rng)
        W = glorot_uniform()(k1, (input_shape[-1], out_dim))
        return output_shape, (W, None)

    def apply_fun(params, x, adj, **kwargs):
        W, b = params
        support = np.dot(x, W)
        out = np.matmul(adj, support)
        return out

    return init_fun, apply_fun


def GCN(nhid: int, nclass: int, dropout: float, sparse: bool = False):
    gc1_init, gc1_fun = GraphConvolution(nhid, sparse=sparse)
    _, drop_fun = Dropout(dropout)
    gc2_init, gc2_fun = GraphConvolution(nclass, sparse=sparse)
    init_funs = [gc1_init, gc2_init]

    def init_fun(rng, input_shape):
        params = []
        for init_fun in init_funs:
            rng, layer_rng = random.split(rng)
            input_shape, param = init_fun(layer_rng, input_shape)
            params.append(param)
        return input_shape, params

    def apply_fun(params, x, adj, is_training=False, **kwargs):
        rng = kwargs.pop('rng', None)
        k1, k2, k3, k4 = random.split(rng, 4)
        x = drop_fun(None, x, is_training=is_training, rng=k1)
        x = gc1_fun(params[0], x, adj, rng=k2)
        x = nn.relu(x)
        x = drop_fun(None, x, is_training=is_training, rng=k3)
        x = gc2_fun(params[1], x, adj, rng=k4)
        x = nn.log_softmax(x)
        return x

    return init_fun, apply_fun


# --- train.py, with the index fix used in the sibling repo gcucurull/jax-gat (np.array(idx)) ---
@jit
def loss(params, batch):
    """
    The idxes of the batch indicate which nodes are used to compute the loss.
    """
    inputs, targets, adj, is_training, rng, idx = batch
    preds = predict_fun(params, inputs, adj, is_training=is_training, rng=rng)
    ce_loss = -np.mean(np.sum(preds[np.array(idx)] * targets[np.array(idx)], axis=1))
    l2_loss = 5e-4 * optimizers.l2_norm(params)**2 # tf doesn't use sqrt
    return ce_loss + l2_loss


def load_data():  # scaffolding: random stand-in for the Cora loader; indices are Python lists as in utils.py
    r = numpy.random.RandomState(0)
    n, f, c = 20, 8, 3
    adj = np.asarray(numpy.eye(n) + (r.rand(n, n) > 0.8), dtype=np.float32)
    features = np.asarray(r.rand(n, f), dtype=np.float32)
    labels = np.asarray(numpy.eye(c)[r.randint(0, c, n)], dtype=np.float32)
    return adj, features, labels, list(range(5)), list(range(5, 12)), list(range(12, 20))


adj, features, labels, idx_train, idx_val, idx_test = load_data()
rng_key = random.PRNGKey(0)
init_fun, predict_fun = GCN(nhid=16, nclass=labels.shape[1], dropout=0.5, sparse=False)
input_shape = (-1, features.shape[0], features.shape[1])
rng_key, init_key = random.split(rng_key)
_, init_params = init_fun(init_key, input_shape)

opt_init, opt_update, get_params = optimizers.adam(0.01)


@jit
def update(i, opt_state, batch):
    params = get_params(opt_state)
    return opt_update(i, grad(loss)(params, batch), opt_state)


opt_state = opt_init(init_params)
EPOCHS = 3  # scaffolding
for epoch in range(EPOCHS):
    batch = (features, labels, adj, True, rng_key, idx_train)
    opt_state = update(epoch, opt_state, batch)
    rng_key, _ = random.split(rng_key)
_report({"jit(update)"}, EPOCHS)  # scaffolding
