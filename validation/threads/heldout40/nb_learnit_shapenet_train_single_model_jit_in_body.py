# source: https://github.com/tancik/learnit/blob/ac6dc3ea383711e6549b452f2346498c8bca69ae/Experiments/shapenet.ipynb
# expect: jit-in-loop-or-body at line 175
# runtime: COMPILES 5 CALLS 15
# why: train_single_model defines @jit update_model (closing over a freshly built model and optimizer) inside its body, and the evaluation cell calls train_single_model once per test chair, so update_model is traced and compiled again for each of the 5 objects although shapes and hyperparameters are the same.

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
# Experiments/shapenet.ipynb of tancik/learnit at ac6dc3e (companion notebook of "Learned Initializations for Optimizing Coordinate-Based Neural Representations", CVPR 2021); cells 1, 3, 5, 6, 7, 12, 14, 16 in order
# cell 1
from functools import partial
import jax
from jax import random, grad, jit, vmap, flatten_util, nn
import optax as optix  # scaffolding: jax.experimental.optix was removed from jax; optax is its successor
import jax.numpy as np
import numpy as onp  # scaffolding

import haiku as hk

import os
import json
import pickle

rng = jax.random.PRNGKey(42)
# cell 3 (scaffolding: the ShapeNet chairs loader reads transforms.json and PNGs; a stand-in returns 30 random 10x10 views)
def load_train_ex(train_ex_dir, key=None):  # scaffolding
    r = onp.random.RandomState(int(train_ex_dir))  # scaffolding
    imgs = r.rand(30, 10, 10, 3).astype(onp.float32)  # scaffolding
    poses = onp.tile(onp.eye(4, dtype=onp.float32), (30, 1, 1))  # scaffolding
    poses[:, 2, 3] = 4.0  # scaffolding: camera 4 units away, looking down -z
    poses[:, :3, 3] += r.randn(30, 3).astype(onp.float32) * 0.1  # scaffolding
    return imgs, poses, [10, 10, 12.0]  # scaffolding

test_exs = [str(i) for i in range(5)]  # scaffolding
# cell 5
def get_rays(H, W, focal, c2w):
    i, j = np.meshgrid(np.arange(W), np.arange(H), indexing='xy')
    dirs = np.stack([(i-W*.5)/focal, -(j-H*.5)/focal, -np.ones_like(i)], -1)
    rays_d = np.sum(dirs[..., np.newaxis, :] * c2w[:3,:3], -1)
    rays_o = np.broadcast_to(c2w[:3,-1], rays_d.shape)
    return np.stack([rays_o, rays_d], 0)

get_rays = jit(get_rays, static_argnums=(0, 1))
get_ray_batch = jax.vmap(get_rays, in_axes=[None, None, None, 0], out_axes=1)
# cell 6
def render_rays(rnd_input, model, params, rays, N_samples, rand=False, allret=False):
    rays_o, rays_d = rays
    
    near = 2
    far = 6

    # Compute 3D query points
    z_vals = np.linspace(near, far, N_samples) 
    if rand:
        z_vals += random.uniform(rnd_input, shape=list(rays_o.shape[:-1]) + [N_samples]) * (far-near)/N_samples
    pts = rays_o[...,None,:] + rays_d[...,None,:] * z_vals[...,:,None]
    
    # Run network
    pts_flat = np.reshape(pts, [-1,3])
        
    raw = model.apply(params, pts_flat)
    raw = np.reshape(raw, list(pts.shape[:-1]) + [4])
    
    # Compute opacities and colors
    rgb, sigma_a = raw[...,:3], raw[...,3]
    sigma_a = jax.nn.relu(sigma_a)
    rgb = jax.nn.sigmoid(rgb) 
    
    # Do volume rendering
    dists = np.concatenate([z_vals[..., 1:] - z_vals[..., :-1], np.broadcast_to(np.array([1e-3]), z_vals[...,:1].shape)], -1)  # scaffolding: [1e-3] wrapped in np.array (jnp no longer takes lists)
    alpha = 1. - np.exp(-sigma_a * dists)
    trans = np.minimum(1., 1. - alpha + 1e-10)
    trans = np.concatenate([np.ones_like(trans[...,:1]), trans[...,:-1]], -1)  
    weights = alpha * np.cumprod(trans, -1)
    
    rgb_map = np.sum(weights[...,None] * rgb, -2)
    acc_map = np.sum(weights, -1)    
    rgb_map = rgb_map + (1.-acc_map[...,None]) # white background 
    
    if False:
        rgb_map = rgb_map + (1.-acc_map[..., None])
    
    if not allret:
        return rgb_map
    
    depth_map = np.sum(weights * z_vals, -1) 

    return rgb_map, depth_map, acc_map

def render_fn_inner(rnd_input, model, params, rays, rand, allret, N_samples):
    return render_rays(rnd_input, model, params, rays, N_samples=N_samples, rand=rand, allret=allret)
render_fn_inner = jit(render_fn_inner, static_argnums=(1, 4, 5, 6))

