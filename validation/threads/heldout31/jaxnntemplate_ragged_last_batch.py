# source: https://github.com/renardyreveur/jax-nn-template/blob/a4b83c1cd24bdd09e86ea3d2c6cb8acee0a06da0/train.py
# expect: shape-churn at line 531
# runtime: COMPILES 2 CALLS 4
# why: The template's own DataIterator returns the remainder as a last, shorter batch (60000 MNIST images with batch_size 512 leave 96; 600 = 512 + 88 here), so the jitted optimizers.update is traced and compiled again for the short batch every run: 2 compiles for 4 calls.

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

# --- model/modules/activations.py ---
import jax
import jax.numpy as jnp
import jax.scipy as jscipy


def sigmoid(x):
    return jnp.where(x >= 0, 1 / (1 + jnp.exp(-x)), jnp.exp(x) / (1 + jnp.exp(x)))


def hard_swish(in_x):
    return in_x * jnp.maximum(0, in_x + 3) / 6


def tanh(in_x):
    return jnp.tanh(in_x)


def gelu(in_x, approx=False):
    if approx:
        return 0.5 * in_x * (1.0 + tanh(jnp.sqrt(2 / jnp.pi) * (in_x + 0.044715 * jnp.power(in_x, 3))))
    else:
        return 0.5 * in_x * (1.0 + jax.lax.erf(in_x/jnp.sqrt(2)))
        # return in_x * jscipy.stats.norm.cdf(in_x)  # Creates nan when onnx converted


def softmax(in_x):
    return jnp.divide(jnp.exp(in_x), jnp.sum(jnp.exp(in_x)))


# --- model/modules/base_layers.py ---
import jax.numpy as jnp
from jax import lax
from jax import random



def linear(in_x, proj_dim, bias=True, seed=0, params=None):
    """ Fully connected linear layer

    :param in_x: Input array
    :param int proj_dim: Projection dimension
    :param bool bias: Whether to carry bias array or not
    :param int seed: Parameter initialization seed
    :param params: Layer parameters
    :return: Projected array, Layer Parameters
    """
    if params is None:
        k = random.PRNGKey(seed)
        params = {}
        for i in ['weight', 'bias'] if bias else ['weight']:
            k, subkey = random.split(k)
            shape = (in_x.shape[-1], proj_dim) if i == "weight" else (proj_dim,)
            p = random.normal(subkey, shape=shape)
            p *= jnp.sqrt(2 / proj_dim)
            params.update({i: p})

    if params['weight'].shape[-1] != proj_dim or params['weight'].shape[-2] != in_x.shape[-1]:
        raise ValueError(
            f"Parameter Shape doesn't match layer! {params['weight']} is not {in_x.shape[-1]} x {proj_dim}")

    return in_x @ params['weight'] + (params['bias'] if bias else 0), params


