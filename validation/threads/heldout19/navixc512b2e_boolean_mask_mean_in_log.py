# source: https://github.com/epignatelli/navix/commit/c512b2e3a1baa210279032886accce63b1bc5817
# expect: shape-churn at line 69
# runtime: COMPILES 61 CALLS 3
# why: Agent.log boolean-indexes lengths[mask] and returns[mask], whose size is the number of episodes that finished in that update, so every new count gives new shapes and the eager gather/mean programs are compiled again (61 compiles in a second run of three updates).
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

from dataclasses import dataclass
import time
from typing import Dict, Tuple

import numpy as np
import jax
import jax.numpy as jnp
from flax import struct
from flax.training.train_state import TrainState


class HParams(struct.PyTreeNode):
    debug: bool = struct.field(pytree_node=False, default=False)
    """Whether to run in debug mode."""
    log_frequency: int = struct.field(pytree_node=False, default=1)
    """How often to log results."""
    log_render: bool = struct.field(pytree_node=False, default=False)


class Agent(struct.PyTreeNode):
    hparams: HParams

    def train(self, rng: jax.Array) -> Tuple[TrainState, Dict[str, jax.Array]]:
        raise NotImplementedError

    def log(self, logs, inspectable=None):
        if len(logs) == 0 or logs["iter/updates"] % self.hparams.log_frequency != 0:
            return

        start_time = time.time()
        msg = f"Update Step: {logs['iter/updates']}, Frames: {logs['iter/frames']}"
        step = jnp.asarray(logs["iter/updates"], dtype=jnp.int32)

        # log renders
        if self.hparams.log_render:
            render_human = logs.pop("render/human")  # (T, 3, H, W)
            logs[f"render/human"] = wandb.Video(np.array(render_human), fps=4)

        if "done_mask" in logs:
            mask = jnp.asarray(logs.pop("done_mask"), dtype=jnp.bool)  # (T, N)
            # log episode length
            if "lengths" in logs:
                lengths: jax.Array = logs.pop("lengths")  # (T, N)
                episode_lengths = lengths[mask]  # (K,)
                logs["perf/episode_length"] = jnp.mean(episode_lengths)
                msg += f", Length: {logs['perf/episode_length']}"

            # log returns
            if "returns" in logs:
                returns = logs.pop("returns")  # (T, N)
                final_returns = returns[mask]  # (K,)
                logs["perf/returns"] = jnp.mean(final_returns)
                logs["perf/success_rate"] = jnp.mean(final_returns == 1.0)
                msg += f", Returns: {logs['perf/returns']}, Success Rate: {logs['perf/success_rate']}"

        msg += f", Logging time cost: {time.time() - start_time}"
        wandb.log(logs, step=step)

    def log_on_train_end(self, logs):
        print(jax.tree.map(lambda x: x.shape, logs))
        len_logs = len(logs["iter/updates"])
        updates = logs["iter/updates"]
        for step in range(len_logs):
            # skip steps self.log() would discard anyway (see the
            # log_frequency check below), before paying for the
            # device-to-host transfer of indexing into every array in
            # `logs` - wandb.log() and this per-step tree indexing were
            # previously done unconditionally for every recorded step,
            # which is why disabling wandb logging entirely (do_log=False)
            # was so much faster than leaving it on
            if updates[step] % self.hparams.log_frequency != 0:
                continue
            step_logs = {k: jax.tree.map(lambda x: x[step], v) for k, v in logs.items()}
            self.log(step_logs)


class _Table:  # scaffolding
    pass


class wandb:  # scaffolding: logging stand-in (wandb not installed)
    Video = _Table
    log = staticmethod(lambda logs, step=None: None)


# scaffolding: the stacked per-update logs of two PPO training runs (3 updates each, T=4 steps x N=3 envs),
# with a different number of finished episodes in each update
_rng = np.random.default_rng(0)


def make_logs(counts):  # scaffolding
    masks = []
    for k in counts:
        m = np.zeros(12, bool)
        m[_rng.choice(12, k, replace=False)] = True
        masks.append(m.reshape(4, 3))
    n = len(counts)
    return {
        "iter/updates": jnp.arange(1, n + 1),
        "iter/frames": jnp.arange(1, n + 1) * 12,
        "done_mask": jnp.asarray(np.stack(masks)),
        "lengths": jnp.asarray(_rng.integers(1, 50, (n, 4, 3)).astype(np.float32)),
        "returns": jnp.asarray(_rng.choice([0.0, 1.0], (n, 4, 3)).astype(np.float32)),
    }


agent = Agent(hparams=HParams())  # scaffolding
agent.log_on_train_end(make_logs([2, 5, 3]))  # scaffolding: first run (warms up every shape-independent compile)
_n0 = len(_COMPILED)  # scaffolding
agent.log_on_train_end(make_logs([7, 4, 6]))  # scaffolding: second run, same array shapes, other episode counts
_report(set(_COMPILED[_n0:]), 3)  # scaffolding: every XLA compile during the second run's 3 log() calls
