# source: https://github.com/google/learned_optimization/commit/f1b94eaf94e0808f12cbe484d1451de080767a49
# expect: jit-in-loop-or-body at line 72
# runtime: COMPILES 3 CALLS 3
# why: Every attribute access on the _GinScopeClass that opt_from_checkpoint returns builds a new _fn wrapper, so lru_cached cached_jit(opt.init) misses and a fresh jit is traced and compiled on every evaluation.
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

import contextlib  # scaffolding
import functools

import jax
import jax.numpy as jnp


class gin:  # scaffolding: stand-in for gin's config_scope
  @staticmethod
  @contextlib.contextmanager
  def config_scope(name):
    yield


@functools.lru_cache(None)
def cached_jit(fn, *args, **kwargs):  # learned_optimization/jax_utils.py
  return jax.jit(fn, *args, **kwargs)


class _GinScopeClass:
  """Wrap methods of a class in a gin scope.

  This class is not thread safe!
  """

  def __init__(self, ginned, scope):
    self.ginned = ginned
    self.scope = scope
    self.has_locked = False

  def __wrap(self, fn, scope):
    """Wrap a function with a given scope."""

    def _fn(*args, **kwargs):
      if self.has_locked:
        return fn(*args, **kwargs)
      else:
        with gin.config_scope(None):
          with gin.config_scope(scope):
            self.has_locked = True
            ret = fn(*args, **kwargs)
            self.has_locked = False
        return ret

    return _fn

  def __getattr__(self, *args):
    if self.has_locked:
      ret = self.ginned.__getattribute__(*args)  # pytype: disable=attribute-error
    else:
      if not self.has_locked:
        ret = self.ginned.__getattribute__(*args)  # pytype: disable=attribute-error
      else:
        self.has_locked = True
        with gin.config_scope(None):
          with gin.config_scope(self.scope):
            ret = self.ginned.__getattribute__(*args)
        self.has_locked = False
    if callable(ret):
      ret = self.__wrap(ret, self.scope)
    return ret


class LearnedSGD:  # scaffolding: stands for the optimizer lopt.opt_fn(ckpt.params) returns
  def __init__(self, theta):
    self.theta = theta

  def init(self, params, model_state=None, num_steps=None):
    return {"params": params, "lr": self.theta * jnp.ones(()), "t": jnp.zeros((), jnp.int32)}


def init_with_state(key):  # scaffolding: stands for task.init_with_state
  return {"w": jax.random.normal(key, (8,))}, None


def single_task_training_curves(opt, key, num_steps):  # eval_training.py setup, cut down
  key, key1 = jax.random.split(key)
  p, s = cached_jit(init_with_state)(key)
  opt_state = cached_jit(
      opt.init, static_argnames=("num_steps",))(
          p, s, num_steps=num_steps)
  return opt_state


# scaffolding: what opt_from_checkpoint returns, evaluated on three seeds
opt = _GinScopeClass(LearnedSGD(0.1), "opt_from_checkpoint__scope")
calls = 0
for seed in range(3):
  single_task_training_curves(opt, jax.random.PRNGKey(seed), num_steps=100)
  calls += 1
_report({"jit(_fn)"}, calls)
