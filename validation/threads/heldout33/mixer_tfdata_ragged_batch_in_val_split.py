# source: https://github.com/shz545/MIXER/blob/ab08e90fcd8440b0a178be5a0ba432feba5ef7d3/train.py
# expect: none
# runtime: COMPILES 1 CALLS 18
# why: the batches come from tf.data .batch() without drop_remainder and train_step gets NumPy CutMix arrays and a NumPy-scalar lam, but split_dataset slices the batch list so the short last batch lands in the validation split (run by the unjitted eval_step), and lam is always a float64 scalar, so train_step compiles once.

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
import jax.lax as lax
import optax
import time
import flax.linen as nn
from flax.training import train_state
from flax.core import FrozenDict


# model.py
class MlpBlock(nn.Module):
    mlp_dim: int
    dropout_rate: float
    use_bn: bool = False

    @nn.compact
    def __call__(self, x, train: bool):
        y = nn.Dense(self.mlp_dim)(x)
        if self.use_bn:
            y = nn.BatchNorm(use_running_average=not train)(y)
        y = nn.relu(y)
        y = nn.Dropout(rate=self.dropout_rate)(y, deterministic=not train)
        y = nn.Dense(x.shape[-1])(y)
        if self.use_bn:
            y = nn.BatchNorm(use_running_average=not train)(y)
        return y

class MixerBlock(nn.Module):
    tokens_mlp_dim: int
    channels_mlp_dim: int
    dropout_rate: float
    use_bn: bool = False

    @nn.compact
    def __call__(self, x, train: bool):
        y = x
        if not self.use_bn:
            y = nn.LayerNorm()(y)
        y = jnp.swapaxes(y, 1, 2)
        y = MlpBlock(self.tokens_mlp_dim, self.dropout_rate, self.use_bn, name='token_mixing')(y, train=train)
        y = jnp.swapaxes(y, 1, 2)
        x = x + y

        y = x
        if not self.use_bn:
            y = nn.LayerNorm()(y)
        y = MlpBlock(self.channels_mlp_dim, self.dropout_rate, self.use_bn, name='channel_mixing')(y, train=train)
        return x + y

class MlpMixer(nn.Module):
    num_classes: int
    num_blocks: int
    patch_size: int
    hidden_dim: int
    tokens_mlp_dim: int
    channels_mlp_dim: int
    dropout_rate: float
    use_bn: bool = False

    @nn.compact
    def __call__(self, x, train: bool = False):
        s = self.patch_size
        # 指定 input_channels
        x = nn.Conv(self.hidden_dim, (s, s), strides=(s, s), name='stem')(x)
        if self.use_bn:
            x = nn.BatchNorm(use_running_average=not train)(x)
        x = x.reshape(x.shape[0], -1, x.shape[-1])  # scaffolding: einops.rearrange(x, 'n h w c -> n (h w) c'); einops not installed

        for _ in range(self.num_blocks):
            x = MixerBlock(self.tokens_mlp_dim, self.channels_mlp_dim, self.dropout_rate, self.use_bn)(x, train=train)

        if self.use_bn:
            x = nn.BatchNorm(use_running_average=not train, name='pre_head_bn')(x)
        else:
            x = nn.LayerNorm(name='pre_head_layer_norm')(x)

        x = jnp.mean(x, axis=1)
        return nn.Dense(self.num_classes, name='head', kernel_init=nn.initializers.zeros)(x)


