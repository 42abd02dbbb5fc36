# source: https://github.com/tancik/learnit/blob/ac6dc3ea383711e6549b452f2346498c8bca69ae/Experiments/2d_ct.ipynb
# expect: none
# runtime: COMPILES 2 CALLS 15
# why: The meta-training cell nests jitted model_step (static optimizer) inside jitted update_network_weights (static update_steps) inside jitted update_model, but the static optimizer is built once, update_steps is the same constant at every top-level call, and the nested jits are inlined, so update_model and the test-time update_network_weights compile once each.

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
# Experiments/2d_ct.ipynb of tancik/learnit at ac6dc3e (companion notebook of "Learned Initializations for Optimizing Coordinate-Based Neural Representations", CVPR 2021); cells 1, 5, 7, 11 in order (the meta-training cell)
# cell 1
from functools import partial
import jax
from jax import random, grad, jit, vmap, flatten_util, nn
jax.tree_map = jax.tree_util.tree_map  # scaffolding: removed from jax
jax.tree_multimap = jax.tree_util.tree_map  # scaffolding: removed from jax
import optax as optix  # scaffolding: jax.experimental.optix was removed from jax; optax is its successor with the same adam/sgd/apply_updates
import jax.numpy as np
import numpy as onp  # scaffolding

import haiku as hk

from jax.scipy import ndimage

# scaffolding: a synthetic stand-in for ct_256.pkl (phantom images), 32x32 instead of 256x256
RES = 32  # scaffolding
dataset = {'data_train': onp.random.RandomState(0).rand(8, RES, RES).astype(onp.float32), 'data_test': onp.random.RandomState(1).rand(5, RES, RES).astype(onp.float32)}  # scaffolding
x1 = np.linspace(0, 1, dataset['data_test'][0].shape[0]+1)[:-1] # use full image resolution 
x_train = np.stack(np.meshgrid(x1,x1), axis=-1)
x_test = x_train
# cell 5
class Model(hk.Module):
    def __init__(self):
        super().__init__()
        self.rff = random.normal(jax.random.PRNGKey(0), shape=(2,256)) * 30
        self.width = 256
        self.depth = 5        
        
    def __call__(self, coords):
        sh = coords.shape
        coords = np.reshape(coords, [-1,2])
        
        x = np.concatenate([np.sin(coords @ self.rff), np.cos(coords @ self.rff)], axis=-1)

        for _ in range(self.depth-1):
            x = hk.Linear(output_size=self.width)(x)
            x = jax.nn.relu(x)
            
        out = hk.Linear(output_size=1)(x)
        out = jax.nn.sigmoid(out)
        out = np.reshape(out, list(sh[:-1]))
        return out
# cell 7
@jit
def ct_project(img, theta):
    y, x = np.meshgrid(np.arange(int(img.shape[0]), dtype=np.float32)/int(img.shape[0]) - 0.5, np.arange(int(img.shape[1]), dtype=np.float32)/int(img.shape[1]) - 0.5, indexing='ij')
    x_rot = x*np.cos(theta) - y*np.sin(theta)
    y_rot = x*np.sin(theta) + y*np.cos(theta)
    x_rot = (x_rot + 0.5)*img.shape[1]
    y_rot = (y_rot + 0.5)*img.shape[0]
    sample_coords = np.stack([y_rot, x_rot], axis=0)
    resampled = ndimage.map_coordinates(img, sample_coords, 0).reshape(img.shape)
    return resampled.mean(axis=0)[:,None,...]

ct_project_batch = vmap(ct_project, (None, 0), 0)
ct_project_double_batch = vmap(ct_project_batch, (0, 0), 0)
# cell 11
CHECKPOINT_DIR = 'checkpoint/ct_checkpoints/' # Choose dir to save checkpoints

max_iters = 5  # scaffolding: 5 instead of 100000
test_steps = 2  # scaffolding: 2 instead of 10

batch_size = 2  # scaffolding: 2 instead of 1 (with 1, the [None] below makes a 4-D batch and map_coordinates raises, with or without jit)
num_projections = 20
num_test_projections = 10

inner_update_steps = 3  # scaffolding: 3 instead of 12
inner_lr = 10 #5e-3
lr = 5e-5

