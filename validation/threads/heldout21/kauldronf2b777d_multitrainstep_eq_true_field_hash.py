# source: https://github.com/google-research/kauldron/commit/f2b777ddb4b0b0a8cf11e6e00ec68c8044c0cb91
# expect: unhashable-static at line 91
# runtime: ERROR ValueError
# why: Declaring MultiTrainStep with eq=True, frozen=True makes dataclasses generate a field-based __hash__ that replaces the id-based hash TrainStep defines, so hashing the step for the jitted step(self=static) fails on its dict-holding fields and the first step raises.
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

import dataclasses
import functools
from typing import Any

from flax import linen as nn
import jax
import jax.numpy as jnp
import optax


@dataclasses.dataclass(kw_only=True, eq=True, frozen=True)
class Auxiliaries:  # scaffolding: kauldron.train.auxiliaries.Auxiliaries holds dicts of losses/metrics
  losses: dict = dataclasses.field(default_factory=dict)
  metrics: dict = dataclasses.field(default_factory=dict)


@dataclasses.dataclass(kw_only=True, eq=False, frozen=True)
class TrainStep:  # scaffolding: kauldron/train/train_step.py TrainStep, cut to model/optimizer/aux and the jitted step
  model: nn.Module
  optimizer: optax.GradientTransformation
  aux: Auxiliaries = dataclasses.field(default_factory=Auxiliaries)

  @functools.partial(
      jax.jit,
      static_argnames=("self",),
      donate_argnames=("state",),
  )
  def step(self, state, batch):
    return self._step(state, batch)

  def __hash__(self):
    # Make TrainStep hashable even if model, optimizer, etc. are not.
    return id(self)


class MultiGradientTransformation(optax.GradientTransformationExtraArgs):
  loss_to_optimizer: dict[str, optax.GradientTransformation]

  def __new__(cls, init, update, loss_to_optimizer):
    mgt = super().__new__(cls, init, update)  # pylint: disable=too-many-function-args
    mgt.loss_to_optimizer = loss_to_optimizer
    return mgt


def multi_optimizer(
    **loss_to_optimizer: optax.GradientTransformation,
) -> MultiGradientTransformation:
  """Create a multi-optimizer that maps loss names to optimizers."""

  # the update function of the multi-optimizer should never be used directly
  def update(updates, state, params=None, *, loss, **extra_args):
    del updates, state, params, loss, extra_args
    raise TypeError(
        "The update function of the multi_optimizer should never be used"
        " directly. Use with MultiTrainStep instead."
    )

  # reuse the init function of the named_chain to construct a state
  init, unused_update = optax.named_chain(*loss_to_optimizer.items())

  return MultiGradientTransformation(
      init=init, update=update, loss_to_optimizer=loss_to_optimizer
  )


@dataclasses.dataclass(kw_only=True, eq=True, frozen=True)
class MultiTrainStep(TrainStep):
  """Multi-Optimizer Training Step."""

  def _step(self, state, batch):  # scaffolding: one loss, its own optimizer from loss_to_optimizer
    assert isinstance(
        self.optimizer, MultiGradientTransformation
    ), "optimizer must be a multi_optimizer"
    params, opt_state = state
    def loss_fn(p):
      return jnp.mean((self.model.apply(p, batch["x"]) - batch["y"]) ** 2)
    loss, grads = jax.value_and_grad(loss_fn)(params)
    tx = self.optimizer.loss_to_optimizer["mse"]
    updates, sub_state = tx.update(grads, opt_state["mse"], params)
    return (optax.apply_updates(params, updates), {"mse": sub_state}), loss

# scaffolding: a small model, one loss routed to adam, three steps
model = nn.Dense(1)
params = model.init(jax.random.key(0), jnp.ones((2, 3)))
trainstep = MultiTrainStep(model=model, optimizer=multi_optimizer(mse=optax.adam(1e-2)),
                           aux=Auxiliaries(losses={"mse": "l2"}))
state = (params, {"mse": optax.adam(1e-2).init(params)})
batch = {"x": jnp.ones((2, 3)), "y": jnp.zeros((2, 1))}
calls = 0  # scaffolding
try:  # scaffolding
  for _ in range(3):  # scaffolding
    state, loss = trainstep.step(state, batch)
    calls += 1  # scaffolding
  _report({"jit(step)"}, calls)
except Exception as e:  # scaffolding
  print(f"ERROR {type(e).__name__}")
