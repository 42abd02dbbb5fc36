# source: https://github.com/FranzKnut/jax_rl_util/commit/6db14b6fcd943fba8e608464539f1308452725e8
# expect: none
# runtime: COMPILES 2 CALLS 24
# why: trace_update writes static_argnames=('trace_mode') without the comma, a bare string, which jax accepts as one name; trace_mode picks the inner function with locals()[trace_mode] at trace time and gamma_lambda/alpha/_I are traced, so trace_update and compute_updates compile once each for 24 calls.

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

"""Util for eligibility traces."""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


# jax_rl_util/td_lambda/traces.py as added by the commit (TraceModel, which needs jax_rtrl's FADense, cut)
@partial(jax.jit, static_argnames=('trace_mode'))
def trace_update(grads, z, gamma_lambda, trace_mode: str = 'accumulate', alpha=None, _I=1):
    """Update the eligibility trace. Also compute the gradients if d is given.

    See Sutton & Barto, 1998, p. 275
    Args:
        grads: Immediate gradient of the loss with respect to the model parameters
        z: eligibility trace
        I: acummulated gamma, for episodic tasks
        trace_mode: one of "accumulate", "dutch"
        gamma_lambda: discount factor
        alpha: learning rate, used for dutch traces
    """

    def accumulate(_z, _g):
        """Accumulate trace.

        z ← λz + α I @ ∇f.
        """
        return gamma_lambda * _z + (_I * _g.T).T

    # def acc_tanh(_z, _g):
    #     """Accumulate trace with tanh squashing."""
    #     return jnp.tanh(accumulate(_z, _g))

    def dutch(_z, _g):
        """Dutch trace.

        z ← γλz + α[1 - γλ e.T ∇f] ∇f
        """
        return gamma_lambda * _z + (1 - alpha * gamma_lambda * (_z.T @ _g)) * _g

    return jax.tree.map(locals()[trace_mode], z, grads)


@partial(jax.jit, static_argnames=('trace_mode',))
def compute_updates(z, trace_mode: str = 'accumulate', d=None, dutch_diff=None, alpha=1, grads=None):
    """Compute gradients given the eligibility trace."""
    # Multiply trace with TD-error.
    grads = jax.tree.map(lambda t: (d.T * t.T).T,  z)
    if trace_mode == 'dutch':
        grads = jax.tree.map(lambda _z, _g: _g + alpha * (dutch_diff.T * (_z-_g).T).T, z, grads)
    return grads


def init_trace(params, batch_shape=()):
    """Initialize the eligibility trace: zθ ← 0 (d'-component eligibility trace vector)."""
    return jax.tree.map(lambda x: jnp.zeros(batch_shape+x.shape), params)


# scaffolding: a TD(lambda) value-learning loop on a linear value function, one trace update per step
def value(params, obs):  # scaffolding
    return obs @ params["w"] + params["b"]  # scaffolding


rs = np.random.RandomState(0)  # scaffolding
params = {"w": jnp.zeros(4), "b": jnp.zeros(())}  # scaffolding
z = init_trace(params)
obs = rs.randn(4).astype(np.float32)  # scaffolding
for t in range(12):  # scaffolding
    next_obs = rs.randn(4).astype(np.float32)  # scaffolding
    reward = float(rs.randn())  # scaffolding
    grads = jax.grad(value)(params, obs)  # scaffolding
    z = trace_update(grads, z, 0.99 * 0.9)
    d = reward + 0.99 * value(params, next_obs) - value(params, obs)  # scaffolding: TD error
    updates = compute_updates(z, d=d)
    params = jax.tree.map(lambda p, u: p + 0.01 * u, params, updates)  # scaffolding
    obs = next_obs  # scaffolding
print(float(params["b"]))  # scaffolding
_report({"jit(trace_update)", "jit(compute_updates)"}, 24)  # scaffolding: 12 steps x 2 calls
