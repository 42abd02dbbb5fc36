# source: https://github.com/djwenren/llm-with-jax-practice/blob/028253340ad2dc3b8914ed23abc8f73c86791525/llm_with_jax_practice/optimizer.py
# expect: none
# runtime: COMPILES 1 CALLS 5
# why: the hand-written Adam keeps step as a jax.Array nnx.data() field (its comment says a Python int would become static and stay 0 under jit), so the nnx.jit train step compiles once for 5 calls and the step reaches 5.
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



# ---- llm_with_jax_practice/optimizer.py ----
"""Optimizer for Transformer language model."""

from typing import Callable

import jax
import jax.numpy as jnp
import optax

from flax import nnx
from jaxtyping import Int
from jaxtyping import Float
from jaxtyping import PyTree


@nnx.dataclass
class AdamState(nnx.Pytree):
    """Adam state."""

    ms: PyTree[jax.Array] = nnx.data()
    vs: PyTree[jax.Array] = nnx.data()
    # This must be an array instead of a Python int. This is because the nnx.Optimizer that the
    # optimizer will be pased to will jit the update function. If the step is a Python int, then
    # it will be treated as a static field instead of a data field. All the update steps will see
    # `step` as 0. If this is a data field, it will be incremented correctly.
    step: jax.Array = nnx.data()


def scale_by_adam(
    betas: tuple[float, float] = (0.9, 0.999),
    eps: float = 1e-8,
) -> optax.GradientTransformation:
    """Gets a AdamW optimizer."""

    def init_fn(params: PyTree[jax.Array]) -> AdamState:
        """Initializes the AdamW optimizer."""
        return AdamState(
            ms=jax.tree.map(lambda x: jnp.zeros_like(x, dtype=x.dtype), params),
            vs=jax.tree.map(lambda x: jnp.zeros_like(x, dtype=x.dtype), params),
            step=jnp.array(0, dtype=jnp.int32),
        )

    def update_fn(
        updates: PyTree[jax.Array],
        state: AdamState,
        params: PyTree[jax.Array] | None = None,
    ) -> tuple[PyTree[jax.Array], AdamState]:
        """Updates the AdamW optimizer."""
        del params
        step = state.step + 1
        ms = state.ms
        vs = state.vs
        beta_1, beta_2 = betas
        ms = jax.tree.map(
            lambda m_i, update_i: beta_1 * m_i + (1 - beta_1) * update_i,
            ms,
            updates,
        )
        vs = jax.tree.map(
            lambda v_i, update_i: beta_2 * v_i + (1 - beta_2) * (update_i**2),
            vs,
            updates,
        )
        alpha_t = (1 - beta_2**step) ** 0.5 / (1 - beta_1**step)
        output_updates = jax.tree.map(
            lambda m_i, v_i: alpha_t * m_i / jnp.sqrt(v_i + eps),
            ms,
            vs,
        )
        return output_updates, AdamState(ms=ms, vs=vs, step=step)

    return optax.GradientTransformation(init_fn, update_fn)


def get_weight_decay_optimizer(
    weight_decay: float = 1e-3,
) -> optax.GradientTransformation:
    """Gets a weight decay optimizer."""

    def init_fn(params: PyTree[jax.Array]) -> optax.EmptyState:
        """Initializes the weight decay optimizer."""
        del params
        return optax.EmptyState()

    def update_fn(
        updates: PyTree[jax.Array],
        state: optax.EmptyState,
        params: PyTree[jax.Array] | None = None,
    ) -> tuple[PyTree[jax.Array], optax.EmptyState]:
        """Updates the weight decay optimizer."""
        output_updates = jax.tree.map(
            lambda update, param: update + weight_decay * param,
            updates,
            params,
        )
        return output_updates, state

    return optax.GradientTransformation(init_fn, update_fn)


def scale_by_adamw(
    betas: tuple[float, float] = (0.9, 0.999),
    eps: float = 1e-8,
    weight_decay: float = 1e-3,
) -> optax.GradientTransformation:
    """Gets a AdamW optimizer."""
    return optax.chain(
        scale_by_adam(betas, eps),
        get_weight_decay_optimizer(weight_decay),
    )


