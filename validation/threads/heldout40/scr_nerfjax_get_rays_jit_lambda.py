# source: https://github.com/howaboutyu/nerf-jax/blob/81d2916017a5d87396c805d91a7baf9e76fac61f/datasets.py
# expect: none
# runtime: COMPILES 1 CALLS 5
# why: LegoDataset.__init__ wraps a lambda closing over self.H, self.W and self.focal in jax.jit once, and every render pose has the same shape, so iterating the render set compiles get_rays once.

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
# datasets.py of howaboutyu/nerf-jax at 81d2916 (get_rays, pose helpers, Dataset render iteration, LegoDataset.__init__)
import jax
import jax.numpy as jnp
from dataclasses import dataclass, field
from typing import List
import numpy as np


def get_rays(H, W, focal, pose):
    x, y = jnp.meshgrid(
        jnp.arange(W, dtype=jnp.float32),
        jnp.arange(H, dtype=jnp.float32),
        indexing="xy",
    )
    x = (x - 0.5 * W) / focal
    y = -(y - 0.5 * H) / focal

    direction = jnp.stack([x, y, -jnp.ones_like(x)], -1)

    rot = pose[:3, :3]
    direction = (direction[..., jnp.newaxis, :] * rot).sum(-1)

    # Normalize direction
    direction_norm = jnp.linalg.norm(direction, axis=-1)
    direction = direction / direction_norm[..., jnp.newaxis]

    translation = pose[:3, 3]
    origin = jnp.broadcast_to(translation, direction.shape)

    return origin, direction


def trans(x=0, y=0, z=0):
    return jnp.array(
        [
            [1, 0, 0, x],
            [0, 1, 0, y],
            [0, 0, 1, z],
            [0, 0, 0, 1],
        ],
        dtype=jnp.float32,
    )


def rot_x(rads):
    return jnp.array(
        [
            [1, 0, 0, 0],
            [0, jnp.cos(rads), -jnp.sin(rads), 0],
            [0, jnp.sin(rads), jnp.cos(rads), 0],
            [0, 0, 0, 1],
        ],
        dtype=jnp.float32,
    )


def rot_y(rads):
    return jnp.array(
        [
            [jnp.cos(rads), 0, -jnp.sin(rads), 0],
            [0, 1, 0, 0],
            [jnp.sin(rads), 0, jnp.cos(rads), 0],
            [0, 0, 0, 1],
        ],
        dtype=jnp.float32,
    )


def pose_spherical(theta, phi, radius):
    c2w = trans(z=radius)
    c2w = rot_x(phi / 180.0 * np.pi) @ c2w
    c2w = rot_y(theta / 180.0 * np.pi) @ c2w
    c2w = jnp.array([[-1, 0, 0, 0], [0, 0, 1, 0], [0, 1, 0, 0], [0, 0, 0, 1]]) @ c2w
    return c2w


def generate_render_poses(thetas, phis, radii):
    num_poses = len(thetas)
    new_poses = []
    for i in range(num_poses):
        c2w = pose_spherical(thetas[i], phis[i], radii[i])
        new_poses.append(c2w)
    return np.stack(new_poses, axis=0)


@dataclass
class Dataset:
    W: float
    H: float
    focal: float
    near: float
    far: float
    split_frac: float = 0.9
    batch_size: int = 1024  # <- number of rays per batch
    num_devices: int = 1  # <- number of devices, i.e. number of GPUs
    max_eval: int = 2
    imgs: List[jnp.array] = field(default_factory=lambda: [])
    poses: List[jnp.array] = field(default_factory=lambda: [])

    def __iter__(self):
        self.n = 0
        return self

    def __next__(self):
        if self.subset == "render":
            if self.n < len(self.render_poses):
                pose = self.render_poses[self.n]
                origins, directions = self.get_rays_jit(pose)
                self.n += 1
                return origins, directions
            else:
                raise StopIteration
        raise StopIteration  # scaffolding: the train/val branch is cut

    def gen_render_poses(self, poses, num_poses=5, spherical=False):
        """
        Generates some render poses
        """

        if spherical:
            thetas = np.linspace(0, 360, num_poses)
            phis = np.full(num_poses, -30)
            radii = np.full(num_poses, self.far * 0.8)
            render_poses = generate_render_poses(thetas, phis, radii)
            self.render_poses = render_poses


class LegoDataset(Dataset):
    def __init__(self, config, subset: str):
        self.subset = subset

        self.normalizer = lambda x: x / 255.0

        self.near = config.near
        self.far = config.far

        self.batch_size = config.batch_size

        self.get_raw_data()

        self.get_rays_jit = jax.jit(
            lambda pose: get_rays(self.H, self.W, self.focal, pose)
        )

        self.key = jax.random.PRNGKey(0)

    def get_raw_data(self):
        H, W = 40, 40  # scaffolding: from the transforms json and 800x800 images
        camera_angle_x = 0.69  # scaffolding
        focal = 0.5 * W / jnp.tan(0.5 * camera_angle_x)

        self.H = H
        self.W = W
        self.focal = focal
        if self.subset == "render":
            self.gen_render_poses(None, spherical=True)  # scaffolding: self.poses not loaded


class _Config:  # scaffolding: NerfConfig
    near, far, batch_size = 2.0, 6.0, 2048  # scaffolding


dataset = LegoDataset(_Config(), "render")
n = 0  # scaffolding
for idx, data in enumerate(dataset):
    origins, directions = data
    n += 1  # scaffolding

_report({"jit(<lambda>)"}, n)  # scaffolding
