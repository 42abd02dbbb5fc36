# source: https://github.com/codestella/putting-nerf-on-a-diet/pull/11
# expect: trace-time-error at line 78
# runtime: ERROR ConcretizationTypeError
# why: single_step is a plain @jit, so its last two arguments, N_samples (a Python int used as np.linspace's count) and model (a flax.linen Module), are not static; on jax 0.10.2 the first failure is the traced N_samples reaching np.linspace, which needs a concrete count and raises ConcretizationTypeError. The PR fixes it with static_argnums=[6, 7].

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
import jax.numpy as np
from jax import jit, random
import flax.linen as nn


def render_rays(rnd_input, model, params,
                bvals, rays, near, far,
                N_samples, rand=False, allret=False):
    rays_o, rays_d = rays

    # Compute 3D query points
    z_vals = np.linspace(near, far, N_samples)
    if rand:
        z_vals += random.uniform(rnd_input, shape=list(rays_o.shape[:-1]) + [N_samples]) * (far - near) / N_samples
    # r(t) = o + t*d
    pts = rays_o[..., None, :] + rays_d[..., None, :] * z_vals[..., :, None]

    # Run network
    pts_flat = np.reshape(pts, [-1, 3])
    if bvals is not None:
        pts_flat = np.concatenate([np.sin(pts_flat @ bvals.T),
                                   np.cos(pts_flat @ bvals.T)], axis=-1)

    raw = model.apply(params, pts_flat)
    raw = np.reshape(raw, list(pts.shape[:-1]) + [4])

    # Compute opacities and colors
    rgb, sigma_a = raw[..., :3], raw[..., 3]
    sigma_a = jax.nn.relu(sigma_a)
    rgb = jax.nn.sigmoid(rgb)

    # Do volume rendering
    dists = np.concatenate([z_vals[..., 1:] - z_vals[..., :-1], np.broadcast_to(np.array([1e10]), z_vals[..., :1].shape)], -1)
    alpha = 1. - np.exp(-sigma_a * dists)
    trans = np.minimum(1., 1. - alpha + 1e-10)
    trans = np.concatenate([np.ones_like(trans[..., :1]), trans[..., :-1]], -1)
    weights = alpha * np.cumprod(trans, -1)

    rgb_map = np.sum(weights[..., None] * rgb, -2)
    acc_map = np.sum(weights, -1)

    if not allret:
        return rgb_map

    depth_map = np.sum(weights * z_vals, -1)

    return rgb_map, depth_map, acc_map

@jit
def single_step(rng, image, rays, params, bds, inner_step_size, N_samples, model):
    def sgd(param, update):
        return param - inner_step_size * update

    rng, rng_inputs = jax.random.split(rng)

    def loss_model(params):
        g = render_rays(rng_inputs, model, params, None, rays, bds[0], bds[1], N_samples, rand=True)
        return mse_fn(g, image)

    model_loss, grad = jax.value_and_grad(loss_model)(params)
    new_params = jax.tree_util.tree_map(sgd, params, grad)
    return rng, new_params, model_loss


mse_fn = jit(lambda x, y: np.mean((x - y)**2))

model = nn.Dense(4)  # scaffolding
params = model.init(random.PRNGKey(0), np.ones((1, 3)))  # scaffolding
rays = (np.zeros((8, 3)), np.ones((8, 3)))  # scaffolding
image = np.ones((8, 3)) * 0.5  # scaffolding
bds = np.array([2.0, 6.0])  # scaffolding
rng = random.PRNGKey(1)  # scaffolding
try:  # scaffolding
    for _ in range(2):  # scaffolding
        rng, params, loss = single_step(rng, image, rays, params, bds, 0.1, 16, model)
    _report({"jit(single_step)"}, 2)
except Exception as e:
    print(f"ERROR {type(e).__name__}")
