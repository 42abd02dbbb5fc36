# source: https://github.com/howaboutyu/nerf-jax/blob/81d2916017a5d87396c805d91a7baf9e76fac61f/renderer.py
# expect: shape-churn at line 106
# runtime: COMPILES 2 CALLS 9
# why: render_step slices the flattened rays in eval_batch_size chunks without padding, so the last, shorter chunk of every image has a new shape and jit_eval_nerf_func compiles a second time.

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
# renderer.py of howaboutyu/nerf-jax at 81d2916 (render_step verbatim; render_nerf's jit and render loop), with datasets.get_rays
import functools
import jax
import jax.numpy as jnp
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


# --- scaffolding: stand-in for nerf.get_nerf / get_model (coarse+fine MLP renderer) ---
def eval_nerf(params, key, origins, directions, model_func=None):  # scaffolding
    ts = jnp.linspace(2.0, 6.0, 8)[None, :] * jnp.ones((origins.shape[0], 1))  # scaffolding
    pts = origins[:, None, :] + directions[:, None, :] * ts[..., None]  # scaffolding
    rgb = jax.nn.sigmoid(model_func(params, pts))  # scaffolding
    weights = jax.nn.softmax(-ts, axis=-1)  # scaffolding
    rendered = (weights[..., None] * rgb).sum(1)  # scaffolding
    return (rendered, rendered), weights, ts  # scaffolding


def model(params, pts):  # scaffolding
    return pts @ params["w"]  # scaffolding


class _State:  # scaffolding: train_state.TrainState restored from the checkpoint
    params = {"w": jnp.eye(3)}  # scaffolding
# --- end scaffolding ---


def render_step(nerf_func, state, val_data, eval_batch_size):
    """
    Render step, takes in an entire image and returns the predicted image

    Inputs:
        nerf_func: a function performs the nerf algorithm
        state: replicated train state
        val_data: origins and directions of rays each with [H, W, 3]
        eval_batch_size: batch size for evaluation
    Outputs:
        pred_img: predicted images [H, W, 3]
        depth_img: predicted images [H, W, 3]

    """

    # for eval key stays the same
    key = jax.random.PRNGKey(0)

    eval_origins = val_data[0]
    eval_directions = val_data[1]

    origins_flattened = eval_origins.reshape(-1, 3)
    directions_flattened = eval_directions.reshape(-1, 3)

    pred_img_parts = []
    pred_depth_parts = []
    for i in range(0, origins_flattened.shape[0], eval_batch_size):
        origin = origins_flattened[i : i + eval_batch_size]
        direction = directions_flattened[i : i + eval_batch_size]

        (rendered, rendered_hvs), weights, ts = nerf_func(
            params=state.params,
            key=key,
            origins=origin,
            directions=direction,
        )
        _N_CALLS.append(1)  # scaffolding

        depth_hvs = jnp.sum(weights * ts, -1)

        pred_img_parts.append(rendered_hvs)
        pred_depth_parts.append(depth_hvs)

    # Reshape image
    pred_img = jnp.concatenate(pred_img_parts, axis=0)
    pred_img = pred_img.reshape(eval_origins.shape)

    # expand dims tf.ssims expects [B, H, W, C]
    pred_img = jnp.expand_dims(pred_img, axis=0)

    # Reshape depth image
    pred_depth = jnp.concatenate(pred_depth_parts, axis=0)
    pred_depth = pred_depth.reshape(eval_origins.shape[:-1])
    pred_depth = jnp.expand_dims(pred_depth, axis=[0, -1])

    return pred_img, pred_depth


_N_CALLS = []  # scaffolding
H, W, focal = 40, 40, 50.0  # scaffolding: 40x40 instead of the 800x800 lego images
batch_size = 768  # scaffolding: 768 rays instead of configs/lego.yaml's 2048 (1600 % 768 != 0, like 640000 % 2048)

# render_nerf()
eval_state = _State()  # scaffolding
eval_nerf_func = eval_nerf  # scaffolding: get_nerf_eval_func(config)
jit_eval_nerf_func = jax.jit(functools.partial(eval_nerf_func, model_func=model))

get_rays_jit = jax.jit(lambda pose: get_rays(H, W, focal, pose))  # scaffolding: the dataset's get_rays_jit
render_poses = [np.eye(4) + 0.01 * k for k in range(3)]  # scaffolding: 3 render poses

# Render images and save to file
for idx, pose in enumerate(render_poses):
    data = get_rays_jit(pose)  # scaffolding: iterating dataset["render"]
    pred_img, pred_depth = render_step(
        jit_eval_nerf_func, eval_state, data, batch_size
    )

_report({"jit(eval_nerf)"}, len(_N_CALLS))  # scaffolding