def scale_by_learning_rate(
    learning_rate: float, minimize: bool = True
) -> optax.GradientTransformation:
    """Scales the updates by the learning rate."""

    def init_fn(params: PyTree[jax.Array]) -> optax.EmptyState:
        """Initializes the learning rate optimizer."""
        del params
        return optax.EmptyState()

    def update_fn(
        updates: PyTree[jax.Array],
        state: optax.EmptyState,
        params: PyTree[jax.Array] | None = None,
    ) -> tuple[PyTree[jax.Array], optax.EmptyState]:
        """Updates the learning rate optimizer."""
        del params
        output_updates = jax.tree.map(
            lambda update: (
                -learning_rate * update if minimize else learning_rate * update
            ),
            updates,
        )
        return output_updates, state

    return optax.GradientTransformation(init_fn, update_fn)


@nnx.dataclass
class ScaleByScheduleState(nnx.Pytree):
    """Scale by schedule state."""

    step: jax.Array = nnx.data()


def scale_by_schedule(
    schedule: Callable[[Int[jax.Array, ""]], Float[jax.Array, ""]],
    minimize: bool = True,
) -> optax.GradientTransformation:
    """Scales the updates by the schedule."""

    def init_fn(params: PyTree[jax.Array]) -> ScaleByScheduleState:
        """Initializes the scale by schedule optimizer."""
        del params
        return ScaleByScheduleState(step=jnp.array(0, dtype=jnp.int32))

    def update_fn(
        updates: PyTree[jax.Array],
        state: ScaleByScheduleState,
        params: PyTree[jax.Array] | None = None,
    ) -> tuple[PyTree[jax.Array], ScaleByScheduleState]:
        """Updates the scale by schedule optimizer."""
        del params
        step = state.step
        output_updates = jax.tree.map(
            lambda update: (
                -schedule(step) * update if minimize else schedule(step) * update
            ),
            updates,
        )
        return output_updates, ScaleByScheduleState(step=step + 1)

    return optax.GradientTransformation(init_fn, update_fn)


def cosine_onecycle_schedule(
    max_learning_rate: float,
    min_learning_rate: float,
    warmup_iters: int,
    cosine_cycle_iters: int,
) -> Callable[[Int[jax.Array, ""]], Float[jax.Array, ""]]:
    """Cosine onecycle schedule."""

    def schedule(step: Int[jax.Array, ""]) -> Float[jax.Array, ""]:
        """Cosine onecycle schedule."""
        return jnp.where(
            step < warmup_iters,
            max_learning_rate * step / warmup_iters,
            jnp.where(
                step <= cosine_cycle_iters + warmup_iters,
                min_learning_rate
                + (max_learning_rate - min_learning_rate)
                * (jnp.cos(jnp.pi * (step - warmup_iters) / cosine_cycle_iters) + 1)
                / 2,
                min_learning_rate,
            ),
        )

    return schedule


# ---- llm_with_jax_practice/functions.py (cross_entropy_loss) ----
import numpy as np  # train_utils.py import
from tqdm import tqdm  # train_utils.py import
from types import SimpleNamespace  # scaffolding
grain = SimpleNamespace(IterDataset=object)  # scaffolding: grain is not installed (annotation only)
wandb = SimpleNamespace(Run=object)  # scaffolding: wandb is not installed (annotation only; wandb_run=None)
checkpoint = SimpleNamespace(CheckpointManager=object)  # scaffolding: orbax checkpointing (annotation only)
_train_config = SimpleNamespace(TrainConfig=object)  # scaffolding (annotation only)
functions = SimpleNamespace()  # scaffolding: module namespace for the function below
transformer = SimpleNamespace(TransformerConfig=object)  # scaffolding (annotation only)
_sharding = SimpleNamespace(TransformerLmSharding=object)  # scaffolding (annotation only)


