# source: https://github.com/Physical-Intelligence/openpi/commit/e65223df0e00af1762e9e07050c076c12269ca12
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: before the commit Pi0.sample_actions is decorated with nnx.jit; repeated policy calls with one observation shape reuse a single compile (the commit changed it for memory, not for compiles).
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
import flax.nnx as nnx
from typing_extensions import override  # scaffolding


class BaseModel(nnx.Module):  # scaffolding: openpi.models.model.BaseModel stand-in
    def sample_actions(self, rng, observation, *, num_steps=10):  # scaffolding
        raise NotImplementedError  # scaffolding


class Pi0(BaseModel):  # scaffolding: a tiny flow-matching policy in place of PaliGemma + action expert
    def __init__(self, rngs):  # scaffolding
        self.action_horizon, self.action_dim = 4, 2  # scaffolding
        self.action_out_proj = nnx.Linear(2 + 3, 2, rngs=rngs)  # scaffolding

    @nnx.jit
    @override
    def sample_actions(
        self,
        rng,
        observation,
        *,
        num_steps: int = 10,
    ):
        # note that we use the convention more common in diffusion literature, where t=1 is noise and t=0 is the target
        # distribution. yes, this is the opposite of the pi0 paper, and I'm sorry.
        dt = -1.0 / num_steps
        batch_size = observation["state"].shape[0]
        noise = jax.random.normal(rng, (batch_size, self.action_horizon, self.action_dim))

        def step(carry):
            x_t, time = carry
            state = jnp.broadcast_to(observation["state"][:, None], (batch_size, self.action_horizon, 3))  # scaffolding
            v_t = self.action_out_proj(jnp.concatenate([x_t, state * time], -1))  # scaffolding
            return x_t + dt * v_t, time + dt

        def cond(carry):
            x_t, time = carry
            # robust to floating-point error
            return time >= -dt / 2

        x_0, _ = jax.lax.while_loop(cond, step, (noise, 1.0))
        return x_0


model = Pi0(nnx.Rngs(0))  # scaffolding
rng = jax.random.PRNGKey(0)  # scaffolding
for _ in range(3):  # scaffolding: Policy.infer called for three observations
    rng, sample_rng = jax.random.split(rng)  # scaffolding
    actions = model.sample_actions(sample_rng, {"state": jnp.ones((1, 3))})  # scaffolding
_report({"jit(sample_actions)", "jit(jit_wrapper)", "jit(pure_fn)"}, 3)  # scaffolding
