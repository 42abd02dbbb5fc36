# source: https://github.com/google/praxis/commit/527b4787a9f30e4e7ccda1dc1b03d6694453186a
# expect: trace-time-error at line 73
# runtime: ERROR TracerBoolConversionError
# why: _emb_ngrammer branches with a Python `if time_step > 0:` on the decode-state time step, which is a tracer when extend_step is jitted, so tracing raises TracerBoolConversionError.
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


class _DecodeStateLayer:  # scaffolding: the decode-state API of praxis base_layer.BaseLayer, as a plain dict
  def __init__(self):
    self._decode_state = {}

  def get_decode_state(self, name):
    return self._decode_state[name]

  def update_decode_state(self, name, value):
    self._decode_state[name] = value


class TransformerLm(_DecodeStateLayer):  # (only the NGrammer embedding path of praxis TransformerLm is kept)
  ngrammer_tpl = "NgrammerLayer"  # scaffolding: any non-None template enables the NGrammer branch

  def ngrammer(self, input_ids, input_emb, segment_pos=None):  # scaffolding: stand-in bi-gram embedding
    prev = jnp.concatenate([input_ids[:, :1], input_ids[:, :-1]], axis=1)
    return input_emb + 0.01 * (prev * 31 + input_ids)[..., None]

  def _emb_ngrammer(self, input_ids, input_emb, segment_pos):
    """Applies Ngrammer embedding.

    Args:
      input_ids:    [B, T].
      input_emb:    [B, T, D].
      segment_pos:  None or [B, T].

    Returns:
      if has ngrammer: ([B, 1], [B, 1, D], [B, 1])
      else, the same as the inputs.
    """
    assert input_ids.ndim == 2, input_ids.shape
    assert input_emb.ndim == 3, input_emb.shape
    if segment_pos is not None:
      assert segment_pos.ndim == 2, segment_pos.shape
    if self.ngrammer_tpl is None:
      return input_ids, input_emb, segment_pos

    # [B, T, D]
    input_emb = self.ngrammer(input_ids, input_emb, segment_pos=segment_pos)

    time_step = self.get_decode_state('time_step')
    if time_step > 0:
      # During decoding for NGrammer, an extra prefix token is prepended to
      # compute the bi-gram representation for the token at time step t
      # when time_step > 1.
      input_emb = input_emb[:, 1:, :]
      input_ids = input_ids[:, 1:]
      if segment_pos is not None:
        segment_pos = segment_pos[:, 1:]
    return input_ids, input_emb, segment_pos


lm = TransformerLm()  # scaffolding


@jax.jit
def extend_step(time_step, input_ids, input_emb):  # scaffolding: Pax jits extend_step with the decode cache (incl. time_step) as traced state
  lm.update_decode_state('time_step', time_step)
  _, emb, _ = lm._emb_ngrammer(input_ids, input_emb, None)
  return emb


ids = jnp.array([[3, 5]])  # scaffolding: prefix token + current token
emb = jnp.zeros((1, 2, 4))
try:  # scaffolding
  out = extend_step(jnp.int32(1), ids, emb)
  print(out.shape)
except Exception as e:  # scaffolding
  print(f"ERROR {type(e).__name__}")