def render_fn(rnd_input, model, params, rays, N_samples, rand):
    chunk = 5
    for i in range(0, rays.shape[1], chunk):
        out = render_fn_inner(rnd_input, model, params, rays[:,i:i+chunk], rand, True, N_samples)
        if i==0:
            rets = out
        else:
            rets = [np.concatenate([a, b], 0) for a, b in zip(rets, out)]
    return rets
# cell 7
class Model(hk.Module):
    def __init__(self):
        super().__init__()
        self.width = 256
        self.depth = 6
        self.use_viewdirs = False
                
    def __call__(self, coords, view_dirs=None):
        sh = coords.shape
        if self.use_viewdirs:
            viewdirs = None
            viewdirs = np.repeat(viewdirs[...,None,:], coords.shape[-2], axis=-2)
            viewdirs /= np.linalg.norm(viewdirs, axis=-1, keepdims=True)
            viewdirs = np.reshape(viewdirs, (-1,3))
            viewdirs = hk.Linear(output_size=self.width//2)(viewdirs)
            viewdirs = jax.nn.relu(viewdirs)
        coords = np.reshape(coords, [-1,3])
        
        x = np.concatenate([np.concatenate([np.sin(coords*(2**i)), np.cos(coords*(2**i))], axis=-1) for i in np.linspace(0,8,20)], axis=-1)

        for _ in range(self.depth-1):
            x = hk.Linear(output_size=self.width)(x)
            x = jax.nn.relu(x)
            
        if self.use_viewdirs:
            density = hk.Linear(output_size=1)(x)
            x = np.concatenate([x,viewdirs], axis=-1)
            x = hk.Linear(output_size=self.width)(x)
            x = jax.nn.relu(x)
            rgb = hk.Linear(output_size=3)(x)
            out = np.concatenate([density, rgb], axis=-1)
        else:
            out = hk.Linear(output_size=4)(x)
        out = np.reshape(out, list(sh[:-1]) + [4])
        return out
# cell 12
def train_single_model(max_iters, rng, num_views=25, lr=1e-4, batch_size=64, N_samples=128, init_params=None, image_idx=0):

    model = hk.without_apply_rng(hk.transform(lambda x, y=None: Model()(x, y)))

    if init_params !=None:
        params = init_params
    else:
        params = model.init(rng, np.ones((1,3)))

    opt = optix.sgd(lr)
    opt_state = opt.init(params)

    mse_fn = jit(lambda x, y: np.mean((x - y)**2))
    psnr_fn = jit(lambda x, y: -10 * np.log10(mse_fn(x, y)))

    @jit
    def update_model(rng, params, opt_state, image, rays):
        rng, rng_inputs = jax.random.split(rng)
        def loss_model(params):
            g = render_rays(rng_inputs, model, params, rays, N_samples, rand=True, )
            return mse_fn(g, image)
        model_loss, model_grad = jax.value_and_grad(loss_model, argnums=0)(params)
        updates, opt_state = opt.update(model_grad, opt_state)
        params = optix.apply_updates(params, updates)
        return rng, params, opt_state, model_loss

    images, poses, hwf = load_train_ex(test_exs[image_idx], rng)
    images, test_images = np.split(images, [25], axis=0)
    poses, test_poses = np.split(poses, [25], axis=0)

    images = images[:num_views]
    poses = poses[:num_views]
    
    H, W, focal = hwf
    rays = get_ray_batch(H, W, focal, poses)

    images_ = images
    images = np.reshape(images, (-1,3))
    rays = np.reshape(rays, (2,-1,3))

    for step in range(max_iters):
        idx = random.randint(rng, shape=(batch_size,), minval=0, maxval=(images.shape[0]))
        train_image = images[idx,:]
        train_rays = rays[:,idx,:]

        rng, params, opt_state, loss = update_model(rng, params, opt_state, train_image, train_rays)

    return params, images_
# cell 14 (scaffolding: stands in for loading the meta-learned checkpoint pickle)
params = hk.without_apply_rng(hk.transform(lambda x, y=None: Model()(x, y))).init(rng, np.ones((1, 3)))  # scaffolding
# cell 16
max_iters = 3  # scaffolding: 3 instead of 1000
num_views = 1 # How many views to test-time optimize over
lr= 0.5

N_samples = 8  # scaffolding: 8 instead of 128
model = hk.without_apply_rng(hk.transform(lambda x, y=None: Model()(x, y)))

for i in range(5):
    test_params, sup_images = train_single_model(max_iters, rng, num_views=num_views, lr=lr, init_params=params, image_idx=i)
    
    images, poses, hwf = load_train_ex(test_exs[i], rng)
    images, test_images = np.split(images, [25], axis=0)
    poses, test_poses = np.split(poses, [25], axis=0)
    
    if num_views == 1:
        pass  # scaffolding: plotting dropped
    
    for j in range(5):
        test_rays = get_rays(hwf[0], hwf[1], hwf[2], test_poses[j])

        test_result = np.clip(render_fn(random.PRNGKey(0), model, test_params, test_rays, N_samples, rand=False)[0], 0, 1)

        # scaffolding: plotting dropped

_report({"jit(update_model)"}, 5 * max_iters)  # scaffolding
