# source: https://github.com/google/trax/commit/b8acc0e8f5c52a5ac25fd98a7a196f13b5fc1f69
# expect: none
# runtime: COMPILES 1 CALLS 12
# why: The commit's memoize_jit: _pjit caches the jitted function under f'rev+bwd {repr(layer)}', so identical layers share one jit and it compiles once.

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
import numpy as np


class fastmath:  # scaffolding: trax.fastmath stand-in (JAX backend)
  jit = staticmethod(jax.jit)
  pmap = staticmethod(jax.pmap)

  @staticmethod
  def device_count():
    return 1


class ReversibleSwap:  # scaffolding: stand-in for a trax reversible layer (all identical)
  def __init__(self, d):
    self.d = d
    self.weights = jnp.ones((d, d), jnp.float32) * 0.01

  def __repr__(self):
    return f'ReversibleSwap_in2_out2[{self.d}]'

  def forward(self, x, weights):
    a, b = x
    return b, a + jnp.tanh(b @ weights)

  def reverse_and_grad(self, output, grad, weights=(), state=(), new_state=(),
                       rng=None):
    b, y = output
    reconstructed_x = (y - jnp.tanh(b @ weights), b)
    _, vjpfun = jax.vjp(self.forward, reconstructed_x, weights)
    return reconstructed_x, vjpfun(grad)


class SGD:  # scaffolding: stand-in for trax optimizer.tree_update
  def tree_update(self, step, grads, weights, slots, opt_params):
    return weights - opt_params * grads, slots, {'step': step}


def _reverse_and_fbo_with_layer_and_opt(layer, optimizer, n_devices):
  """Create the reverse_and_fbo function for a given layer and optimizer."""
  def reverse_and_fbo(output, weights, state, new_state,
                      slots, opt_params, rng, step, grads):
    """Reverse and FBO of the layer."""
    # Call the reverse_and_grad method of the layer.
    inputs, (grads_inputs, grads_weights) = layer.reverse_and_grad(
        output, grads, weights, state, new_state, rng=rng)

    # Run the optimizer.
    new_weights, new_slots, stats = optimizer.tree_update(
        step, grads_weights, weights, slots, opt_params)

    return new_weights, new_slots, inputs, grads_inputs, stats

  return reverse_and_fbo


class ReversibleSerialTrainer(object):
  """Runs an optimizer on a series of layers, reversible and not (trimmed: reversible layers only)."""

  def __init__(self, blocks, optimizer_fn, n_devices=None,
               memoize_jit=True):
    self._blocks = blocks
    self._n_devices = n_devices or fastmath.device_count()
    self._jit_memory = {} if memoize_jit else None
    self._optimizers = [[optimizer_fn() for _ in revs] for revs in blocks]

    self._fbos = []
    for i, rev_layers in enumerate(self._blocks):
      rev_opts = self._optimizers[i]
      rev_and_fbos = []
      for layer, opt in zip(rev_layers, rev_opts):
        rev_and_fbo = _reverse_and_fbo_with_layer_and_opt(
            layer, opt, self._n_devices)
        rev_and_fbos.append(self._pjit(
            rev_and_fbo, f'rev+bwd {repr(layer)}', donate_argnums=(1,)))
      self._fbos.append(rev_and_fbos)

  def _pjit(self, f, memory_key=None, donate_argnums=()):
    """JIT f if 1 device is available and pmap if more are available."""
    should_memoize = self._jit_memory is not None and memory_key is not None
    if (should_memoize and memory_key in self._jit_memory):
      return self._jit_memory[memory_key]
    if self._n_devices == 1:
      res = fastmath.jit(f, donate_argnums=donate_argnums)
    else:
      res = fastmath.pmap(f, axis_name='batch', donate_argnums=donate_argnums)
    if should_memoize:
      self._jit_memory[memory_key] = res
    return res


# scaffolding: 2 blocks of 3 identical reversible layers, 2 backward passes
blocks = [[ReversibleSwap(8) for _ in range(3)] for _ in range(2)]
trainer = ReversibleSerialTrainer(blocks, SGD)
calls = 0
for step in range(2):
  output = (jnp.ones((4, 8)), jnp.ones((4, 8)))
  grads = (jnp.ones((4, 8)), jnp.ones((4, 8)))
  for bi, rev_layers in enumerate(blocks):
    for li, layer in enumerate(rev_layers):
      fn = trainer._fbos[bi][li]
      layer.weights, _, output, grads, _ = fn(
          output, layer.weights, (), (), (), jnp.float32(0.1), None, step, grads)
      calls += 1
_report({"jit(reverse_and_fbo)"}, calls)  # scaffolding
