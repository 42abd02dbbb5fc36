# source: https://github.com/Victorlouisdg/jax_cloth/blob/230c39814da9107844500ae4d001af8532febe02/experiments/e0.py
# expect: jit-in-loop-or-body at line 153
# runtime: COMPILES 6 CALLS 5
# why: The loss-landscape sweep wraps jit(jacfwd(jit_loss)) afresh for every x; jacfwd builds a new function object each iteration, so the forward-mode gradient is traced and compiled once per point (jit(loss) itself is cached by function identity).

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


from functools import partial  # scaffolding (user imports below; bpy/jax_cloth cut)
import time

import jax.numpy as jnp
from jax import jit, value_and_grad, jacfwd
from jax.lax import scan


# scaffolding: stand-ins for bpy meshes and jax_cloth.sims.bw (a scan over a damped spring step)
def _get_mesh(name):
    n = 16
    xy = jnp.stack(jnp.meshgrid(jnp.linspace(0, 1, 4), jnp.linspace(0, 1, 4)), -1).reshape(n, 2)
    z = 0.0 if name == "Shirt" else 0.05
    return jnp.concatenate([xy, jnp.full((n, 1), z)], 1), jnp.zeros((18, 3), jnp.int32)


def _sim_bw(initial_state, trajectory, steps, positions_uv, triangles, animated, dt):
    def step(carry, target):
        x, v = carry
        x = x.at[animated].set(target)
        a = (x[:, :2] - positions_uv) * -10.0
        v = v.at[:, :2].add(dt * a)
        x = x + dt * v
        return (x, v), x
    _, history = scan(step, initial_state, xs=trajectory, length=steps)
    return history


class sims:  # scaffolding
    bw = staticmethod(_sim_bw)


class sim:  # scaffolding
    @staticmethod
    def bezier_evaluate(p0, p1, p2, p3, t):
        return (1 - t) ** 3 * p0 + 3 * (1 - t) ** 2 * t * p1 + 3 * (1 - t) * t**2 * p2 + t**3 * p3


t0 = time.time()

object_name = "Shirt"
goal_object_name = "Shirt Folded"

positions, triangles = _get_mesh(object_name)  # scaffolding: was utils.get_mesh
positions_goal, _ = _get_mesh(goal_object_name)  # scaffolding: was utils.get_mesh
positions_uv = positions[:, :2]
velocities = jnp.zeros_like(positions)
initial_state = positions, velocities

amount_of_vertices = positions_uv.shape[0]


fps = 24
substeps = 2  # scaffolding: was 10 (fewer traced steps)
dt = 1.0 / (fps * substeps)
seconds = 1
frames = fps * seconds
steps = frames * substeps

animated = jnp.array([0])

sim_trajectory = partial(
    sims.bw,
    initial_state=initial_state,
    steps=steps,
    positions_uv=positions_uv,
    triangles=triangles,
    animated=animated,
    dt=dt,
)


def initialize_control_points(start_position):
    p0 = start_position
    # p3 = p0.at[0].multiply(-1.0)  # mirror over YZ-plane
    p3 = p0.at[0].multiply(-0.5)  # mirror over YZ-plane

    h = jnp.linalg.norm(p3 - p0) / 2
    p1 = 2 / 3 * p0 + 1 / 3 * p3 + jnp.array([0, 0, h])
    p2 = 1 / 3 * p0 + 2 / 3 * p3 + jnp.array([0, 0, h])

    return p0, p1, p2, p3


p0, p1, p2, p3 = initialize_control_points(positions[0])


def bezier(p0, p1, p2, p3, steps):
    samples = jnp.array(
        [sim.bezier_evaluate(p0, p1, p2, p3, (i + 1) / steps) for i in range(steps)]
    )
    samples = samples.reshape(steps, 1, 3)
    return samples


trajectory = bezier(p0, p1, p2, p3, steps)

z = 0.09
y = 1.02


def loss(x):
    p3 = jnp.array([x, y, z])
    trajectory = bezier(p0, p1, p2, p3, steps)
    history = sim_trajectory(trajectory=trajectory)
    return jnp.sum(jnp.square(positions_goal - history[-1])) / amount_of_vertices


# step = 0.3
# step = 0.025
step = 0.005
# step = 0.001

xs = jnp.arange(0.1, 1.0 + step, step)
xs = xs[:5]  # scaffolding: 181 points cut to 5
losses = []
grads = []

for x in xs:
    # Reverse mode
    # loss_value, loss_grad = jit(value_and_grad(loss))(x)

    # Forward mode
    jit_loss = jit(loss)
    loss_value = jit_loss(x)
    loss_grad = jit(jacfwd(jit_loss))(x)

    losses.append(loss_value)
    grads.append(loss_grad)
    print(f"Loss for x = {x} is {loss_value}, grad is {loss_grad}")

_report({"jit(loss)"}, len(xs))  # scaffolding
