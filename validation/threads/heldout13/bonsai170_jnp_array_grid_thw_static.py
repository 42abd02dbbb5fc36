# source: https://github.com/jax-ml/bonsai/pull/170
# expect: unhashable-static at line 109
# runtime: ERROR ValueError
# why: forward_vision marks image_grid_thw static (static_argnums=(4,)), but run_model.py still builds it as a jnp.array, which cannot be hashed as a static argument.

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
import functools
from dataclasses import dataclass  # scaffolding
from typing import Tuple, TypeAlias

import jax
import jax.numpy as jnp
import numpy as np

# One entry per image/video: ((T1, H1, W1), (T2, H2, W2), ...)
GridTHW: TypeAlias = tuple[tuple[int, int, int], ...]
Array = jax.Array
Cache = dict


# scaffolding: a toy stand-in for Qwen3VLForConditionalGeneration; like the real vision tower it
# builds position tables whose sizes come from the (T, H, W) grid of each image. A pytree, as
# nnx.Module is.
@jax.tree_util.register_dataclass
@dataclass
class ToyQwen3VL:
    scale: Array
    num_grid_per_side = 8
    dim = 4

    def _fast_pos_embed_interpolate_single(self, grid_t: int, grid_h: int, grid_w: int) -> Array:
        h_idxs = jnp.linspace(0, self.num_grid_per_side - 1, grid_h)
        w_idxs = jnp.linspace(0, self.num_grid_per_side - 1, grid_w)
        pos = (h_idxs[:, None] + w_idxs[None, :]).reshape(-1, 1) * jnp.ones((1, self.dim))
        return jnp.tile(pos, (grid_t, 1))

    def __call__(self, input_ids, cache, pixel_values, image_grid_thw, token_type_ids):
        pos = jnp.concatenate(
            [self._fast_pos_embed_interpolate_single(t, h, w) for t, h, w in image_grid_thw], axis=0
        )
        vis = self.scale * pixel_values[: pos.shape[0], : self.dim] + pos
        text = jax.nn.one_hot(input_ids, self.dim)
        logits = text + jnp.mean(vis, axis=0) * token_type_ids[..., None]
        return logits


@functools.partial(jax.jit, static_argnums=(4,))
def forward_vision(
    model,
    cache: Cache,
    input_ids: Array,
    pixel_values: Array,
    image_grid_thw: GridTHW,
    token_type_ids: Array,
) -> Tuple[Array, Cache]:
    """JIT-compiled forward pass with vision inputs.

    image_grid_thw is marked static since its values control array shapes
    (linspace, reshape, arange) in the vision encoder. Different image
    resolutions will trigger recompilation (one-time cost per resolution).
    """
    logits = model(input_ids, cache, pixel_values, image_grid_thw, token_type_ids)
    return logits[:, -1, :], cache


# scaffolding: processor outputs for one 1x4x6 image (numpy stands in for the torch tensors)
class _T(np.ndarray):
    def numpy(self):
        return np.asarray(self)

    def long(self):
        return self.astype(np.int64).view(_T)


inputs_vision = {
    "pixel_values": np.random.RandomState(0).randn(24, 8).astype(np.float32).view(_T),
    "image_grid_thw": np.array([[1, 4, 6]]).view(_T),
}
model = ToyQwen3VL(scale=jnp.ones(()))
cache = {}
input_ids = jnp.array([[1, 151655 % 4, 2]])
token_type_ids = jnp.array([[0, 1, 0]])

# Check for vision inputs (tests/run_model.py)
if "pixel_values" in inputs_vision:
    pixel_values = jnp.array(inputs_vision["pixel_values"].numpy())
    image_grid_thw = jnp.array(inputs_vision["image_grid_thw"].numpy())

calls = 0
try:
    for _ in range(2):  # scaffolding: two decoding calls on the same image
        logits, cache = forward_vision(model, cache, input_ids, pixel_values, image_grid_thw, token_type_ids)
        calls += 1
    _report({"jit(forward_vision)"}, calls)
except Exception as e:
    print(f"ERROR {type(e).__name__}")
