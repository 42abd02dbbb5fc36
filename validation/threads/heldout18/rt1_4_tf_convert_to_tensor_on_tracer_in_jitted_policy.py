# source: https://github.com/hyy02/RT-1/issues/4
# expect: trace-time-error at line 61
# runtime: ERROR TracerArrayConversionError
# why: BCJaxPyPolicy jits _run_action_inference, which hands the traced observation to tf.convert_to_tensor (a numpy conversion), so tracing raises TracerArrayConversionError.
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


class tf:  # scaffolding: tensorflow is not installed; tf.convert_to_tensor converts non-TF inputs through numpy (np.asarray), as TF does
    convert_to_tensor = staticmethod(np.asarray)  # scaffolding


class py_policy:  # scaffolding: tf_agents.policies.py_policy stand-in
    class PyPolicy:  # scaffolding
        def __init__(self, time_step_spec, action_spec):  # scaffolding
            self.time_step_spec, self.action_spec = time_step_spec, action_spec  # scaffolding


class BCJaxPyPolicy(py_policy.PyPolicy):
  """Runs inference with a BC policy."""

  def __init__(self, time_step_spec, action_spec, model,network_state,
               rng, params=None, action_statistics=None):
    super(BCJaxPyPolicy, self).__init__(time_step_spec, action_spec)
    self.model = model
    self.network_state = network_state
    self.rng = rng

    self._run_action_inference_jit = jax.jit(self._run_action_inference) #, static_argnums=(0,))

  def _run_action_inference(self, observation):
    # Add a batch dim.
    observation = jax.tree_map(lambda x: jnp.expand_dims(x, 0), observation)
    # print(observation)
    # 构造模型所需的输入
    observation_input = {}
    print("***************************************************************")
    print(observation['rgb_sequence'])

    observation_input['image'] = tf.convert_to_tensor(observation['rgb_sequence'])
    observation_input['natural_language_embedding'] = tf.convert_to_tensor(observation['instruction_tokenized_use'])

    output,_ = self.model(observation_input,step_type=None, network_state=self.network_state, training=False)
    return output  # scaffolding: the rest of the method is cut in the stored thread


def model(observation_input, step_type=None, network_state=None, training=False):  # scaffolding: the TF RT-1 network
    return jnp.mean(jnp.asarray(observation_input['image'])), network_state  # scaffolding


jax.tree_map = jax.tree_util.tree_map  # scaffolding: jax.tree_map was removed in jax 0.6
try:  # scaffolding
    policy = BCJaxPyPolicy(None, None, model, None, jax.random.PRNGKey(0))  # scaffolding
    obs = {'rgb_sequence': np.zeros((6, 8, 8, 3), np.float32), 'instruction_tokenized_use': np.zeros((512,), np.float32)}  # scaffolding
    policy._run_action_inference_jit(obs)  # scaffolding: evaluation.py's action call
    _report({"jit(_run_action_inference)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