def cross_entropy_loss(
    logits: Float[jnp.ndarray, "... vocab_size"],
    target_seq: Int[jnp.ndarray, "..."],
) -> Float[jnp.ndarray, ""]:
    """Cross-entropy loss."""
    logits_shifted: Float[jnp.ndarray, "... vocab_size"] = logits - logits.max(
        axis=-1, keepdims=True
    )
    return jnp.mean(
        -jnp.take_along_axis(logits_shifted, target_seq[..., None], axis=-1).squeeze()
        + jnp.log(jnp.sum(jnp.exp(logits_shifted), axis=-1))
    )


functions.cross_entropy_loss = cross_entropy_loss  # scaffolding


# ---- llm_with_jax_practice/train_utils.py (loss_fn, train_loop; get_datasets and run_validation cut) ----
@nnx.jit()
def loss_fn(
    model: nnx.Module,
    input_seq: Int[jnp.ndarray, "batch_size context_length"],
    target_seq: Int[jnp.ndarray, "batch_size context_length"],
) -> Float[jnp.ndarray, ""]:
    """Computes the loss for the model."""
    logits = model(input_seq)
    return functions.cross_entropy_loss(logits=logits, target_seq=target_seq)


def train_loop(
    model: nnx.Module,
    nnx_optimizer: nnx.Optimizer,
    train_dataset: grain.IterDataset,
    validation_dataset: grain.IterDataset,
    train_config: _train_config.TrainConfig,
    ckpt_manager: checkpoint.CheckpointManager,
    start_step: int = 0,
    *,
    wandb_run: wandb.Run | None = None,
    log_train_metrics_every_n_steps: int = 10,
    validation_every_n_steps: int = 10,
) -> None:
    """Trains the model."""

    @nnx.jit(donate_argnames=("local_model", "local_optimizer"))
    def _train_step(
        local_model: nnx.Module,
        local_optimizer: nnx.Optimizer,
        input_seq: Int[jnp.ndarray, "batch_size context_length"],
        target_seq: Int[jnp.ndarray, "batch_size context_length"],
    ) -> tuple[Float[jnp.ndarray, ""], Float[jnp.ndarray, ""]]:
        """Trains the model for one step."""
        loss, grads = nnx.value_and_grad(loss_fn)(local_model, input_seq, target_seq)
        local_optimizer.update(local_model, grads)
        return (
            loss,
            # Compute the total L2 norm of the gradients.
            jnp.sqrt(
                jax.tree.reduce(
                    lambda acc, x: acc + jnp.sum(jnp.square(x)),
                    grads,
                    0,
                )
            ),
        )

    train_iter = iter(train_dataset)
    validation_iter = iter(validation_dataset)
    for step in tqdm(
        range(start_step, train_config.num_steps),
        initial=start_step,
        total=train_config.num_steps,
        desc="Training",
    ):
        input_seq, target_seq = next(train_iter)
        loss, total_gradient_l2_norm = _train_step(
            model, nnx_optimizer, input_seq, target_seq
        )
        if wandb_run and (step - start_step) % log_train_metrics_every_n_steps == 0:
            wandb_run.log(
                {
                    "train/loss": loss,
                    "train/total_gradient_l2_norm": total_gradient_l2_norm,
                },
                step=step,
            )
        if (
            validation_every_n_steps
            and (step - start_step) % validation_every_n_steps == 0
        ):
            validation_input_seq, validation_target_seq = next(validation_iter)
            run_validation(
                model=model,
                input_seq=validation_input_seq,
                target_seq=validation_target_seq,
                wandb_run=wandb_run,
                step=step,
            )
        ckpt_manager.save(
            step=step,
            model=model,
            optimizer=nnx_optimizer,
            metadata={},
        )
    ckpt_manager.wait_until_finished()
    ckpt_manager.close()


