# source: https://github.com/AI-Hypercomputer/maxdiffusion/commit/dce2562d486cc11cb19fadbd1746ff7fc9d6e711
# expect: trace-time-error at line 64
# runtime: ERROR ConcretizationTypeError
# why: the gate-logit diagnostics call float() on jnp.mean/std of the gate kernel, which is a traced parameter inside the jitted forward pass, so the print raises ConcretizationTypeError.

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


# src/maxdiffusion/models/ltx2/attention_ltx2.py, LTX2Attention (before the commit). Scaffolding: __init__ and
# the projection/attention steps cut to plain nnx.Linear layers and a softmax attention; rotary embeddings,
# perturbation mask and dropout dropped. The gating block is as written.
class LTX2Attention(nnx.Module):
  def __init__(self, dim=32, heads=4, rngs=None):  # scaffolding
    self.heads = heads
    self.dim_head = dim // heads
    self.to_q = nnx.Linear(dim, dim, rngs=rngs)
    self.to_k = nnx.Linear(dim, dim, rngs=rngs)
    self.to_v = nnx.Linear(dim, dim, rngs=rngs)
    self.to_gate_logits = nnx.Linear(dim, heads, rngs=rngs)
    self.to_out = nnx.Linear(dim, dim, rngs=rngs)

  def __call__(self, hidden_states):
    with jax.named_scope("QKV Projection"):
      query, key, value = self.to_q(hidden_states), self.to_k(hidden_states), self.to_v(hidden_states)  # scaffolding

    with jax.named_scope("Attention and Output Project"):
      weights = jax.nn.softmax(query @ key.transpose(0, 2, 1) / query.shape[-1] ** 0.5, axis=-1)  # scaffolding
      attn_output = weights @ value  # scaffolding

      if getattr(self, "to_gate_logits", None) is not None:
        # Auditing gate logits parameters
        gate_kernel = self.to_gate_logits.kernel
        gate_bias = self.to_gate_logits.bias
        if hasattr(gate_kernel, "value"):
          gate_kernel = gate_kernel.value
        if hasattr(gate_bias, "value"):
          gate_bias = gate_bias.value

        import jax.numpy as jnp
        print(f"🔍 [Gating Diagnostics] to_gate_logits kernel - mean: {float(jnp.mean(gate_kernel)):.8f}, std: {float(jnp.std(gate_kernel)):.8f}", flush=True)
        print(f"🔍 [Gating Diagnostics] to_gate_logits bias - mean: {float(jnp.mean(gate_bias)):.8f}, std: {float(jnp.std(gate_bias)):.8f}", flush=True)

        gate_logits = self.to_gate_logits(hidden_states)
        b, s, _ = attn_output.shape
        attn_output = attn_output.reshape(b, s, self.heads, self.dim_head)
        gates = 2.0 * jax.nn.sigmoid(gate_logits)
        attn_output = attn_output * jnp.expand_dims(gates, axis=-1)
        attn_output = attn_output.reshape(b, s, -1)

      # 7. Output Projection
      hidden_states = self.to_out(attn_output)
    return hidden_states


# scaffolding: the attention block run inside nnx.jit (as the jitted transformer runs it), two batches
attn = LTX2Attention(rngs=nnx.Rngs(0))


@nnx.jit
def forward(model, x):
  return model(x)


calls = 0
try:  # scaffolding
  for seed in (0, 1):
    out = forward(attn, jax.random.normal(jax.random.PRNGKey(seed), (2, 8, 32)))
    calls += 1
  _report({"jit(forward)"}, calls)
except Exception as e:  # scaffolding
  print(f"ERROR {type(e).__name__}")
