# source: https://github.com/lowrollr/turbozero/commit/39d00716479eaacb1ee8af63f1e65c1078704008
# expect: jit-in-loop-or-body at line 64
# runtime: COMPILES 3 CALLS 6
# why: train_steps wraps a freshly defined one_train_step in jax.pmap on every call, so each epoch's train_steps call compiles the step again (3 epochs, 3 compiles).

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


from functools import partial
from typing import Tuple

import chex
import jax
import jax.numpy as jnp
import optax  # scaffolding
from flax import struct  # scaffolding
from flax.training.train_state import TrainState

jax.tree_map = jax.tree.map  # scaffolding: jax.tree_map was removed from jax after this commit

BaseExperience = dict  # scaffolding


@struct.dataclass
class CollectionState:  # scaffolding: the fields train_steps uses
    key: jax.Array
    buffer_state: dict


class MemoryBuffer:  # scaffolding: stand-in for turbozero's replay buffer, samples rows of a fixed table
    def sample(self, buffer_state, key, batch_size):
        idx = jax.random.randint(key, (batch_size,), 0, buffer_state["x"].shape[0])
        return {"x": buffer_state["x"][idx], "y": buffer_state["y"][idx]}


# core/training/train.py (before the commit; Trainer cut to train_steps)
class Trainer:
    def train_steps(self,
        collection_state: CollectionState,
        train_state: TrainState,
        num_steps: int
    ) -> Tuple[CollectionState, TrainState, dict]:
        buffer_state = collection_state.buffer_state
        
        @partial(jax.pmap, axis_name='d')
        def one_train_step(ts: TrainState, batch: BaseExperience) -> Tuple[TrainState, dict]:
            grad_fn = jax.value_and_grad(self.loss_fn, has_aux=True)
            (loss, (metrics, updates)), grads = grad_fn(ts.params, ts, batch)
            grads = jax.lax.pmean(grads, axis_name='d')
            ts = ts.apply_gradients(grads=grads)
            if hasattr(ts, 'batch_stats'):
                ts = ts.replace(batch_stats=jax.lax.pmean(updates['batch_stats'], axis_name='d'))
            metrics = {
                **metrics,
                'loss': loss
            }
            return ts, metrics

        key, new_key = jax.random.split(collection_state.key[0,0], 2)
        new_keys = collection_state.key.at[0,0].set(new_key)

        batch_metrics = []
        
        for _ in range(num_steps):
            step_key, key = jax.random.split(key)

            batch = self.memory_buffer.sample(buffer_state, step_key, self.train_batch_size)
            batch = jax.tree_map(lambda x: x.reshape((self.num_devices, -1, *x.shape[1:])), batch)

            train_state, metrics = one_train_step(train_state, batch)

            batch_metrics.append(metrics)

        metrics = {k: jnp.stack([m[k] for m in batch_metrics]).mean() for k in batch_metrics[0].keys()}
        return collection_state.replace(key=new_keys), train_state, metrics
    
    


# scaffolding: a linear model trained for three epochs of train_steps, as Trainer.train_loop does
class LinearTrainer(Trainer):
    def __init__(self):
        self.memory_buffer = MemoryBuffer()
        self.train_batch_size = 8
        self.num_devices = jax.local_device_count()

    def loss_fn(self, params, ts, batch):
        pred = batch["x"] @ params["w"]
        loss = jnp.mean((pred - batch["y"]) ** 2)
        return loss, ({"mse": loss}, {})


trainer = LinearTrainer()
ts = TrainState.create(apply_fn=None, params={"w": jnp.zeros((3,))}, tx=optax.sgd(0.1))
_replicated = jax.sharding.NamedSharding(jax.sharding.Mesh(jax.local_devices(), ("d",)), jax.sharding.PartitionSpec("d"))
ts = jax.device_put(jax.tree.map(lambda x: jnp.stack([x] * jax.local_device_count()), ts), _replicated)  # as device_put_replicated did
cs = CollectionState(key=jax.random.split(jax.random.PRNGKey(0), 2)[None],
                     buffer_state={"x": jnp.ones((32, 3)), "y": jnp.ones((32,))})
calls = 0
for epoch in range(3):
    cs, ts, metrics = trainer.train_steps(cs, ts, 2)
    calls += 2
_report({"jit(_fun)"}, calls)  # jax 0.10.2 compiles a pmap as jit(_fun)