exp_name = f'ilr_{inner_lr}_olr_{lr}_ius_{inner_update_steps}_bs_{batch_size}'

test_thetas = np.linspace(0, np.pi, num_test_projections, endpoint=False)

coords = x_train

key = hk.PRNGSequence(42)
model = hk.without_apply_rng(hk.transform(lambda x: Model()(x)))
params = model.init(next(key), np.ones((1,2)))

opt = optix.adam(lr)#, b1=.5, b2=.9)
opt_state = opt.init(params)

opt_inner = optix.sgd(inner_lr)#, b1=.5, b2=.9)
# opt_inner = optix.adam(inner_lr)#, b1=.5, b2=.9)

mse_fn = jit(lambda x, y: np.mean((x - y)**2))
psnr_fn = jit(lambda x, y: -10 * np.log10(mse_fn(x, y)))

@partial(jit, static_argnums=[4])
def model_step(image_proj, coords, thetas, params, opt, opt_state):
    def loss_latent(params):
        g = model.apply(params, coords)
        g_proj = ct_project_batch(g, thetas)
        return mse_fn(g_proj, image_proj)

    loss, grad = jax.value_and_grad(loss_latent)(params)
    updates, opt_state = opt.update(grad, opt_state)
    params = optix.apply_updates(params, updates)
    return params, opt_state, loss

@partial(jit, static_argnums=[5])
def update_network_weights(rng, image_proj, coords, thetas, params, update_steps):
    opt_inner_state = opt_inner.init(params)
    for _ in range(update_steps):
        params, opt_inner_state, loss = model_step(image_proj, coords, thetas, params, opt_inner, opt_inner_state)
    return rng, params, loss

update_network_weights_batch = vmap(update_network_weights, in_axes=[0, 0, None, 0, None, None])

@jit
def update_model(rng, params, opt_state, image, coords, thetas):
    image_proj = ct_project_double_batch(image, thetas)
    rng = random.split(rng, batch_size)
    rng, new_params, loss = update_network_weights_batch(rng, image_proj, coords, thetas, params, inner_update_steps)
    rng, loss = rng[0], np.mean(loss)
    new_params = jax.tree_map(lambda x: np.mean(x, axis=0), new_params)
    def calc_grad(params, new_params):
        return params - new_params

    model_grad = jax.tree_multimap(calc_grad, params, new_params)

    updates, opt_state = opt.update(model_grad, opt_state)
    params = optix.apply_updates(params, updates)
    return rng, params, opt_state, loss

train_psnrs = []
step = 0
rng = random.PRNGKey(0)
rng_test = random.PRNGKey(42)
n_update_model = n_test = 0  # scaffolding
for step in range(max_iters):  # scaffolding: tqdm dropped
    rng, rng_input = random.split(rng)
    train_idx = random.randint(rng_input, (batch_size,), 0, dataset['data_train'].shape[0])
    train_img = dataset['data_train'][train_idx]
    if batch_size == 1:
        train_img = train_img[None,...]
    
    rng, rng_input = random.split(rng)
    thetas = random.uniform(rng_input, (batch_size, num_projections), minval=0, maxval=np.pi)
    
    rng, params, opt_state, loss = update_model(rng, params, opt_state, train_img, coords, thetas)
    n_update_model += 1  # scaffolding
    train_psnrs.append(-10 * np.log10(loss))

    if step % 500 == 0:
        train_psnrs = []  # scaffolding: plotlosses_model.update dropped
    if step % 2 == 0 and step != 0:  # scaffolding: every 2 steps instead of every 500
        test_psnrs = []
        for i in range(5):
            test_img = dataset['data_test'][i]
            test_img_proj = ct_project_batch(test_img, test_thetas)
            _, params_test, loss = update_network_weights(rng_test, test_img_proj, coords, test_thetas, params, test_steps)
            n_test += 1  # scaffolding
            img = model.apply(params_test, coords)

            test_psnrs.append(psnr_fn(img, test_img))
        # scaffolding: plotting and checkpoint pickling dropped

_report({"jit(update_model)", "jit(update_network_weights)", "jit(model_step)"}, n_update_model + n_test)  # scaffolding
