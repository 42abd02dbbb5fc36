# source: https://github.com/jax-ml/jax/issues/4858
# expect: none
# runtime: COMPILES 0 CALLS 1
# why: the reporter's pythonic cond (a Python if on the static shape) stops the recursion, so diag_kron_my returns a (25,) array; nothing is jitted.

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


from jax import numpy as jnp 
from jax import lax
def cond(pred, true_fun, false_fun, operand):
  if pred:
    return true_fun(operand)
  else:
    return false_fun(operand)

def diag_kron_my(diag_operators):
    length = diag_operators.shape[0]
    def true_branch(_):
        return diag_operators.reshape(-1)
    
    def false_branch(_):
        oper1 = diag_kron_my(diag_operators[:length//2])
        oper2 = diag_kron_my(diag_operators[length//2:])
        return jnp.einsum('i,j->ij', oper1, oper2).reshape(-1)
    
    
    return cond(length==1, true_branch, false_branch, operand=None)

print(diag_kron_my(jnp.arange(10).reshape(2,-1)).shape)  # scaffolding: the thread's call of the pythonic version
_report({"jit(diag_kron_my)"}, 1)  # scaffolding: nothing is jitted here
