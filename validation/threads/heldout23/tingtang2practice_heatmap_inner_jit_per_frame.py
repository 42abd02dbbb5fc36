# source: https://github.com/tingtang2/jax-practice/blob/b8d3a84cbe0d3a3238a10b30cf81e8314d902056/plotting_utils.py
# expect: jit-in-loop-or-body at line 41
# runtime: COMPILES 6 CALLS 6
# why: heatmap_data defines and jits a fresh produce_heatmap on every call, and the gif animation calls it once per frame, so every frame re-traces and recompiles.
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

import numpy as np  # scaffolding
from jax import jit
from jax import numpy as jnp
from jax import vmap


def heatmap_data(positions, area_min=-2, area_max=2):

    def small_kernel(z, area_min, area_max):
        a = jnp.linspace(area_min, area_max, 512)
        x, y = jnp.meshgrid(a, a)
        dist = (x - z[0])**2 + (y - z[1])**2
        hm = jnp.exp(-350 * dist)
        return hm

    @jit
    def produce_heatmap(positions, area_min, area_max):
        return jnp.sum(vmap(small_kernel,
                            in_axes=(0, None, None))(positions, area_min,
                                                     area_max),
                       axis=0)

    hm = produce_heatmap(positions, area_min, area_max)
    return hm


class _Im:  # scaffolding: stand-in for the matplotlib image (matplotlib not installed)
    def set_array(self, a):  # scaffolding
        self.a = a  # scaffolding

im = _Im()  # scaffolding
all_outputs = np.random.default_rng(0).normal(size=(6, 50, 2))  # scaffolding: 6 frames of 50 samples (the trainer uses 101 frames of 1000)

def animate(frame):
    im.set_array(heatmap_data(all_outputs[frame, :, :]))
    return [im]

for frame in range(all_outputs.shape[0]):  # scaffolding: what animation.FuncAnimation(fig, animate, frames=...) does
    animate(frame)  # scaffolding
_report({"jit(produce_heatmap)"}, all_outputs.shape[0])  # scaffolding
