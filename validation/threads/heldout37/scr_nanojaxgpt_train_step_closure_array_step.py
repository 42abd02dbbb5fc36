# source: https://github.com/dev2703/NanoJaX-Gpt/blob/33654a3af1f45bc100e284c63037448925c41034/train.py
# expect: none
# runtime: COMPILES 2 CALLS 21
# why: train_step and eval_step are jitted closures defined once inside main(), the loop counter is passed as jnp.asarray(step) and every batch has the same shape, so each compiles once.

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
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import linen as nn


class config:  # scaffolding: config.py values, scaled down
    seed = 0
    block_size = 16
    batch_size = 4
    learning_rate = 3e-4
    warmup_iters = 2
    max_iters = 12
    weight_decay = 0.1
    grad_clip = 1.0
    beta1 = 0.9
    beta2 = 0.95
    adam_eps = 1e-8
    val_fraction = 0.1
    eval_iters = 3
    eval_interval = 6
    log_interval = 4
    ema_decay = 0.9


class GPT(nn.Module):  # scaffolding: tiny stand-in for model.GPT (same apply signature)
    cfg: object = None

    @nn.compact
    def __call__(self, idx, deterministic=False):
        x = nn.Embed(64, 16)(idx)
        x = nn.Dropout(0.1, deterministic=deterministic)(x)
        return nn.Dense(64)(x)


class TokenDataset:  # scaffolding: in-memory tokens instead of the memmap
    def __init__(self, val_fraction=0.1):
        self.data = np.random.default_rng(0).integers(0, 64, 4000).astype(np.uint16)
        split_idx = int(len(self.data) * (1.0 - val_fraction))
        self.train_data = self.data[:split_idx]
        self.val_data = self.data[split_idx:]

    @property
    def train_size(self) -> int:
        return int(self.train_data.shape[0])

    @property
    def val_size(self) -> int:
        return int(self.val_data.shape[0])


def get_batch(
    key: jax.Array,
    split_data: np.memmap,
    block_size: int,
    batch_size: int,
) -> tuple[jnp.ndarray, jnp.ndarray]:
    data_len = int(split_data.shape[0])
    if data_len <= block_size:
        raise ValueError("Not enough tokens for the requested block_size.")

    key, subkey = jax.random.split(key)
    starts = jax.random.randint(subkey, (batch_size,), 0, data_len - block_size - 1)

    x_rows = []
    y_rows = []
    for start in np.asarray(starts):
        chunk = split_data[start : start + block_size + 1]
        x_rows.append(chunk[:-1])
        y_rows.append(chunk[1:])

    x = jnp.asarray(np.stack(x_rows), dtype=jnp.int32)
    y = jnp.asarray(np.stack(y_rows), dtype=jnp.int32)
    return x, y



def cross_entropy(
    logits: jnp.ndarray,
    target: jnp.ndarray,
    reduction: str = "mean",
) -> jnp.ndarray:
    target = target.astype(jnp.int32)
    if logits.ndim > 2:
        logits = logits.reshape(-1, logits.shape[-1])
        target = target.reshape(-1)
    loss = optax.softmax_cross_entropy_with_integer_labels(logits, target)
    if reduction == "mean":
        return jnp.mean(loss)
    if reduction == "sum":
        return jnp.sum(loss)
    if reduction == "none":
        return loss
    raise ValueError(f"Unsupported reduction: {reduction!r}")


def create_optimizer(
    learning_rate: float | optax.Schedule,
    weight_decay: float = 0.1,
    grad_clip: float = 1.0,
    beta1: float = 0.9,
    beta2: float = 0.95,
    eps: float = 1e-8,
) -> optax.GradientTransformation:
    optimizer = optax.adamw(
        learning_rate=learning_rate,
        b1=beta1,
        b2=beta2,
        eps=eps,
        weight_decay=weight_decay,
    )
    if grad_clip > 0:
        optimizer = optax.chain(
            optax.clip_by_global_norm(grad_clip),
            optimizer,
        )
    return optimizer



def cosine_warmup_schedule(
    base_lr: float,
    warmup: int,
    max_iters: int,
    end_lr: float = 0.0,
) -> optax.Schedule:
    if warmup <= 0 or max_iters <= 0:
        raise ValueError("warmup and max_iters must be positive.")
    if warmup >= max_iters:
        raise ValueError("warmup must be less than max_iters.")

    return optax.warmup_cosine_decay_schedule(
        init_value=0.0,
        peak_value=base_lr,
        warmup_steps=warmup,
        decay_steps=max_iters - warmup,
        end_value=end_lr,
    )


def get_lr(schedule: optax.Schedule, step: int) -> float:
    return float(schedule(step))


