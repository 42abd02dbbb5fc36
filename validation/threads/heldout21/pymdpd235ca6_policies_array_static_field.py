# source: https://github.com/infer-actively/pymdp/commit/d235ca63814ebc2791b2f5cfb7f270b8449bced0
# expect: unhashable-static at line 66
# runtime: ERROR ValueError
# why: Agent declares its policies matrix, a JAX array, as an equinox static field, so when a freshly constructed agent is passed to the jitted step JAX compares the array metadata and raises a ValueError.
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


import itertools
import jax
import jax.numpy as jnp
from jax import vmap
from equinox import Module, field
from jaxtyping import Array
from typing import List


def construct_policies(num_states, num_controls = None, policy_len=1, control_fac_idx=None):
    num_factors = len(num_states)
    if control_fac_idx is None:
        if num_controls is not None:
            control_fac_idx = [f for f, n_c in enumerate(num_controls) if n_c > 1]
        else:
            control_fac_idx = list(range(num_factors))

    if num_controls is None:
        num_controls = [num_states[c_idx] if c_idx in control_fac_idx else 1 for c_idx in range(num_factors)]

    x = num_controls * policy_len
    policies = list(itertools.product(*[list(range(i)) for i in x]))

    for pol_i in range(len(policies)):
        policies[pol_i] = jnp.array(policies[pol_i]).reshape(policy_len, num_factors)

    return jnp.stack(policies)


class Agent(Module):
    # scaffolding: pymdp.agent.Agent cut down to one modality/one factor and a utility-only policy inference
    A: List[Array]
    B: List[Array]
    C: List[Array]

    num_states: List[int] = field(static=True)
    num_controls: List[int] = field(static=True)
    policy_len: int = field(static=True)
    # matrix of all possible policies (each row is a policy of shape (num_controls[0], num_controls[1], ..., num_controls[num_control_factors-1])
    policies: Array = field(static=True)

    def __init__(self, A, B, C, policy_len=1):  # scaffolding: the parts of __init__ that set these fields
        self.A, self.B, self.C = A, B, C
        self.num_states = [b.shape[0] for b in B]
        self.num_controls = [b.shape[-1] for b in B]
        self.policy_len = policy_len
        self.policies = construct_policies(self.num_states, self.num_controls, self.policy_len)

    def infer_policies(self, qs):  # scaffolding: expected utility of each one-step policy
        def G_of(policy):
            qs_next = self.B[0][:, :, policy[0, 0]] @ qs[0]
            return (self.A[0] @ qs_next) @ self.C[0]
        G = vmap(G_of)(self.policies)
        return jax.nn.softmax(G), G


@jax.jit  # scaffolding: a jitted agent step taking the agent as an argument
def step(agent, qs):  # scaffolding
    return agent.infer_policies(qs)  # scaffolding


A = [jnp.eye(3)]  # scaffolding
B = [jnp.stack([jnp.roll(jnp.eye(3), k, axis=0) for k in range(2)], axis=-1)]  # scaffolding
C = [jnp.array([0.0, 0.0, 1.0])]  # scaffolding
try:  # scaffolding
    for episode in range(3):  # scaffolding: a new agent per episode
        agent = Agent(A, B, C)  # scaffolding
        q_pi, G = step(agent, [jnp.array([1.0, 0.0, 0.0])])  # scaffolding
    _report({"jit(step)"}, 3)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
