# source: https://github.com/daniel-hu-37/neural_ilqr/blob/7295f1864cb2d7b73c5917685ff743cadb9dea0f/models/nn/nn.py
# expect: trace-time-error at line 67
# runtime: ERROR TypeError
# why: NeuralNetwork.update (and grad) are plain @jax.jit methods, so self, a MultiLayerPerceptron object, is passed as a traced argument and jit raises TypeError (not a valid JAX type) on the first update.
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



from types import SimpleNamespace  # scaffolding

# ---- models/nn/utils.py ----
import numpy as np


def init_random_params(scale, layer_sizes, rng=np.random.RandomState(0)):
  """Initializes random params for neural network."""
  return [(scale * rng.randn(m, n), scale * rng.randn(n))
          for (m, n) in zip(layer_sizes[:-1], layer_sizes[1:])]


# ---- models/nn/nn.py ----
import abc

import jax


class NeuralNetwork(metaclass=abc.ABCMeta):

  """Base class for neural network."""

  def __init__(self):
    self.step_size = 0.001
    self.params = None

  @abc.abstractmethod
  def predict(self, inputs, params=None):
    """Predicts neural network output."""

  @abc.abstractmethod
  def loss(self, batch, params=None):
    """Computes loss."""

  @jax.jit
  def grad(self, batch, params=None):
    """Computes gradient."""
    return jax.grad(self.loss)(batch, params)

  @jax.jit
  def update(self, batch, params=None):
    """Updates neural network with batch."""
    grads = self.grad(batch, params)
    return [(w - self.step_size * dw, b - self.step_size * db)
            for (w, b), (dw, db) in zip(params, grads)]


# ---- models/nn/mlp.py ----
import jax.numpy as jnp

# from nn import nn, utils  # scaffolding: nn.py and utils.py are inlined above
nn = SimpleNamespace(NeuralNetwork=NeuralNetwork)  # scaffolding
utils = SimpleNamespace(init_random_params=init_random_params)  # scaffolding

_DEFAULT_PARAM_SCALE = 0.1


class MultiLayerPerceptron(nn.NeuralNetwork):

  """Cartpole auto-differentiated dynamics model."""

  @classmethod
  def from_prob(cls, dim_state, dim_control):
    """Creates MLP from prob."""
    layer_sizes = [dim_state + dim_control, 1024, 512, dim_state]
    params = utils.init_random_params(_DEFAULT_PARAM_SCALE, layer_sizes)
    return cls(dim_state, dim_control, params)

  def __init__(self, dim_state, dim_control, params, **kwargs):
    """Cartpole dynamics.

        Args:
            **kwargs: Additional key-word arguments to pass to the
                AutoDiffDynamics constructor.

        Note:
            state: [x, x', sin(theta), cos(theta), theta']
            action: [F]
            theta: 0 is pointing up and increasing clockwise.
        """
    self.dim_state = dim_state
    self.dim_control = dim_control
    self.params = params
    super().__init__()

  def predict(self, inputs, params=None):
    """Predicts neural network output."""
    params = self.params if params is None else params
    activations = inputs
    for w, b, in params:
      outputs = jnp.dot(activations, w) + b
      activations = jnp.tanh(outputs)
    return activations

  def loss(self, batch, params=None):
    """Computes loss."""
    inputs, targets = batch
    preds = self.predict(inputs, params)
    return -jnp.mean(jnp.sum(preds * targets, axis=1))


# scaffolding: one training step, as the update method is meant to be used (the repo has no training loop yet)
import numpy as np  # scaffolding
model = MultiLayerPerceptron.from_prob(4, 1)  # scaffolding: cartpole, 4 states and 1 control
rng = np.random.RandomState(1)  # scaffolding
batch = (rng.randn(8, 5).astype(np.float32), rng.randn(8, 4).astype(np.float32))  # scaffolding
try:  # scaffolding
    params = init_random_params(_DEFAULT_PARAM_SCALE, [5, 1024, 512, 4])  # scaffolding: model.params is None here (NeuralNetwork.__init__ resets it after MultiLayerPerceptron sets it)
    new_params = model.update(batch, params)  # scaffolding
    _report({"jit(update)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
