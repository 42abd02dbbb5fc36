# source: https://github.com/aesara-devs/aesara/pull/187
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: PR #187's version selects the branch with jax.lax.cond, so the traced condition is fine: x_fg_fn compiles once and serves both a=0.2 and a=0.7.
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
import types  # scaffolding

import jax
import jax.numpy as jnp
import numpy as np


# theano/sandbox/jaxify.py after PR #187 (55ef0e6b7)
def jax_funcify_IfElse(op):
    n_outs = op.n_outs

    def ifelse(cond, *args, n_outs=n_outs):
        res = jax.lax.cond(
            cond, lambda _: args[:n_outs], lambda _: args[n_outs:], operand=None
        )
        return res if n_outs > 1 else res[0]

    return ifelse


# scaffolding: the PR's test graph ifelse(a < 0.5, true_vals, false_vals) with one output, as the
# JAX linker runs it (the FunctionGraph's inputs become arguments of one jitted function)
op = types.SimpleNamespace(n_outs=1)  # scaffolding
ifelse = jax_funcify_IfElse(op)  # scaffolding
true_vals, false_vals = np.array([1, 2, 3]), np.array([-1, -2, -3])  # scaffolding


def x_fg_fn(a):  # scaffolding
    return ifelse(a < 0.5, true_vals, false_vals)  # scaffolding


f = jax.jit(x_fg_fn)  # scaffolding
print(f(np.array(0.2)), f(np.array(0.7)))  # scaffolding
_report({"jit(x_fg_fn)"}, 2)  # scaffolding
