# source: https://github.com/google/trax/blob/66f88d947f77d0a99fd52aeeb65123a154ecf0c5/trax/rl/training.py
# expect: shape-churn at line 105
# runtime: COMPILES 4 CALLS 12
# why: PolicyAgent.policy runs the accelerated (jitted) policy on the last max_slice_length steps of the trajectory; early in each episode the trajectory is shorter, so the observation slice grows 1, 2, 3, 4 and the model recompiles for each length.

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


class fastmath:  # scaffolding: trax.fastmath stand-in
  class Backend:
    JAX = 'jax'

  @staticmethod
  def is_backend(b):
    return True

  @staticmethod
  def nested_map(f, x):
    return jax.tree_util.tree_map(f, x)


class Accelerate:  # scaffolding: tl.Accelerate stand-in, jits the model's pure_fn once
  def __init__(self, weights):
    self.weights = weights
    self.state = ()

    def forward(x, weights):
      return jnp.tanh(x @ weights)

    self._jit_pure_fn = jax.jit(forward)

  def replicate_weights(self, weights):
    self.weights = weights

  def __call__(self, x):
    return self._jit_pure_fn(x, self.weights)


class _TrajectoryNp:  # scaffolding: trax.rl.task.Trajectory stand-ins
  def __init__(self, observations):
    self.observations = observations


class Trajectory:
  def __init__(self, observations):
    self._observations = list(observations)

  def __getitem__(self, key):
    return Trajectory(self._observations[key])

  def to_np(self, timestep_to_np=None):
    return _TrajectoryNp(np.stack(self._observations))


class Categorical:  # scaffolding: self._policy_dist
  def sample(self, pred, temperature=1.0):
    return jnp.argmax(pred)


class PolicyAgent:  # trimmed to the policy() path of trax/rl/training.py
  def __init__(self, max_slice_length=1):
    self._max_slice_length = max_slice_length
    w = jnp.ones((4, 3)) * 0.1
    self._policy_collect_model = Accelerate(w)
    self._policy_eval_model = Accelerate(w)
    self._policy_dist = Categorical()

    class _T:
      model_weights = w
    self._policy_trainer = _T()

    class _Task:
      timestep_to_np = None
    self.task = _Task()

  def policy(self, trajectory, temperature=1.0):
    """Chooses an action to play after a trajectory."""
    model = self._policy_collect_model
    if temperature != 1.0:  # When evaluating (t != 1.0), don't collect stats
      model = self._policy_eval_model
      model.state = self._policy_collect_model.state
    model.replicate_weights(self._policy_trainer.model_weights)
    tr_slice = trajectory[-self._max_slice_length:]
    trajectory_np = tr_slice.to_np(timestep_to_np=self.task.timestep_to_np)
    # Add batch dimension to trajectory_np and run the model.
    pred = model(trajectory_np.observations[None, ...])
    # Pick element 0 from the batch (the only one), last (current) timestep.
    pred = pred[0, -1, :]
    sample = self._policy_dist.sample(pred, temperature=temperature)
    result = (sample, pred)
    if fastmath.is_backend(fastmath.Backend.JAX):
      result = fastmath.nested_map(lambda x: x.copy(), result)
    return result


# scaffolding: play 2 episodes of 6 steps with a slice length of 4 (a transformer-style policy)
agent = PolicyAgent(max_slice_length=4)
calls = 0
rng = np.random.RandomState(0)
for episode in range(2):
  observations = [rng.rand(4).astype(np.float32)]
  for t in range(6):
    action, pred = agent.policy(Trajectory(observations))
    observations.append(rng.rand(4).astype(np.float32))
    calls += 1
_report({"jit(forward)"}, calls)
