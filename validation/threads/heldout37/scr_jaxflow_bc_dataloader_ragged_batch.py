# source: https://github.com/knanxu/jax_flow/blob/9ff68b543faf2d7b72f50a976c2ab0378581484c/scripts/train_bc.py
# expect: shape-churn at line 154
# runtime: COMPILES 2 CALLS 12
# why: create_dataloader walks range(0, len(indices), batch_size) without dropping the remainder, so every epoch ends with a short batch and the jitted agent.update is compiled a second time for that shape (50 samples, batch 16: batches of 16, 16, 16, 2).

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
from typing import Any

import flax
import jax
import jax.numpy as jnp
import numpy as np
import optax


def nonpytree_field():  # jax_flow.core.pytree
    return flax.struct.field(pytree_node=False)


class BCAgent(flax.struct.PyTreeNode):  # scaffolding: the flow-matching networks replaced by a linear policy; fields and jitted update() kept
    rng: Any
    params: Any
    opt_state: Any
    config: Any = nonpytree_field()

    @classmethod
    def create(cls, seed, ex_observations, ex_actions, config):
        params = {"w": jnp.zeros((ex_observations.shape[-1], ex_actions.shape[-1]))}
        tx = optax.adamw(config["lr"])
        return cls(rng=jax.random.PRNGKey(seed), params=params, opt_state=tx.init(params), config=dict(config))

    @jax.jit
    def update(self, batch):
        new_rng, rng = jax.random.split(self.rng)
        tx = optax.adamw(self.config["lr"])

        def loss_fn(params):
            pred = batch["observations"] @ params["w"]
            return jnp.mean((pred - batch["actions"]) ** 2)

        loss, grads = jax.value_and_grad(loss_fn)(self.params)
        updates, opt_state = tx.update(grads, self.opt_state, self.params)
        params = optax.apply_updates(self.params, updates)
        return self.replace(params=params, opt_state=opt_state, rng=new_rng), {
            "loss": loss, "grad/norm": optax.global_norm(grads)}


class _Dataset:  # scaffolding: a 50-sample lowdim dataset in place of the robomimic HDF5 dataset
    def __init__(self, n=50, obs_dim=19, act_dim=7):
        rng = np.random.default_rng(0)
        self.obs = rng.normal(size=(n, obs_dim)).astype(np.float32)
        self.act = rng.normal(size=(n, act_dim)).astype(np.float32)

    def __len__(self):
        return len(self.obs)

    def __getitem__(self, idx):
        return {"observations": self.obs[idx], "actions": self.act[idx]}


def create_dataloader(dataset, batch_size, shuffle=True):
    """Create a simple dataloader iterator."""
    indices = np.arange(len(dataset))

    while True:
        if shuffle:
            np.random.shuffle(indices)

        for i in range(0, len(indices), batch_size):
            batch_indices = indices[i : i + batch_size]

            # Collect batch
            obs_batch = []
            act_batch = []
            for idx in batch_indices:
                sample = dataset[idx]
                obs_batch.append(sample["observations"])
                act_batch.append(sample["actions"])

            # Stack into batch — handle dict obs (image) vs array obs (lowdim)
            first_obs = obs_batch[0]
            if isinstance(first_obs, dict):
                observations = {
                    k: jnp.array(np.stack([o[k] for o in obs_batch])) for k in first_obs
                }
            else:
                observations = jnp.array(np.stack(obs_batch))
            actions = jnp.array(np.stack(act_batch))

            batch = {
                "observations": observations,
                "actions": actions,
            }

            yield batch


def main():
    np.random.seed(0)
    rng = jax.random.PRNGKey(0)
    train_dataset = _Dataset()  # scaffolding
    batch_size = 16  # scaffolding: cfg.optimization.batch_size (256 for lowdim tasks)
    gradient_steps = 12  # scaffolding: cfg.optimization.gradient_steps

    # Create dataloaders
    train_loader = create_dataloader(
        train_dataset,
        batch_size=batch_size,
        shuffle=True,
    )

    # Get example batch for initialization
    example_batch = next(train_loader)
    ex_observations = example_batch["observations"]
    ex_actions = example_batch["actions"]

    agent_config = {"lr": 1e-4, "ema_decay": 0.995, "delta_t_schedule": {}}  # scaffolding: trimmed
    rng, agent_rng = jax.random.split(rng)
    agent = BCAgent.create(
        seed=int(agent_rng[0]),
        ex_observations=ex_observations,
        ex_actions=ex_actions,
        config=agent_config,
    )

    train_losses = []
    for step in range(gradient_steps):
        # Get batch
        batch = next(train_loader)

        # Update agent
        agent, info = agent.update(batch)

        # Log
        train_losses.append(float(info["loss"]))
    # (logging, validation, evaluation rollouts and checkpoints cut: scaffolding)
    return gradient_steps


n = main()
_report({"jit(update)"}, n)  # scaffolding
