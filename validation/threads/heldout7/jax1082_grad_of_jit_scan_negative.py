# source: https://github.com/jax-ml/jax/issues/1082
# expect: none
# runtime: COMPILES 5 CALLS 4
# why: grad of a jitted function whose lax.scan carries a dict (the reporter's failing fourth variant) works on 0.10.2; the jitted loss is a plain top-level function, compiled once per variant (grad of a jitted function compiles its forward and its transposed backward, both named after it, so loss3 and loss4 count two each; the repeated grad of loss4 adds none).

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
import jax.numpy as np
from jax import grad, jit
from jax.lax import scan

f = lambda carry, _: ({k : v+carry['a'] for k,v in carry.items()}, np.zeros(()))

# this works
def loss1(param):
  init_carry = {'a': param, 'b': np.zeros(())}
  final_carry, ys = scan(f, init_carry, np.array([1,2]))
  return final_carry['a'] * param
test = grad(loss1)(np.zeros(()))

# this works
@jit
def loss2(param):
  init_carry = {'a': param, 'b': np.zeros(())}
  final_carry, ys = scan(f, init_carry, np.array([1,2]))
  return final_carry['a'] * param
test = loss2(np.zeros(()))

# this works
@jit
def loss3(param):
  init_carry = {'a': param, 'b': np.zeros(())}
  final_carry, ys = scan(f, init_carry, np.array([1,2]))
  return final_carry['a'] * param + 0. * final_carry['b']
test = grad(loss3)(np.zeros(()))

# this doesn't work
@jit
def loss4(param):
  init_carry = {'a': param, 'b': np.zeros(())}
  final_carry, ys = scan(f, init_carry, np.array([1,2]))
  return final_carry['a'] * param
test = grad(loss4)(np.zeros(()))
test = grad(loss4)(np.ones(()))  # scaffolding
_report({"jit(loss2)", "jit(loss3)", "jit(loss4)"}, 4)  # scaffolding