# utils.py
def cutmix_data(x, y, alpha=1.0):
    """CutMix augmentation"""
    batch_size, h, w, c = x.shape
    lam = np.random.beta(alpha, alpha)
    rand_index = np.random.permutation(batch_size)
    y_a = y
    y_b = y[rand_index]

    # 隨機產生 bbox
    cut_rat = np.sqrt(1. - lam)
    cut_w = np.int32(w * cut_rat)
    cut_h = np.int32(h * cut_rat)

    cx = np.random.randint(w)
    cy = np.random.randint(h)
    bbx1 = np.clip(cx - cut_w // 2, 0, w)
    bby1 = np.clip(cy - cut_h // 2, 0, h)
    bbx2 = np.clip(cx + cut_w // 2, 0, w)
    bby2 = np.clip(cy + cut_h // 2, 0, h)

    x_cutmix = np.copy(x)
    for i in range(batch_size):
        x_cutmix[i, bby1:bby2, bbx1:bbx2, :] = x[rand_index[i], bby1:bby2, bbx1:bbx2, :]

    # 修正 lam
    lam = 1 - ((bbx2 - bbx1) * (bby2 - bby1) / (w * h))
    return x_cutmix, y_a, y_b, lam


# train.py
# 🔹 擴充 TrainState 以支援 BatchNorm
class TrainState(train_state.TrainState):
    batch_stats: FrozenDict

# 🔹 Cross entropy loss（label smoothing）
def cross_entropy_loss(logits, labels, smoothing=0.1):
    num_classes = logits.shape[-1]
    one_hot = jax.nn.one_hot(labels, num_classes)
    soft_labels = one_hot * (1 - smoothing) + smoothing / num_classes
    return optax.softmax_cross_entropy(logits, soft_labels).mean()

def cosine_annealing_with_restarts_schedule(
    base_lr, warmup_steps, initial_period, period_mult=2, eta_min=0.0
):
    def schedule(step):
        def warmup_fn(_):
            return base_lr * step / warmup_steps

        def anneal_fn(_):
            s = step - warmup_steps
            period = initial_period
            accumulated = 0

            def cond_fn(vals):
                s, accumulated, period = vals
                return s >= accumulated + period

            def body_fn(vals):
                s, accumulated, period = vals
                return s, accumulated + period, period * period_mult

            s, accumulated, period = lax.while_loop(cond_fn, body_fn, (s, accumulated, period))
            t_cur = s - accumulated
            cosine = jnp.cos(jnp.pi * t_cur / period)
            return eta_min + 0.5 * (base_lr - eta_min) * (1 + cosine)

        return lax.cond(step < warmup_steps, warmup_fn, anneal_fn, operand=None)

    return schedule

def create_train_state(
    rng, model, learning_rate, num_epochs=None, steps_per_epoch=None,
    warmup_steps=0, weight_decay=5e-5, initial_period=500, period_mult=2,
    eta_min=0.0, optimizer="adamw", momentum=0.9
):
    variables = model.init(rng, jnp.ones([1, 32, 32, 1]), train=True)
    params = variables['params']
    batch_stats = variables.get('batch_stats', FrozenDict())

    if num_epochs and steps_per_epoch:
        warmup_steps = 2 * steps_per_epoch
        schedule_fn = cosine_annealing_with_restarts_schedule(
            base_lr=learning_rate,
            warmup_steps=warmup_steps,
            initial_period=initial_period,
            period_mult=period_mult,
            eta_min=eta_min
        )
        schedule = schedule_fn

        if optimizer.lower() == "adamw":
            tx = optax.adamw(schedule, weight_decay=weight_decay)
        elif optimizer.lower() == "sgd":
            tx = optax.chain(
                optax.trace(decay=momentum, nesterov=True),
                optax.scale_by_schedule(schedule),
                optax.scale(-1.0)
            )
        else:
            raise ValueError(f"Unsupported optimizer: {optimizer}")
    else:
        schedule = None
        if optimizer.lower() == "adamw":
            tx = optax.adamw(learning_rate=learning_rate, weight_decay=weight_decay)
        elif optimizer.lower() == "sgd":
            tx = optax.sgd(learning_rate=learning_rate, momentum=momentum, nesterov=True)
        else:
            raise ValueError(f"Unsupported optimizer: {optimizer}")

    return TrainState.create(
        apply_fn=model.apply,
        params=params,
        tx=tx,
        batch_stats=batch_stats
    ), schedule

@jax.jit
def train_step(state, mixed_imgs, y_a, y_b, lam, labels, smoothing=0.1):
    def loss_fn(params):
        dropout_rng = jax.random.fold_in(jax.random.PRNGKey(0), state.step)
        variables = {'params': params, 'batch_stats': state.batch_stats}
        logits, new_model_state = state.apply_fn(
            variables,
            mixed_imgs,
            train=True,
            rngs={'dropout': dropout_rng},
            mutable=["batch_stats"]
        )
        loss_a = cross_entropy_loss(logits, y_a, smoothing)
        loss_b = cross_entropy_loss(logits, y_b, smoothing)
        loss = lam * loss_a + (1 - lam) * loss_b
        return loss, (logits, new_model_state)

    grad_fn = jax.value_and_grad(loss_fn, has_aux=True)
    (loss, (logits, new_model_state)), grads = grad_fn(state.params)
    state = state.apply_gradients(grads=grads)
    state = state.replace(batch_stats=new_model_state["batch_stats"])
    acc = jnp.mean(jnp.argmax(logits, axis=-1) == labels)
    return state, {'loss': loss, 'accuracy': acc}

def eval_step(state, batch, smoothing=0.1):
    imgs, labels = batch
    variables = {'params': state.params, 'batch_stats': state.batch_stats}
    logits = state.apply_fn(variables, imgs, train=False, mutable=False)
    loss = cross_entropy_loss(logits, labels, smoothing)
    acc = jnp.mean(jnp.argmax(logits, axis=-1) == labels)
    return {'loss': loss, 'accuracy': acc}


def split_dataset(data, split_ratio=0.9):
    split_idx = int(len(data) * split_ratio)
    return data[:split_idx], data[split_idx:]


# train.py, train_with_config() (validation, early stopping, plotting and pickling cut)
config = dict(num_blocks=1, patch_size=8, hidden_dim=16, tokens_mlp_dim=16, channels_mlp_dim=16, dropout_rate=0.1, use_bn=True, learning_rate=1e-3)  # scaffolding: small config
num_epochs, batch_size = 2, 16  # scaffolding: 10 epochs of 128 in the source
rng = jax.random.PRNGKey(0)
model = MlpMixer(
    num_classes=10,
    num_blocks=config["num_blocks"],
    patch_size=config["patch_size"],
    hidden_dim=config["hidden_dim"],
    tokens_mlp_dim=config["tokens_mlp_dim"],
    channels_mlp_dim=config["channels_mlp_dim"],
    dropout_rate=config["dropout_rate"],
    use_bn=config["use_bn"]
)
_x = np.random.default_rng(0).random((168, 32, 32, 1), dtype=np.float32)  # scaffolding: stands in for MNIST via tf.data
_y = np.random.default_rng(1).integers(0, 10, 168)  # scaffolding
full_train_data = [(jnp.array(_x[i:i + batch_size]), jnp.array(_y[i:i + batch_size])) for i in range(0, 168, batch_size)]  # scaffolding: load_dataset's list of .batch(batch_size) batches, last one short (8)
train_data, val_data = split_dataset(full_train_data, split_ratio=0.9)
steps_per_epoch = len(train_data) 
schedule = cosine_annealing_with_restarts_schedule(
    base_lr=config["learning_rate"],
    warmup_steps=5 * steps_per_epoch,
    initial_period=6 * steps_per_epoch,
    period_mult=2,
    eta_min=0.00001
)
state, _ = create_train_state(rng, model, learning_rate=config["learning_rate"], weight_decay=5e-5, optimizer="adamw")
lrs = []

for epoch in range(num_epochs):
    epoch_train_loss, epoch_train_acc = 0, 0
    batch_count = 0
    epoch_start = time.time()

    for batch_idx, batch in enumerate(train_data):
        imgs, labels = batch
        mixed_imgs, y_a, y_b, lam = cutmix_data(np.array(imgs), np.array(labels))
        state, metrics = train_step(state, mixed_imgs, y_a, y_b, lam, labels)
        current_step = epoch * steps_per_epoch + batch_idx
        lr = float(schedule(current_step))
        lrs.append(lr)

        epoch_train_loss += float(metrics['loss'])
        epoch_train_acc += float(metrics['accuracy'])
        batch_count += 1

        if epoch == 0 and batch_idx < 10:
            print(f"Step {current_step+1}, LR: {lr:.6f}")
    for batch in val_data:
        metrics = eval_step(state, batch)
_report({"jit(train_step)"}, num_epochs * steps_per_epoch)  # scaffolding
