# source: https://github.com/epignatelli/navix/pull/129
# expect: none
# runtime: COMPILES 4 CALLS 6
# why: The PR replaces the boolean indexing with a masked sum divided by the mask count, whose shapes stay (T, N) -> scalar whatever the number of finished episodes, so the logging reductions compile once for all updates.
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
import time
from typing import Dict, Tuple

import numpy as np
import jax
import jax.numpy as jnp
from flax import struct
from flax.training.train_state import TrainState


class wandb:  # scaffolding: stand-in for the wandb module
    @staticmethod  # scaffolding
    def log(logs, step=None):  # scaffolding
        pass  # scaffolding

    @staticmethod  # scaffolding
    def Video(frames, fps=4):  # scaffolding
        return frames  # scaffolding


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
            # Masked mean via sum/count instead of boolean-indexing
            # (`lengths[mask]`) - mask[mask] has a *dynamic* shape, so JAX
            # must recompile for every distinct count it hasn't seen before.
            mask_count = jnp.sum(mask)
            # log episode length
            if "lengths" in logs:
                lengths: jax.Array = logs.pop("lengths")  # (T, N)
                logs["perf/episode_length"] = (
                    jnp.sum(jnp.where(mask, lengths, 0)) / mask_count
                )
                msg += f", Length: {logs['perf/episode_length']}"

            # log returns
            if "returns" in logs:
                returns = logs.pop("returns")  # (T, N)
                logs["perf/returns"] = jnp.sum(jnp.where(mask, returns, 0)) / mask_count
                logs["perf/success_rate"] = (
                    jnp.sum(jnp.where(mask, returns == 1.0, False)) / mask_count
                )
                msg += f", Returns: {logs['perf/returns']}, Success Rate: {logs['perf/success_rate']}"

        msg += f", Logging time cost: {time.time() - start_time}"
        wandb.log(logs, step=step)

    def log_on_train_end(self, logs):
        len_logs = len(logs["iter/updates"])
        updates = logs["iter/updates"]
        for step in range(len_logs):
            if updates[step] % self.hparams.log_frequency != 0:
                continue
            step_logs = {k: jax.tree.map(lambda x: x[step], v) for k, v in logs.items()}
            self.log(step_logs)


T, N = 8, 4  # scaffolding: steps per update, parallel envs
finished = [3, 5, 7, 9, 11, 13]  # scaffolding: episodes finished in each update
done = np.zeros((len(finished), T * N), dtype=bool)  # scaffolding
for u, k in enumerate(finished):  # scaffolding
    done[u, :k] = True  # scaffolding
logs = {  # scaffolding: what train() returns, stacked over updates
    "iter/updates": jnp.arange(1, len(finished) + 1),  # scaffolding
    "iter/frames": jnp.arange(1, len(finished) + 1) * T * N,  # scaffolding
    "done_mask": jnp.asarray(done.reshape(-1, T, N)),  # scaffolding
    "lengths": jnp.arange(len(finished) * T * N, dtype=jnp.float32).reshape(-1, T, N),  # scaffolding
    "returns": jnp.ones((len(finished), T, N)),  # scaffolding
}  # scaffolding
agent = Agent(hparams=HParams())  # scaffolding
agent.log_on_train_end(logs)  # scaffolding
_report({"jit(_reduce_sum)", "jit(true_divide)"}, len(finished))  # scaffolding
