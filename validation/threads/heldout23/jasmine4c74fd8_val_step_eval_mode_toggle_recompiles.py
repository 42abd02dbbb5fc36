# source: https://github.com/p-doom/jasmine/commit/4c74fd86be2da7bf961a460c27a24d84316542c1
# expect: changing-static at line 80
# runtime: COMPILES 4 CALLS 18
# why: val_step flips the donated tokenizer to eval mode inside nnx.jit and train_step flips it back, so each jitted step sees a module graph with a different static mode on its next call and compiles twice (the commit's removal of donate_argnums does not change this).

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
import optax
from flax import nnx


class TokenizerVQVAE(nnx.Module):  # scaffolding: tiny stand-in for the repo's VQ-VAE tokenizer
    def __init__(self, rngs):
        self.enc = nnx.Linear(8, 8, rngs=rngs)
        self.drop = nnx.Dropout(0.1, rngs=rngs)

    def __call__(self, inputs, training=True):
        recon = self.drop(self.enc(inputs["videos"]))
        return {"recon": recon}


class Args:  # scaffolding
    val_steps = 3


args = Args()  # scaffolding


# train_tokenizer.py (main) before the commit, loss cut down to the mse term
def tokenizer_loss_fn(model, inputs, training=True):
    gt = jnp.asarray(inputs["videos"], dtype=jnp.float32) / 255.0
    outputs = model({"videos": gt}, training=training)
    mse = jnp.square(gt - outputs["recon"]).mean()
    loss = mse
    metrics = dict(loss=loss, mse=mse)
    return loss, (outputs["recon"], metrics)


@nnx.jit(donate_argnums=0)
def train_step(
    optimizer: nnx.Optimizer, inputs: dict
) -> tuple[jax.Array, jax.Array, dict]:
    def loss_fn(model: TokenizerVQVAE) -> tuple[jax.Array, tuple[jax.Array, dict]]:
        model.train()
        return tokenizer_loss_fn(model, inputs, training=True)

    (loss, (recon, metrics)), grads = nnx.value_and_grad(loss_fn, has_aux=True)(
        optimizer.model
    )
    optimizer.update(optimizer.model, grads)
    return loss, recon, metrics


@nnx.jit(donate_argnums=0)
def val_step(
    tokenizer: TokenizerVQVAE, inputs: dict
) -> tuple[jax.Array, jax.Array, dict]:
    tokenizer.eval()
    (loss, (recon, metrics)) = tokenizer_loss_fn(tokenizer, inputs, training=False)
    return loss, recon, metrics


def calculate_validation_metrics(val_dataloader, tokenizer):
    step = 0
    loss_per_step = []
    metrics_per_step = []
    batch = None
    recon = None
    for batch in val_dataloader:
        loss, recon, metrics = val_step(tokenizer, batch)
        loss_per_step.append(loss)
        metrics_per_step.append(metrics)
        step += 1
        if step > args.val_steps:
            break
    return jnp.mean(jnp.array(loss_per_step))


tokenizer = TokenizerVQVAE(rngs=nnx.Rngs(0))  # scaffolding
optimizer = nnx.Optimizer(tokenizer, optax.adam(1e-3), wrt=nnx.Param)  # scaffolding
optimizer.model = tokenizer  # scaffolding: the repo's optimizer.model attribute
batches = [{"videos": jnp.full((2, 8), float(i))} for i in range(3)]  # scaffolding
calls = 0  # scaffolding
for epoch in range(3):  # scaffolding: training loop with a validation pass per epoch
    for batch in batches:
        loss, recon, metrics = train_step(optimizer, batch)
        calls += 1
    val_loss = calculate_validation_metrics(batches, tokenizer)
    calls += len(batches)
print(float(val_loss))  # scaffolding
_report({"jit(train_step)", "jit(val_step)"}, calls)  # scaffolding