def main() -> None:
    model_cfg = None  # scaffolding: no tokenizer/config
    dataset = TokenDataset(val_fraction=config.val_fraction)  # scaffolding: in-memory tokens
    model = GPT(model_cfg)

    key = jax.random.key(config.seed)
    key, init_key = jax.random.split(key)
    dummy = jnp.zeros((1, config.block_size), dtype=jnp.int32)
    params = model.init(init_key, dummy)

    schedule = cosine_warmup_schedule(
        base_lr=config.learning_rate,
        warmup=config.warmup_iters,
        max_iters=config.max_iters,
    )
    optimizer = create_optimizer(
        learning_rate=schedule,
        weight_decay=config.weight_decay,
        grad_clip=config.grad_clip,
        beta1=config.beta1,
        beta2=config.beta2,
        eps=config.adam_eps,
    )
    opt_state = optimizer.init(params)

    # (run directory setup cut: scaffolding)

    @jax.jit
    def train_step(
        params: nn.FrozenDict,
        opt_state: optax.OptState,
        x: jnp.ndarray,
        y: jnp.ndarray,
        step: jnp.ndarray,
        dropout_rng: jax.Array,
    ):
        def loss_fn(p):
            logits = model.apply(p, x, rngs={"dropout": dropout_rng})
            return cross_entropy(logits, y)

        loss, grads = jax.value_and_grad(loss_fn)(params)
        updates, opt_state = optimizer.update(grads, opt_state, params, step=step)
        params = optax.apply_updates(params, updates)
        return params, opt_state, loss

    @jax.jit
    def eval_step(params: nn.FrozenDict, x: jnp.ndarray, y: jnp.ndarray):
        logits = model.apply(params, x, deterministic=True)
        return cross_entropy(logits, y)

    step = 0
    best_val = float("inf")
    metrics: dict[str, list] = {
        "train_steps": [],
        "train_loss": [],
        "train_loss_raw": [],
        "val_steps": [],
        "val_loss": [],
    }
    loss_ema: float | None = None

    def _save_metrics() -> None:
        pass  # scaffolding: no file output

    print(f"Train tokens: {dataset.train_size:,} | Val tokens: {dataset.val_size:,}", flush=True)
    print(f"Model params: {sum(x.size for x in jax.tree.leaves(params)):,}", flush=True)

    def _eval_val() -> float:
        val_losses: list[float] = []
        nonlocal key
        for _ in range(config.eval_iters):
            key, eval_key = jax.random.split(key)
            vx, vy = get_batch(
                eval_key,
                dataset.val_data,
                config.block_size,
                config.batch_size,
            )
            val_losses.append(float(eval_step(params, vx, vy)))
        return sum(val_losses) / len(val_losses)

    val_loss = _eval_val()
    metrics["val_steps"].append(0)
    metrics["val_loss"].append(val_loss)
    best_val = val_loss
    print(f"step {0:5d} | val_loss {val_loss:.4f}", flush=True)

    while step < config.max_iters:
        key, batch_key, dropout_key = jax.random.split(key, 3)
        x, y = get_batch(batch_key, dataset.train_data, config.block_size, config.batch_size)
        step_jax = jnp.asarray(step, dtype=jnp.int32)
        params, opt_state, loss = train_step(
            params, opt_state, x, y, step_jax, dropout_key
        )
        step += 1

        batch_loss = float(loss)
        if loss_ema is None:
            loss_ema = batch_loss
        else:
            loss_ema = config.ema_decay * loss_ema + (1.0 - config.ema_decay) * batch_loss

        if step % config.log_interval == 0 or step == 1:
            lr = get_lr(schedule, step)
            metrics["train_steps"].append(step)
            metrics["train_loss"].append(loss_ema)
            metrics["train_loss_raw"].append(batch_loss)
            print(
                f"step {step:5d} | loss {loss_ema:.4f} "
                f"(batch {batch_loss:.4f}) | lr {lr:.2e}",
                flush=True,
            )

        if step % config.eval_interval == 0 or step == config.max_iters:
            val_loss = _eval_val()
            metrics["val_steps"].append(step)
            metrics["val_loss"].append(val_loss)
            _save_metrics()
            print(f"step {step:5d} | val_loss {val_loss:.4f}", flush=True)
            if val_loss < best_val:
                best_val = val_loss
                pass  # scaffolding: checkpoint saving cut

    return step  # scaffolding


n_steps = main()  # scaffolding
_report({"jit(train_step)", "jit(eval_step)"}, n_steps + 3 * 3)  # scaffolding: 12 train steps + 3 evals x 3 batches
