# source: https://github.com/google-deepmind/tapnet/issues/42
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: Padding the query points with zeros to a fixed count, as the maintainer advises, keeps the input shapes constant so model_apply compiles once.

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
import jax.numpy as jnp
import numpy as np


# scaffolding: haiku/tapnet are not used; build_model.apply stands in for the TAPNet forward pass
# (per-query features sampled from the frames)
class _Model:
    def apply(self, params, state, rng, frames, query_points):
        t = query_points[:, :, 0].astype(jnp.int32)
        yx = query_points[:, :, 1:]
        feats = frames.mean(axis=(2, 3, 4))  # [B, T]
        tracks = yx[:, :, None, :] + feats[:, None, :, None] * params["w"]
        occluded = jnp.take_along_axis(feats, t, axis=1)[..., None] > 0.5
        return {"tracks": tracks, "occlusion": occluded}, state


model = _Model()
params, state = {"w": jnp.ones(())}, {}
model_apply = jax.jit(model.apply)


def inference(frames, query_points):
    """Inference on one video."""
    rng = jax.random.PRNGKey(42)
    frames = frames[None]
    query_points = query_points[None]
    outputs, _ = model_apply(params, state, rng, frames, query_points)
    return outputs["tracks"][0], outputs["occlusion"][0]


# scaffolding: videos of the same resolution and length, each with a different number of query points
rng = np.random.default_rng(0)
videos = [(rng.random((24, 32, 32, 3), dtype=np.float32), n) for n in (50, 80, 120)]
calls = 0
for frames, num_points in videos:
    query_points = np.concatenate(
        [rng.integers(0, 24, (num_points, 1)), rng.random((num_points, 2)) * 32], axis=1
    ).astype(np.float32)
    # maintainer's advice: pad the query points with zeros to a fixed count, drop the padding after
    MAX_POINTS = 128
    padded = np.zeros((MAX_POINTS, 3), dtype=np.float32)
    padded[:num_points] = query_points
    tracks, occluded = inference(frames, padded)
    tracks, occluded = tracks[:num_points], occluded[:num_points]
    calls += 1
_report({"jit(apply)"}, calls)
