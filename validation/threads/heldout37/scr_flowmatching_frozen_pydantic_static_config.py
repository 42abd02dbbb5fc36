# source: https://github.com/andylolu2/jax-flow-matching/blob/57f41334549a472990de85cf6823fb137ccf0762/flow_matching/train.py
# expect: none
# runtime: COMPILES 1 CALLS 6
# why: The whole nested TrainConfig is a static argument of the jitted train_step, but every config class derives from a pydantic BaseModel with frozen=True and holds only scalars and tuples, so it hashes by value and train_step compiles once for all 6 calls.

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
from functools import partial
from typing import Any

import flax
import jax
import jax.numpy as jnp
import optax
from flax.training.train_state import TrainState as _TrainState
from pydantic import BaseModel as _BaseModel
from pydantic import ConfigDict


# --- flow_matching/third_party/pydantic.py ---
class BaseModel(_BaseModel):
    model_config = ConfigDict(arbitrary_types_allowed=True, frozen=True, extra="forbid")


# --- config classes (model/dataset/optimizer builders trimmed to the toy experiment's configs) ---
class ModelConfig(BaseModel):
    pass


class MLPConfig(ModelConfig):
    dims: tuple[int, ...]


class OptimizerConfig(BaseModel):
    pass


class AdamConfig(OptimizerConfig):
    learning_rate: float
    b1: float = 0.9
    b2: float = 0.999
    eps: float = 1e-8
    eps_root: float = 1e-8


class DatasetConfig(BaseModel):
    pass


class ToyConfig(DatasetConfig):
    seed: int


class LogConfig(BaseModel):
    steps: int


class SaveConfig(BaseModel):
    steps: int


class EvalConfig(BaseModel):
    steps: int
    n_batches: int
    batch_size: int


class GenerateConfig(BaseModel):
    steps: int
    samples: int


class TrainConfig(BaseModel):
    model: ModelConfig
    optimizer: OptimizerConfig
    train_dataset: DatasetConfig
    val_dataset: DatasetConfig
    log: LogConfig
    save: SaveConfig
    eval: EvalConfig
    generate: GenerateConfig

    num_steps: int
    exp_dir: str
    batch_size: int
    seed: int = 0
    dry_run: bool = False
    num_compile_steps: int = 5
    ema_step_size: float = 1 - 0.9999


class TrainState(_TrainState):  # metrics and dataset fields cut: scaffolding
    rng: Any
    ema_params: flax.core.FrozenDict[str, Any] = flax.struct.field(pytree_node=True)

    def apply_gradients(self, *, grads, ema_step_size: float, **kwargs):
        next_state = super().apply_gradients(grads=grads, **kwargs)
        new_ema_params = optax.incremental_update(
            new_tensors=next_state.params,
            old_tensors=self.ema_params,
            step_size=ema_step_size,
        )
        return next_state.replace(ema_params=new_ema_params)


def build_train_state(config: TrainConfig) -> TrainState:  # scaffolding: tiny MLP stand-in, toy data sampled inside train_step
    params = {"w": jnp.zeros((2, 2)), "b": jnp.zeros((2,))}
    apply_fn = lambda p, x, rng, train: (jnp.mean((x @ p["w"] + p["b"] - x) ** 2), {})
    optimizer = optax.adam(**config.optimizer.model_dump())
    return TrainState.create(apply_fn=apply_fn, params=params, ema_params=params, tx=optimizer,
                             rng=jax.random.PRNGKey(config.seed))


@partial(jax.jit, static_argnames=("config",))
def train_step(train_state: TrainState, config: TrainConfig) -> TrainState:
    def single_step(train_state: TrainState) -> TrainState:
        rng, fwd_rng = jax.random.split(train_state.rng)
        x = jax.random.normal(fwd_rng, (config.batch_size, 2))  # scaffolding: train_dataset.sample(config.batch_size)

        def loss_fn(params):
            losses, metrics = jax.vmap(
                train_state.apply_fn, in_axes=(None, 0, 0, None)
            )(params, x, jax.random.split(fwd_rng, config.batch_size), True)
            return jnp.mean(losses), metrics

        grads, new_model_metrics = jax.grad(loss_fn, has_aux=True)(train_state.params)
        train_state = train_state.apply_gradients(
            grads=grads,
            ema_step_size=config.ema_step_size,
            rng=rng,
        )
        return train_state  # (clu metric merging cut: scaffolding)

    train_state = jax.lax.fori_loop(
        0, config.num_compile_steps, lambda _, state: single_step(state), train_state
    )
    return train_state


def main(config: TrainConfig) -> int:
    # (wandb, clu writers, checkpoints, eval and sample generation cut: scaffolding)
    train_state = build_train_state(config)
    calls = 0
    while train_state.step < config.num_steps:
        train_state: TrainState = train_step(train_state, config)  # type: ignore[no-redef]
        calls += 1
    return calls


# --- flow_matching/experiments/toy.py (num_steps cut from 5000, exp_dir fixed) ---
config = TrainConfig(
    model=MLPConfig(
        dims=(32, 32),
    ),
    optimizer=AdamConfig(
        learning_rate=3e-3,
    ),
    train_dataset=ToyConfig(
        seed=0,
    ),
    val_dataset=ToyConfig(
        seed=1,
    ),
    log=LogConfig(
        steps=1000,
    ),
    save=SaveConfig(
        steps=1000,
    ),
    eval=EvalConfig(
        steps=1000,
        n_batches=1000,
        batch_size=128,
    ),
    generate=GenerateConfig(
        steps=1000,
        samples=1000,
    ),
    num_steps=30,  # scaffolding
    exp_dir="file:///tmp/checkpoints",  # scaffolding
    batch_size=64,
)

n_calls = main(config)
_report({"jit(train_step)"}, n_calls)  # scaffolding
