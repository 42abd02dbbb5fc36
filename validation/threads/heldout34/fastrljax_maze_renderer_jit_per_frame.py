# source: https://github.com/ChaitanyaKatti/fast-RL-jax/blob/01ca6c453403ed3b89c3ef845094a95450d2d5a8/zoo/maze.py
# expect: jit-in-loop-or-body at line 48
# runtime: COMPILES 4 CALLS 4
# why: the renderer closure returned by make_renderer defines `@jax.jit def render_single` (closing over this frame's params) inside renderer(), which is called once per frame, so every rendered frame traces and compiles render_single again.
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
from types import SimpleNamespace

import jax
import jax.numpy as jnp
import numpy as np
from jax import vmap


class MazeEnv:  # (only the renderer factory of zoo/maze.py is kept)
    @staticmethod
    def make_renderer():
        window_name = "MazeEnv"
        closed = {"flag": False}

        def renderer(state, params) -> bool:
            if closed["flag"]:
                return False

            base = params.grid.astype(jnp.float32)

            @jax.jit
            def render_single(occ):
                img = jnp.stack([base, base, base], axis=-1)  # RGB background
                occ = occ.astype(jnp.float32).reshape(params.grid_shape + (1,))
                img = img * (1 - occ) + occ * jnp.array([0.0, 1.0, 0.0])  # mark agent green
                img = img.at[params.goal_point[0], params.goal_point[1]].set(jnp.array([1.0, 0.0, 0.0]))  # goal red
                return img

            plot_grid_size = int(jnp.sqrt(params.num_agents))
            images = vmap(render_single)(state.occupancy[:plot_grid_size**2])
            images = jnp.clip(images, 0.0, 1.0)

            img_size = params.grid_shape[0] * plot_grid_size
            final = jnp.ones((img_size, img_size, 3), dtype=jnp.float32)

            for i, img in enumerate(images):
                row = i // plot_grid_size
                col = i % plot_grid_size
                final = final.at[
                    row * params.grid_shape[0]:(row + 1) * params.grid_shape[0],
                    col * params.grid_shape[1]:(col + 1) * params.grid_shape[1],
                    :
                ].set(img)

            final = np.array((final * 255).astype(jnp.uint8))
            # (cv2 colour conversion, resize, text overlay, imshow and window/keyboard handling cut: cv2 not installed)
            return True

        return renderer


grid = np.ones((8, 8), dtype=bool)  # scaffolding: stands in for MazeEnv.make_params(maze_path=...)
params = SimpleNamespace(grid=jnp.asarray(grid), grid_shape=grid.shape, goal_point=jnp.array([0, 0]),
                         num_agents=4, dt=0.001)
renderer = MazeEnv.make_renderer()
n_frames = 0  # scaffolding
for t in range(4):  # scaffolding: the animate_maze.py loop renders one frame per env step
    occupancy = jnp.zeros((4, 8, 8), dtype=bool).at[:, t, t].set(True)
    renderer(SimpleNamespace(occupancy=occupancy, timestep=jnp.full(4, t)), params)
    n_frames += 1
_report({"jit(render_single)"}, n_frames)
