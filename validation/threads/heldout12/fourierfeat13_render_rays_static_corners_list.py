# source: https://github.com/tancik/fourier-feature-networks/issues/13
# expect: unhashable-static at line 144
# runtime: ERROR ValueError
# why: render_rays is jitted with static_argnums=(3,...,8), and argument 3 is the mesh's corners, a Python list of two numpy arrays, which cannot be hashed as a static argument, so the first rendering inside run_training raises.

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
from jax import random, grad, jit, vmap
import jax.numpy as np

from jax.example_libraries import stax  # scaffolding: was jax.experimental.stax

import numpy as onp

## Random seed
rand_key = random.PRNGKey(0)


def make_network(num_layers, num_channels):
  layers = []
  for i in range(num_layers-1):
      layers.append(stax.Dense(num_channels))
      layers.append(stax.Relu)
  layers.append(stax.Dense(1))
  return stax.serial(*layers)


input_encoder = jit(lambda x, a, b: (np.concatenate([a * np.sin((2.*np.pi*x) @ b.T), 
                                                     a * np.cos((2.*np.pi*x) @ b.T)], axis=-1) / np.linalg.norm(a)) if a is not None else (x * 2. - 1.))



trans_t = lambda t : np.array([
    [1,0,0,0],
    [0,1,0,0],
    [0,0,1,t],
    [0,0,0,1],
], dtype=np.float32)

rot_phi = lambda phi : np.array([
    [1,0,0,0],
    [0,np.cos(phi),-np.sin(phi),0],
    [0,np.sin(phi), np.cos(phi),0],
    [0,0,0,1],
], dtype=np.float32)

rot_theta = lambda th : np.array([
    [np.cos(th),0,-np.sin(th),0],
    [0,1,0,0],
    [np.sin(th),0, np.cos(th),0],
    [0,0,0,1],
], dtype=np.float32)


def pose_spherical(theta, phi, radius):
    c2w = trans_t(radius)
    c2w = rot_phi(phi/180.*np.pi) @ c2w
    c2w = rot_theta(theta/180.*np.pi) @ c2w
    return c2w



def get_rays(H, W, focal, c2w):
    i, j = np.meshgrid(np.arange(W), np.arange(H), indexing='xy')
    dirs = np.stack([(i-W*.5)/focal, -(j-H*.5)/focal, -np.ones_like(i)], -1)
    rays_d = np.sum(dirs[..., np.newaxis, :] * c2w[:3,:3], -1)
    rays_o = np.broadcast_to(c2w[:3,-1], rays_d.shape)
    return np.stack([rays_o, rays_d], 0)

get_rays = jit(get_rays, static_argnums=(0, 1, 2,))

#########


def render_rays_native_hier(params, ab, rays, corners, near, far, N_samples, N_samples_2, clip): #, rand=False):
    rays_o, rays_d = rays[0], rays[1]
    c0, c1 = corners

    th = .5
    
    # Compute 3D query points
    z_vals = np.linspace(near, far, N_samples) 
    pts = rays_o[...,None,:] + rays_d[...,None,:] * z_vals[...,:,None]
    
    # Run network
    alpha = jax.nn.sigmoid(np.squeeze(apply_fn(params, input_encoder(.5 * (pts + 1), *ab))))
    if clip:
      mask = np.logical_or(np.any(.5 * (pts + 1) < c0, -1), np.any(.5 * (pts + 1) > c1, -1))
      alpha = np.where(mask, 0., alpha)

    alpha = np.where(alpha > th, 1., 0)

    trans = 1.-alpha + 1e-10
    trans = np.concatenate([np.ones_like(trans[...,:1]), trans[...,:-1]], -1)  
    weights = alpha * np.cumprod(trans, -1)
    
    depth_map = np.sum(weights * z_vals, -1) 
    acc_map = np.sum(weights, -1)

    # Second pass to refine isosurface

    z_vals = np.linspace(-1., 1., N_samples_2) * .01 + depth_map[...,None]
    pts = rays_o[...,None,:] + rays_d[...,None,:] * z_vals[...,:,None]

    # Run network
    alpha = jax.nn.sigmoid(np.squeeze(apply_fn(params, input_encoder(.5 * (pts + 1), *ab))))
    if clip:
      mask = np.logical_or(np.any(.5 * (pts + 1) < c0, -1), np.any(.5 * (pts + 1) > c1, -1))
      alpha = np.where(mask, 0., alpha)

    alpha = np.where(alpha > th, 1., 0)

    trans = 1.-alpha + 1e-10
    trans = np.concatenate([np.ones_like(trans[...,:1]), trans[...,:-1]], -1)  
    weights = alpha * np.cumprod(trans, -1)
    
    depth_map = np.sum(weights * z_vals, -1) 
    acc_map = np.sum(weights, -1)

    return depth_map, acc_map

render_rays = jit(render_rays_native_hier, static_argnums=(3,4,5,6,7,8))

init_fn, apply_fn = make_network(3, 16)  # scaffolding: make_network(8, 256) cut down

R = 2.
c2w = pose_spherical(90. + 10 + 45, -30., R)

N_samples = 8  # scaffolding: 64 cut down
N_samples_2 = 8  # scaffolding: 64 cut down
H = 12  # scaffolding: 180 cut down
W = H
focal = H * .9
rays = get_rays(H, W, focal, c2w[:3,:4])

render_args_lr = [get_rays(H, W, focal, c2w[:3,:4]), None, R-1, R+1, N_samples, N_samples_2, True]

# load_mesh: corners of the recentred mesh (scaffolding: a random point cloud stands in for the trimesh mesh)
vertices = onp.random.RandomState(0).uniform(size=[100, 3])  # scaffolding
c0, c1 = vertices.min(0) - 1e-3, vertices.max(0) + 1e-3
corners = [c0, c1]
render_args_lr[1] = corners

# run_training: 'gauss' embedding and the rendering done at every 100th step
bvals = onp.random.normal(size=[16,3]) * 12.  # scaffolding: embedding_size 256 cut to 16
avals = np.ones_like(bvals[:,0])
ab = (avals, bvals)
x_enc = input_encoder(np.ones([1,3]), avals, bvals)
_, net_params = init_fn(rand_key, (-1, x_enc.shape[-1]))
calls = 0  # scaffolding
try:  # scaffolding
    for it in range(2):  # scaffolding: two logging steps
        renderings = list(render_rays(net_params, ab, *render_args_lr))
        calls += 1  # scaffolding
    _report({"jit(render_rays_native_hier)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
    print("ERROR", type(e).__name__)  # scaffolding
