# source: https://github.com/AI-Hypercomputer/maxtext/commit/c2a5fedf76e7e0c70a899b1b7085d54a77e75d55
# expect: trace-time-error at line 96
# runtime: ERROR ConcretizationTypeError
# why: __init__ computes int(jnp.sqrt(num_position_embeddings)); when the module is built inside a jitted init the jnp result is a tracer, and int() raises ConcretizationTypeError.

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


import jax
import jax.numpy as jnp
from flax import nnx
from jax import Array

DType = jnp.dtype  # scaffolding
nnx.use_eager_sharding(False)  # scaffolding: no mesh here; maxtext annotates the table for its mesh


# src/MaxText/layers/embeddings.py (before the commit; the class cut after __init__)
class Qwen3OmniMoeVisionPosEmbedInterpolate(nnx.Module):
  """Bilinear interpolation of learned 2D positional embeddings for Qwen3OmniMoe vision.

  This module maintains a fixed grid of learned positional embeddings and interpolates
  them to match dynamic input dimensions using bilinear interpolation. This allows
  the model to handle images/videos of varying sizes while using a fixed embedding table.

  Attributes:
    num_position_embeddings: Number of position embeddings in the fixed grid
    hidden_size: Hidden dimension size
    spatial_merge_size: Spatial merge block size
    dtype: Data type for embeddings
    cast_as_fprop_dtype: Whether to cast to fprop dtype
    fprop_dtype: Output dtype
    rngs: RNG state passed in by nnx.bridge.to_linen
  """

  def __init__(
      self,
      num_position_embeddings: int,
      hidden_size: int,
      spatial_merge_size: int,
      dtype: DType = jnp.float32,
      cast_as_fprop_dtype: bool = True,
      fprop_dtype: DType = jnp.bfloat16,
      rngs: nnx.Rngs = None,
  ):
    """Initializes the Qwen3OmniMoe vision position embedding interpolation module.

    Args:
      num_position_embeddings: Number of position embeddings in the fixed grid
      hidden_size: Hidden dimension size
      spatial_merge_size: Spatial merge block size
      dtype: Data type for embeddings
      cast_as_fprop_dtype: Whether to cast to fprop dtype
      fprop_dtype: Output dtype
      rngs: RNG state passed in by nnx.bridge.to_linen
    """
    self.num_position_embeddings = num_position_embeddings
    self.hidden_size = hidden_size
    self.spatial_merge_size = spatial_merge_size
    self.dtype = dtype
    self.cast_as_fprop_dtype = cast_as_fprop_dtype
    self.fprop_dtype = fprop_dtype
    self.rngs = rngs

    # Initialize the learned position embedding table
    if self.rngs is not None:
      # Initialize with normal distribution scaled by hidden_size^(-0.5)
      init_fn = nnx.initializers.normal(stddev=self.hidden_size**-0.5)
      self.pos_embed = nnx.Param(
          init_fn(
              self.rngs.params(),
              (self.num_position_embeddings, self.hidden_size),
              self.dtype,
          ),
          sharding=("embed", "embed"),
      )
    self.num_grid_per_side = int(jnp.sqrt(self.num_position_embeddings))


# scaffolding: the module is built inside a traced init (as the Linen-bridged model's jitted init does), twice
def init_table():
  m = Qwen3OmniMoeVisionPosEmbedInterpolate(num_position_embeddings=2304, hidden_size=32, spatial_merge_size=2, rngs=nnx.Rngs(0))
  return m.pos_embed[...], m.num_grid_per_side


init = jax.jit(init_table)
calls = 0
try:  # scaffolding
  for _ in range(2):
    table, side = init()
    calls += 1
  _report({"jit(init_table)"}, calls)
except Exception as e:  # scaffolding
  print(f"ERROR {type(e).__name__}")
