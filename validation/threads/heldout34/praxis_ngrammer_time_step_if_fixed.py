# source: https://github.com/google/praxis/commit/527b4787a9f30e4e7ccda1dc1b03d6694453186a
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: the fix caches the previous token and its embedding (ngrammer_prefix / ngrammer_prefix_emb) in the decode state and always prepends them, so there is no Python branch on the traced time step.
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
      input embeddings with NGrammer added to it, of shape [B, T, D].
      Also returns input_ids and segment_pos unchanged.
    """
    assert input_ids.ndim == 2, input_ids.shape
    assert input_emb.ndim == 3, input_emb.shape
    if segment_pos is not None:
      assert segment_pos.ndim == 2, segment_pos.shape
    if self.ngrammer_tpl is None:
      return input_ids, input_emb, segment_pos

    # [B, T, D]
    # During decoding for NGrammer, an extra prefix token is prepended to
    # compute the bi-gram representation for the token at time step t
    # when time_step > 0.
    ngrammer_prefix = self.get_decode_state('ngrammer_prefix')
    ngrammer_prefix_emb = self.get_decode_state('ngrammer_prefix_emb')
    ngrammer_segment_pos_prefix = self.get_decode_state(
        'ngrammer_prefix_segment_pos'
    )
    input_ids = jnp.concatenate([ngrammer_prefix, input_ids], axis=1)
    input_emb = jnp.concatenate([ngrammer_prefix_emb, input_emb], axis=1)
    if segment_pos is not None:
      segment_pos = jnp.concatenate(
          [ngrammer_segment_pos_prefix, segment_pos], axis=1
      )
    input_emb = self.ngrammer(input_ids, input_emb, segment_pos=segment_pos)
    input_emb = input_emb[:, 1:, :]
    return input_ids, input_emb, segment_pos


lm = TransformerLm()  # scaffolding


@jax.jit
def extend_step(prefix_ids, prefix_emb, input_ids, input_emb):  # scaffolding: Pax jits extend_step with the decode cache as traced state
  lm.update_decode_state('ngrammer_prefix', prefix_ids)
  lm.update_decode_state('ngrammer_prefix_emb', prefix_emb)
  lm.update_decode_state('ngrammer_prefix_segment_pos', None)
  _, emb, _ = lm._emb_ngrammer(input_ids, input_emb, None)
  # Cache the input embeddings and ids for NGrammer for the next time step.
  return emb, input_ids, input_emb


prefix_ids, prefix_emb = jnp.zeros((1, 1), jnp.int32), jnp.zeros((1, 1, 4))  # scaffolding: as set up in __call__ (prefix)
for t in range(3):  # scaffolding: three single-token decode steps
  ids, emb = jnp.array([[3 + t]]), jnp.zeros((1, 1, 4))
  out, prefix_ids, prefix_emb = extend_step(prefix_ids, prefix_emb, ids, emb)
_report({"jit(extend_step)"}, 3)
