# source: https://github.com/tancik/learnit/blob/ac6dc3ea383711e6549b452f2346498c8bca69ae/Experiments/2d_ct.ipynb
# expect: changing-static at line 118
# runtime: COMPILES 4 CALLS 12
# why: test_model_step marks the haiku model and the optimizer static, but train_model builds a fresh hk.transform(lambda ...) and a fresh optix.sgd(lr) on every call, so each test image's test-time optimisation recompiles test_model_step (4 images, 4 compiles).

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
# Experiments/2d_ct.ipynb of tancik/learnit at ac6dc3e (companion notebook of "Learned Initializations for Optimizing Coordinate-Based Neural Representations", CVPR 2021); cells 1, 5, 7, 13, 18 in order
# cell 1
from functools import partial
import jax
from jax import random, grad, jit, vmap, flatten_util, nn
import optax as optix  # scaffolding: jax.experimental.optix was removed from jax; optax is its successor with the same adam/sgd/apply_updates
import jax.numpy as np
import numpy as onp  # scaffolding

import haiku as hk

from jax.scipy import ndimage

# scaffolding: a synthetic stand-in for ct_256.pkl (phantom images), 32x32 instead of 256x256
RES = 32  # scaffolding: RES is used by train_model but not defined in the notebook
dataset = {'data_test': onp.random.RandomState(0).rand(5, RES, RES).astype(onp.float32)}  # scaffolding
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
# cell 13
mse_fn = jit(lambda x, y: np.mean((x - y)**2))
psnr_fn = jit(lambda x, y: -10 * np.log10(mse_fn(x, y)))

@partial(jit, static_argnums=[0,5])
def test_model_step(model, image_proj, coords, thetas, params, opt, opt_state):
    def loss_fn(params):
        g = model.apply(params, coords)
        g_proj = ct_project_batch(g, thetas)
        return mse_fn(g_proj, image_proj), g

    (loss, img), grad = jax.value_and_grad(loss_fn, has_aux=True)(params)
    updates, opt_state = opt.update(grad, opt_state)
    params = optix.apply_updates(params, updates)
    return params, opt_state, loss, img

def train_model(image, lr, steps, num_views, adam=True, params=None):
    rng = random.PRNGKey(0)
    x1 = np.linspace(0, 1, RES+1)[:-1]
    coords = np.stack(np.meshgrid(x1,x1), axis=-1)
    
    thetas = np.linspace(0,np.pi, num_views, endpoint=False)
    image_proj = ct_project_batch(image, thetas)

    model = hk.without_apply_rng(hk.transform(lambda x: Model()(x)))
    if params is None:
        params = model.init(rng, coords)
        
    if adam:
        opt = optix.adam(lr)
    else:
        opt = optix.sgd(lr)
    opt_state = opt.init(params)
    
    train_psnrs = []
    test_psnrs = []
    for i in range(steps):
        params, opt_state, loss, img = test_model_step(model, image_proj, coords, thetas, params, opt, opt_state)
        train_psnrs.append(-10 * np.log10(loss))
        test_psnrs.append(psnr_fn(img, image))

    return train_psnrs, test_psnrs, img, params
# cell 15 (scaffolding: stands in for loading the meta-learned checkpoint pickle)
params = hk.without_apply_rng(hk.transform(lambda x: Model()(x))).init(random.PRNGKey(1), np.ones((1, 2)))  # scaffolding
# cell 18
num_views = 6
lr = 10
steps = 3  # scaffolding: 3 instead of 1000
adam = False

num_examples = 4

for image in dataset['data_test'][:num_examples]:
    train_psnrs, test_psnrs, rec_img, _ = train_model(image, lr, steps, num_views, adam, params)
    rec_img = (np.clip(rec_img, 0, 1)*255).astype(np.uint8)
    # scaffolding: the figure (plt.subplot/imshow/show) is left out

_report({"jit(test_model_step)"}, num_examples * steps)  # scaffolding
