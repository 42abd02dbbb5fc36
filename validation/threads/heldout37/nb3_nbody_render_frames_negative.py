# source: https://github.com/rdaems/n-body/blob/dd61597e500dddf5cbbe5d305a6c555011db7c8a/main.py
# expect: none
# runtime: COMPILES 1 CALLS 6
# why: The jitted render() is called once per frame inside a Python loop and reads module globals only through helper functions of constants; every frame has the same shape, so it compiles once.

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


import numpy as np
import jax
import jax.numpy as jnp
import jax.random as jrandom
# (diffrax and imageio imports dropped: the solve is replaced by stand-in data, the writer by a list)


n = 200         # number of bodies  # scaffolding: 10000 in the script
g = .0001       # gravitational constant
m = 1.          # mass of the bodies
radius = .1     # radius of the bodies, forces will naturally soften when two bodies 'overlap'

num_timesteps = 6  # scaffolding: 400 in the script
timestep = .01
ts = jnp.arange(num_timesteps) * timestep
key = jrandom.PRNGKey(7)

# chess board
x_init = jrandom.uniform(key, (2 * n, 2), minval=-.8, maxval=.8)
x_init = x_init[(jnp.floor(x_init[:, 0] / .2) + jnp.floor(x_init[:, 1] / .2)) % 2 == 1]
n = len(x_init)
v_init = jnp.zeros((n, 2))


def smooth(x):
    z = jnp.linspace(-2., 2., 3)
    kernel = jnp.exp(- (z[None, :] ** 2 + z[:, None] ** 2))
    return jax.scipy.signal.convolve(x, kernel, mode='same')


def colormap(x):
    background = jnp.array([253, 252, 220])
    point = jnp.array([18, 18, 18])

    x = jnp.clip(x * .5, 0, 1)
    x = (1 - x[..., None]) * background + x[..., None] * point
    return jnp.clip(x, 0, 255).astype(jnp.uint8)


@jax.jit
def render(x):
    canvas, _, _ = jnp.histogram2d(x[:, 0], x[:, 1], bins=(1024, 1024), range=[[-1., 1.], [-1., 1.]])
    canvas = smooth(canvas.astype(jnp.float32))
    canvas = colormap(canvas)
    return canvas


# scaffolding: stand-in for diffrax.diffeqsolve(...).ys (straight-line motion)
xs = x_init[None] + ts[:, None, None] * jnp.ones((1, 1, 2))

frames = []  # scaffolding: imageio writer
for x in xs:
    frame = render(x)
    frames.append(np.asarray(frame))
_report({"jit(render)"}, len(frames))
