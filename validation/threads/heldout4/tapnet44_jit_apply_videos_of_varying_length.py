# source: https://github.com/google-deepmind/tapnet/issues/44
# expect: shape-churn at line 49
# runtime: COMPILES 3 CALLS 4
# why: model_apply = jax.jit(model.apply) is built once, but each video in the loop has its own number of frames, so every new frame count is a new input shape and jit recompiles: 3 compiles for 4 videos (24, 30, 24, 36 frames), the recompilation the issue asks about.

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


import haiku as hk
import jax
import jax.numpy as jnp
import numpy as np


def build_model(frames, query_points):  # scaffolding: tiny stand-in for TAPIR
    t = frames.shape[0]
    feat = hk.Linear(2)(frames.reshape(t, -1))
    tracks = query_points[:, None, 1:] + feat[None]
    visibles = jnp.ones(tracks.shape[:2], bool)
    return {"tracks": tracks, "visibles": visibles}


_rs = np.random.RandomState(0)  # scaffolding: four clips of 24, 30, 24 and 36 frames
videos = [_rs.rand(n, 8, 8, 3).astype(np.float32) for n in (24, 30, 24, 36)]  # scaffolding
query_points = jnp.zeros((5, 3))  # scaffolding: 5 query points [t, y, x]


def inference(frames, query_points):
    rng = jax.random.PRNGKey(42)
    outputs, _ = model_apply(params, state, rng, frames, query_points)   ## highlight 1
    return outputs["tracks"], outputs["visibles"]


model = hk.transform_with_state(build_model)
model_apply = jax.jit(model.apply)   ## highlight 2
params, state = model.init(jax.random.PRNGKey(0), jnp.asarray(videos[0]), query_points)  # scaffolding

for video in videos:
    frames = jnp.asarray(video)
    tracks, visibles = inference(frames, query_points)  ## highlight 3
_report({"jit(apply_fn)"}, len(videos))  # scaffolding