def conv2d(in_x, in_chns, out_chns, kernel_size, padding="VALID", groups=1, stride=(1,) * 2, bias=False,
           seed=0, params=None):
    """ 2D Convolution Layer

    :param in_x: Input array
    :param int in_chns: Input channel length
    :param int out_chns: Output channel length
    :param tuple(int, int) kernel_size: Convolution kernel size
    :param padding: Padding to apply at each spatial dimension [(low, high), (low, high)]
    :param int groups: Number of channel groups
    :param stride: Kernel window stride
    :param bool bias: Carry bias array or not
    :param int seed: Parameter weight initialization seed
    :param params: Layer Parameters
    :return: Convolved output array, Layer Parameters
    """
    if params is None:
        k = random.PRNGKey(seed)
        params = {}
        for i in (['weight', 'bias'] if bias else ['weight']):
            k, subkey = random.split(k)
            shape = (out_chns, in_chns // groups, *kernel_size) if i == "weight" else (out_chns,)
            p = random.uniform(subkey, minval=-jnp.sqrt(groups / (in_chns * jnp.prod(jnp.array(kernel_size)))),
                               maxval=jnp.sqrt(groups / (in_chns * jnp.prod(jnp.array(kernel_size)))),
                               shape=shape)
            params.update({i: p})

    conv = lax.conv_general_dilated(in_x, params['weight'], stride, padding, feature_group_count=groups)

    if bias:
        conv += jnp.reshape(params['bias'], (1, out_chns, 1, 1))

    return conv, params


def attention(in_x, dim, keys=None, values=None, seed=0, params=None):
    """ Attention / Self-Attention Layer

    :param in_x: Input array
    :param dim: Query, Key, Value Dimensions
    :param keys: If provided, use external key (encoder-decoder attention), else self-attention
    :param values: If provided, used external value
    :param seed: Weight initialization seed
    :param params: Layer Parameters
    :return: Output array, Parameters
    """
    if params is None:
        k = random.PRNGKey(seed)
        params = {}
        for i in ['w_query', 'w_key', 'w_val']:
            k, subkey = random.split(k)
            shape = (in_x.shape[-1], dim)
            p = random.normal(subkey, shape=shape)
            p *= jnp.sqrt(2 / dim)
            params.update({i: p})

    # Generate Query, Key, Value from input
    queries = in_x @ params['w_query']
    if keys is None:
        keys = in_x @ params['w_key']
        values = in_x @ params['w_val']

    # Calculate attention scores (using query and key) - scaled dot product
    attn_scores = softmax(1 / jnp.sqrt(queries.shape[-1]) * (queries @ jnp.transpose(keys, axes=[0, 2, 1])))

    # Get sum of weighted values as output
    return attn_scores @ values, params


# --- model/modules/norm_layers.py ---
import jax.numpy as jnp


def layer_norm(in_x, dim, params=None):
    """ Layer Normalization

    :param in_x: Input array
    :param dim: Dimension to carry out normalization
    :param params: Layer Parameters
    :return: Normalized output, Layer Parameters
    """
    if params is None:
        params = {"weight": jnp.ones(in_x.shape[dim]), "bias": jnp.zeros(in_x.shape[dim])}
    if in_x.shape[dim] != params['weight'].shape[0]:
        raise ValueError(f"Parameter Shape doesn't match layer! {in_x.shape[dim]} and {params['weight'].shape}")
    eps = 0.00001
    mean = jnp.mean(in_x, axis=dim, keepdims=True)
    var = jnp.var(in_x, axis=dim, keepdims=True)
    x = (in_x - mean) / jnp.sqrt(var + eps)
    w = jnp.reshape(params['weight'], (1,) * dim + (-1,) + (1,) * (len(in_x.shape) - 1 - dim))
    b = jnp.reshape(params['bias'], (1,) * dim + (-1,) + (1,) * (len(in_x.shape) - 1 - dim))
    return w * x + b, params


# --- model/modules/utils.py ---
def get_params(params, idx):
    return None if params is None else params[idx]


# --- model/model.py ---
from functools import partial

import jax.numpy as jnp
from jax import jit

import types  # scaffolding
nn = types.SimpleNamespace(**{k: v for k, v in dict(globals()).items() if callable(v)})  # scaffolding: stands for "from model import modules as nn"


def downsample(in_x, in_dim, out_dim, params=None):
    x, p0 = nn.layer_norm(in_x, 1, nn.get_params(params, 0))
    x, p1 = nn.conv2d(x, in_dim, out_dim, kernel_size=(2, 2), stride=(2, 2), seed=41, params=nn.get_params(params, 1))
    return x, [p0, p1]


def convnext_block_alt(in_x, dim, params=None):
    """
    Doesn't work with the final onnx conversion
    """
    x, p0 = nn.conv2d(in_x, dim, dim, kernel_size=(7, 7), padding=((3, 3), (3, 3)), groups=dim,
                      seed=42, params=nn.get_params(params, 0))
    x = jnp.transpose(x, (0, 2, 3, 1))
    x, p1 = nn.layer_norm(x, 3, nn.get_params(params, 1))
    x, p2 = nn.linear(x, dim * 2, seed=43, params=nn.get_params(params, 2))
    x = nn.gelu(x)
    x, p3 = nn.linear(x, dim, seed=44, params=nn.get_params(params, 3))
    x = jnp.transpose(x, (0, 3, 1, 2))
    # TODO: Add DropPath
    return x, [p0, p1, p2, p3]


def convnext_block(in_x, dim, params=None):
    x, p0 = nn.conv2d(in_x, dim, dim, kernel_size=(7, 7), padding=((3, 3), (3, 3)), groups=dim,
                      seed=42, params=nn.get_params(params, 0))
    x, p1 = nn.layer_norm(x, 1, nn.get_params(params, 1))
    x, p2 = nn.conv2d(x, dim, dim*2, kernel_size=(1, 1), seed=43, params=nn.get_params(params, 2))
    x = nn.gelu(x)
    x, p3 = nn.conv2d(x, dim*2, dim, kernel_size=(1, 1), seed=44, params=nn.get_params(params, 3))
    # TODO: Add DropPath
    return x, [p0, p1, p2, p3]


@partial(jit, static_argnums=(1,))
def mnist_model(in_x, feat_dims, params=None):
    new_params = []
    # Stem
    x, p0 = nn.conv2d(in_x, 1, feat_dims[0], kernel_size=(4, 4), stride=(4, 4),
                      seed=12, params=nn.get_params(params, 0))
    x, p1 = nn.layer_norm(x, 1, nn.get_params(params, 1))
    new_params.append(p0)
    new_params.append(p1)

    # Body
    for i in range(len(feat_dims)):
        x, p2 = convnext_block(x, dim=feat_dims[i], params=nn.get_params(params, 2 + i*2))
        new_params.append(p2)
        if i != len(feat_dims) - 1:
            x, p3 = downsample(x, in_dim=feat_dims[i], out_dim=feat_dims[i + 1], params=nn.get_params(params, 3 + i*2))
            new_params.append(p3)

    features, p4 = nn.layer_norm(jnp.mean(x, axis=(-2, -1)), dim=1, params=nn.get_params(params, len(feat_dims)*2 + 1))
    new_params.append(p4)

    # Head
    proj, p5 = nn.linear(features, 64, params=nn.get_params(params, len(feat_dims)*2 + 2))
    out, p6 = nn.linear(proj, 10, params=nn.get_params(params, len(feat_dims)*2 + 3))
    new_params.append(p5)
    new_params.append(p6)

    return out, new_params if params is None else out


# --- training/loss.py ---
import jax.numpy as jnp
from jax import vmap



# One hot encoding
def one_hot(target, len_pos):
    return jnp.zeros(len_pos).at[target].set(1)


# Cross Entropy single example
def cross_entropy(output, target):
    output = softmax(output)
    target = one_hot(target, 10)
    return - jnp.sum(jnp.dot(target, jnp.log(output)))


# Batched Cross Entropy loss with 'mean' reduction
def batch_cross_entropy(params, model, x, y):
    preds, params = model(x, params=params)
    loss_fn = vmap(cross_entropy)
    return jnp.mean(loss_fn(preds, y))


# --- training/optimizers.py (jax.tree_map / jax.tree_structure spelled jax.tree_util.*: scaffolding, the aliases are gone) ---
from functools import partial

import jax
import jax.numpy as jnp


# SGD
from jax import value_and_grad


def sgd(w, g, op_params=None, lr=0.001, **kwargs):
    def init_sgd_params(params):
        params = [init_sgd_params(x) if isinstance(x, list)
                  else {k: {"step": 0} for k, v in x.items()}
                  for x in params]
        return params

    if op_params is None:
        return init_sgd_params(w)
    return w - lr * g, op_params


# Adam with weight decay
def adamw(w, g, op_params=None, lr=0.001, betas=(0.9, 0.999), eps=1e-08, weight_decay=0.001):
    def init_adamw_params(params):
        params = [init_adamw_params(x) if isinstance(x, list)
                  else {k: {"m0": jnp.zeros_like(v), "v0": jnp.zeros_like(v), "step": 0} for k, v in x.items()}
                  for x in params]
        return params

    if op_params is None:
        return init_adamw_params(w)
        # return [{k: {"m0": 0, "v0": 0, "step": 0} for k, v in layer.items()} for layer in w]

    # Momentum
    # Gradient direction is smoothed by exponentially weighing the moving averages
    op_params["m0"] = betas[0] * op_params["m0"] + (1 - betas[0]) * g
    # RMSProp
    # Gradient magnitude is smoothed such that it slows down near flats, and doesn't flick off at suboptimal gradients
    op_params["v0"] = betas[1] * op_params["v0"] + (1 - betas[1]) * (g ** 2)

    # Estimation bias correction
    mt_hat = op_params["m0"] / (1 - betas[0] ** op_params['step'])
    vt_hat = op_params["v0"] / (1 - betas[1] ** op_params['step'])

    # Weight decay is not the same as L2 regularization when not standard SGD ->
    # substituting g with (g + wd*w) which comes from adding sum of squared weights to loss
    # is not equal to weight decay when gradients are altered (such as momentum, etc.)
    new_w = w - (lr * mt_hat / (jnp.sqrt(vt_hat) + eps) + weight_decay * w)
    return new_w, op_params


# ----- Update function -----
def update_optim_params(params):
    [update_optim_params(x) if isinstance(x, list) else [v.update({"step": v['step'] + 1}) for k, v in x.items()]
     for x in params]


@partial(jax.jit, static_argnums=(2,))
# What if loss_fn, optimizer partial functions break tracing? Separate functions for each?
def update(in_data, loss_fn, model, params, optimizer, optimizer_params, **kwargs):
    # Calculate loss and gradients of loss w.r.t params
    loss, gradient = value_and_grad(loss_fn, argnums=0)(params, model, *in_data)

    # Step counter in optimizer_params update
    update_optim_params(optimizer_params)

    # Updatable parameters
    num_up_params = len(optimizer_params)

    # Update parameters with specified optimization algorithm
    updated_params = jax.tree_util.tree_map(optimizer, params[:num_up_params], gradient[:num_up_params], optimizer_params)

    # Reformat PyTree with tree_transpose
    new_params, new_oparams = jax.tree_util.tree_transpose(outer_treedef=jax.tree_util.tree_structure(params[:num_up_params]),
                                                           inner_treedef=jax.tree_util.tree_structure(
                                                               (0, {'m0': 0, 'v0': 0, 'step': 0})),
                                                           pytree_to_transpose=updated_params)
    new_oparams = jax.tree_util.tree_transpose(outer_treedef=jax.tree_util.tree_structure({'m0': 0, 'v0': 0, 'step': 0}),
                                               inner_treedef=jax.tree_util.tree_structure(params[:num_up_params]),
                                               pytree_to_transpose=new_oparams)

    # If input was single parameter wrapped in a tuple, reduce that tuple when returning
    if len(new_params) == 1 and isinstance(new_params[0], list):
        new_params, new_oparams = new_params[0], new_oparams[0]

    return loss, new_params, new_oparams


# --- data_loader/base.py ---
import functools
import random as py_random  # scaffolding: renamed, clashes with jax.random in the inlined file

import jax.numpy as jnp


# Function composition
def fn_compose(*fns):
    return functools.reduce(lambda f, g: lambda x: f(g(x)), fns, lambda x: x)


# Batch Collation
def default_collate_fn(batch: list):
    try:
        if isinstance(batch[0], tuple) or isinstance(batch[0], list):
            return [jnp.stack(x) for x in zip(*batch)]
        elif isinstance(batch[0], str):
            return batch
        elif isinstance(batch[0], dict):
            return [{key: default_collate_fn([b[key] for b in batch])} for key in batch[0]]
        else:
            return jnp.stack(batch)
    except Exception as e:
        print(e)
        raise ValueError("Default Collate Function encountered something it can't handle..")


class DataIterator:
    def __init__(self, dataset, batch_size, shuffle, collate_fn):
        self._dataset = dataset
        self._batch_size = batch_size
        self._collate_fn = collate_fn
        self._index = 0
        self._shuffle = shuffle
        self._idxs = list(range(len(self._dataset)))

    def __next__(self):
        batches = len(self._dataset) // self._batch_size
        if len(self._dataset) % self._batch_size:
            batches += 1

        if self._index < batches-1:
            indices = py_random.sample(self._idxs, self._batch_size) if self._shuffle else self._idxs[:self._batch_size]
            batch_data = [self._dataset[i] for i in indices]
            self._idxs = list(set(self._idxs) - set(indices))
            self._index += 1
            return self._collate_fn(batch_data)
        elif self._index == batches-1:
            batch_data = [self._dataset[i] for i in self._idxs]
            self._index += 1
            return self._collate_fn(batch_data)

        raise StopIteration


class BaseDataLoader:
    def __init__(self, dataset, batch_size, shuffle=False, collate_fn=None):
        self.dataset = dataset
        self.batch_size = batch_size
        self.shuffle = shuffle
        self.collate_fn = collate_fn if collate_fn is not None else default_collate_fn

    def __len__(self):
        batches = len(self.dataset) // self.batch_size
        if len(self.dataset) % self.batch_size:
            batches += 1
        return batches

    def __iter__(self):
        return DataIterator(self.dataset, self.batch_size, self.shuffle, self.collate_fn)


# --- data_loader/dataloader.py ---
class Dataset:  # scaffolding: stands for the MNIST Dataset class (download + parse); 600 random 28x28 images
    def __init__(self, root, test=False, transform=None):
        r = np.random.default_rng(1 if test else 0)
        n = 300 if test else 600
        self.data = [r.integers(0, 256, (n, 28, 28)).astype(np.uint8), r.integers(0, 10, (n,)).astype(np.uint8)]
        self.transform = transform

    def __len__(self):
        return self.data[0].shape[0]

    def __getitem__(self, idx):
        image, label = self.data[0][idx], self.data[1][idx]
        if self.transform is not None:
            image = self.transform(image)
        return image, label

class DataLoader(BaseDataLoader):
    def __init__(self, dataset_args, batch_size, shuffle=True, collate_fn=None):

        # Image transformations
        trsfms = [
            lambda x: x.astype("float") / 255.,
            lambda x: np.expand_dims(x, 0),
            lambda x: jnp.asarray(x)
        ]

        self.dataset = Dataset(**dataset_args, transform=fn_compose(*trsfms))
        super().__init__(self.dataset, batch_size, shuffle, collate_fn)


# --- train.py main(), training loop (initialisation simplified: scaffolding) ---
import jax.tree_util
import time


# utils.py
def progress(data_loader, b_idx):
    base = '[{}/{} ({:.0f}%)]'
    total = len(data_loader)
    current = b_idx
    return base.format(current, total, 100.0 * current / total)

opt_module = types.SimpleNamespace(update=update)  # scaffolding: stands for "import training.optimizers as opt_module"
N_CALLS = []  # scaffolding
config = {"model_struct": {"args": {"feat_dims": [8, 16, 32]}},  # config.json values
          "data_loader": {"args": {"dataset_args": {"root": "./data"}, "batch_size": 512, "shuffle": True}},
          "training": {"optimizer_args": {"lr": 0.003}, "epochs": 2}}  # scaffolding: 2 epochs instead of 10


def main(config):
    dataloader = DataLoader(**config['data_loader']['args'])  # scaffolding: get_training_objects lookups resolved by hand
    model, optimizer, loss_fn = mnist_model, adamw, batch_cross_entropy  # scaffolding
    config['model_struct']['args'] = {k: tuple(v) if isinstance(v, list) else v for k, v in
                                      config['model_struct']['args'].items()}
    config['training']['optimizer_args'] = {k: tuple(v) if isinstance(v, list) else v for k, v in
                                            config['training']['optimizer_args'].items()}
    model = jax.tree_util.Partial(model, **config['model_struct']['args'])
    optimizer = jax.tree_util.Partial(optimizer, **config['training']['optimizer_args'])
    loss_fn = jax.tree_util.Partial(loss_fn)

    # Initialize model parameters
    dummy_sample, _ = dataloader.dataset[0]
    _, model_params = model(jnp.expand_dims(dummy_sample, 0))

    # Initialize optimizer parameters
    opt_params = optimizer(model_params, None)

    # ----------------- TRAINING LOOP -----------------
    for epoch in range(config['training']['epochs']):
        print()
        print(f"---- STARTING EPOCH {epoch + 1} ----")
        start = time.time()
        loss = 0
        for batch_idx, (data, label) in enumerate(dataloader):
            # Gradient Descent and Parameter updates
            loss, model_params, opt_params = opt_module.update(
                in_data=(data, label),
                loss_fn=loss_fn,
                model=model,
                params=model_params,
                optimizer=optimizer,
                optimizer_params=opt_params,
            )

            N_CALLS.append(1)  # scaffolding
            if batch_idx % int(jnp.sqrt(dataloader.batch_size)) == 0:
                print(f"Epoch {epoch + 1} {progress(dataloader, batch_idx)} -- Loss: {loss}")

    return 0


main(config)  # scaffolding
_report({"jit(update)"}, len(N_CALLS))  # scaffolding
