# source: https://github.com/infer-actively/pymdp/issues/346
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: the worry (a jax array kept in an eqx.field(static=True), wrapped in a Policies module as PR #345 did) does not show on equinox 0.13.8: the wrapper compares by value, so 3 freshly built agents hit one compilation of uses_agent, with no error.
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


import warnings  # scaffolding

import equinox as eqx
import jax.numpy as jnp

warnings.simplefilter("ignore")  # scaffolding: equinox warns "A JAX array is being set as static!"


class Policies(eqx.Module):  # scaffolding: pymdp.control.Policies after PR #345, trimmed
    policy_arr: jnp.ndarray  # scaffolding

    @property  # scaffolding
    def num_policies(self):  # scaffolding
        return self.policy_arr.shape[0]  # scaffolding


class Agent(eqx.Module):  # scaffolding: pymdp.agent.Agent, trimmed to the fields that matter
    A: list  # scaffolding
    B: list  # scaffolding
    policies: Policies = eqx.field(static=True)  # scaffolding

    def __init__(self, A, B, policy_len=1, batch_size=1):  # scaffolding
        self.A = A  # scaffolding
        self.B = B  # scaffolding
        self.policies = Policies(jnp.arange(B[0].shape[-1])[:, None, None])  # scaffolding


def build_agent():
    A = [jnp.array([[0.9, 0.1], [0.1, 0.9]], dtype=jnp.float32)]
    B = [jnp.stack([jnp.eye(2, dtype=jnp.float32), jnp.flipud(jnp.eye(2, dtype=jnp.float32))], axis=-1)]
    return Agent(A=A, B=B, policy_len=1, batch_size=1)


@eqx.filter_jit
def uses_agent(agent):
    return agent.A[0].sum() + agent.policies.num_policies  # scaffolding: body not given in the issue


for _ in range(3):  # scaffolding
    uses_agent(build_agent())
_report({"jit(uses_agent)"}, 3)  # scaffolding