# ---- llm_with_jax_practice/train_main.py (_get_model_and_optimizer up to the fresh-model branch; checkpoint restore cut) ----
_optimizer = SimpleNamespace(scale_by_adamw=scale_by_adamw, scale_by_schedule=scale_by_schedule, cosine_onecycle_schedule=cosine_onecycle_schedule)  # scaffolding: `from llm_with_jax_practice import optimizer as _optimizer`
def _get_model_and_optimizer(
    train_config: _train_config.TrainConfig,
    model_config: transformer.TransformerConfig,
    sharding: _sharding.TransformerLmSharding,
    ckpt_manager: checkpoint.CheckpointManager,
) -> tuple[nnx.Module, nnx.Optimizer]:
    """Gets the model and optimizer."""
    tx = optax.chain(
        optax.clip_by_global_norm(train_config.max_total_gradient_l2_norm),
        _optimizer.scale_by_adamw(
            betas=(train_config.adamw_beta_1, train_config.adamw_beta_2),
            eps=train_config.adamw_eps,
            weight_decay=train_config.adamw_weight_decay,
        ),
        _optimizer.scale_by_schedule(
            _optimizer.cosine_onecycle_schedule(
                max_learning_rate=train_config.cosine_onecycle_max_learning_rate,
                min_learning_rate=train_config.cosine_onecycle_min_learning_rate,
                warmup_iters=train_config.cosine_onecycle_warmup_iters,
                cosine_cycle_iters=train_config.cosine_onecycle_cosine_cycle_iters,
            )
        ),
    )
    @nnx.jit  # scaffolding: the fresh-model branch of the original, with a small model instead of TransformerLm
    def _get_fresh_model_and_optimizer():  # scaffolding
        model = _TinyLm(rngs=nnx.Rngs(jax.random.key(42)))  # scaffolding
        optimizer = nnx.Optimizer(model, tx, wrt=nnx.Param)  # as in the original
        return model, optimizer  # scaffolding

    return _get_fresh_model_and_optimizer()  # scaffolding: latest_step is None (no checkpoint)


# ---- scaffolding: a tiny language model, config values and data in place of TransformerLm, grain and orbax ----
class _TinyLm(nnx.Module):  # scaffolding: stands in for transformer.TransformerLm
    def __init__(self, rngs):  # scaffolding
        self.emb = nnx.Embed(32, 16, rngs=rngs)  # scaffolding
        self.out = nnx.Linear(16, 32, rngs=rngs)  # scaffolding

    def __call__(self, x):  # scaffolding
        return self.out(self.emb(x))  # scaffolding


class _NoCkpt:  # scaffolding: CheckpointManager with nothing to save
    def save(self, **kwargs): pass  # scaffolding
    def wait_until_finished(self): pass  # scaffolding
    def close(self): pass  # scaffolding


train_config = SimpleNamespace(max_total_gradient_l2_norm=1.0, adamw_beta_1=0.9, adamw_beta_2=0.95, adamw_eps=1e-8, adamw_weight_decay=0.01, cosine_onecycle_max_learning_rate=1e-3, cosine_onecycle_min_learning_rate=1e-4, cosine_onecycle_warmup_iters=2, cosine_onecycle_cosine_cycle_iters=10, num_steps=5)  # scaffolding
model, nnx_optimizer = _get_model_and_optimizer(train_config, None, None, None)  # scaffolding
rng = np.random.default_rng(0)  # scaffolding
data = [(jnp.asarray(rng.integers(0, 32, (4, 8)), dtype=jnp.int32), jnp.asarray(rng.integers(0, 32, (4, 8)), dtype=jnp.int32)) for _ in range(5)]  # scaffolding: 5 batches of (4, 8) tokens
train_loop(model, nnx_optimizer, data, data, train_config, _NoCkpt(), wandb_run=None, validation_every_n_steps=0)  # scaffolding
adam_state = [s for s in jax.tree.leaves(nnx_optimizer.opt_state, is_leaf=lambda x: isinstance(x, AdamState)) if isinstance(s, AdamState)][0]  # scaffolding
print("adam step after 5 updates:", int(adam_state.step))  # scaffolding: the step advanced (it is a data field, not static)
_report({"jit(_train_step)"}, train_config.num_steps)  # scaffolding
