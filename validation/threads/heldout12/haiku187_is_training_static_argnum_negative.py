# source: https://github.com/google-deepmind/dm-haiku/issues/187
# expect: none
# runtime: COMPILES 2 CALLS 4
# why: is_training is a Python bool marked static with static_argnums=(4,), so the Python `if is_training:` in the Haiku module is resolved at trace time; alternating train/eval calls compile exactly once per distinct flag value (two compiles for four calls).

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
import functools  # scaffolding
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding
import haiku as hk  # scaffolding


class Net(hk.Module):
  def __init__(self, output_size: int = 1):
    super().__init__()
    self._network1 = hk.Sequential([hk.Linear(200), jax.nn.relu])
    self.output = hk.Linear(output_size)

  def __call__(self, x, is_training):
    x = self._network1(x)
    if is_training:
       x = hk.dropout(hk.next_rng_key(), 0.1, x)
    output = self.output(x)
    return output

def f(x, is_training = True):
  net = Net(1)
  return net(x, is_training)  # scaffolding: the snippet calls net(x), dropping is_training


model = hk.transform(f)  # scaffolding

# not tracing is_training argument
@functools.partial(jax.jit,  static_argnums=(4,))
def model_loss(params, rng,  target, x, is_training):
  output = model.apply(params, rng, x, is_training)  # scaffolding: body cut off in the stored issue
  return jnp.mean((output - target) ** 2)  # scaffolding


x = jnp.ones((8, 3))  # scaffolding
target = jnp.zeros((8, 1))  # scaffolding
params = model.init(jax.random.PRNGKey(0), x, True)  # scaffolding
calls = 0  # scaffolding
for is_training in [True, False, True, False]:  # scaffolding: alternate train/eval steps
    print(model_loss(params, jax.random.PRNGKey(calls), target, x, is_training))  # scaffolding
    calls += 1  # scaffolding
_report({"jit(model_loss)"}, calls)  # scaffolding
