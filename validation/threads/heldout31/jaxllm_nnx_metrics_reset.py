# source: https://github.com/Sahel13/jax-llm/commit/602e9a7256a4051680f36b8902c9c8d1117abfc6
# expect: none
# runtime: COMPILES 1 CALLS 30
# why: The nnx.jit train_step takes an nnx.MultiMetric that the loop resets every 10 steps; the commit removed it because metrics.reset() caused an extra compilation, but with jax 0.10.2 / flax 0.12.8 the reset state keeps its shapes and dtypes and train_step compiles once.

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
from flax import nnx


class Transformer(nnx.Module):  # scaffolding: tiny stand-in for jax_llm.transformer.Transformer
    def __init__(self, vocab_size, embed_dim, rngs: nnx.Rngs):
        self.embed = nnx.Embed(vocab_size, embed_dim, rngs=rngs)
        self.out = nnx.Linear(embed_dim, vocab_size, rngs=rngs)

    def __call__(self, tokens):
        return self.out(jax.nn.gelu(self.embed(tokens)))


def loss_fn(model, batch):
    logits = model(batch[0])
    loss = optax.softmax_cross_entropy_with_integer_labels(
        logits=logits.astype(jnp.float32), labels=batch[1]
    ).mean()
    return loss, logits


@nnx.jit
def train_step(
    model: nnx.Module, optimizer: nnx.Optimizer, metrics: nnx.MultiMetric, batch
):
    grad_fn = nnx.value_and_grad(loss_fn, has_aux=True)
    (loss, logits), grads = grad_fn(model, batch)
    metrics.update(loss=loss, logits=logits, labels=batch[1])
    optimizer.update(model, grads)  # (flax >= 0.11 signature; the 2025 code called optimizer.update(grads))


model = Transformer(64, 16, nnx.Rngs(0))  # scaffolding: small config
optimizer = nnx.Optimizer(model, optax.adam(1e-3), wrt=nnx.Param)
metrics = nnx.MultiMetric(
    loss=nnx.metrics.Average("loss"),
)

metrics_history = {
    "train_loss": [],
}

prep_target_batch = jax.jit(
    jax.vmap(lambda tokens: jnp.concatenate((tokens[1:], jnp.array([0]))))
)

rng = np.random.default_rng(0)  # scaffolding: random token batches instead of TinyStories via grain
text_dl = [rng.integers(0, 64, (8, 32)).tolist() for _ in range(30)]  # scaffolding

print_every_n_steps = 10
step = 0
for batch in text_dl:
    input_batch = jnp.array(batch)  # (sharded with NamedSharding(mesh, P("data", None)) and transposed in the original)
    target_batch = prep_target_batch(input_batch)

    train_step(model, optimizer, metrics, (input_batch, target_batch))

    if (step + 1) % print_every_n_steps == 0:
        for metric, value in metrics.compute().items():
            metrics_history[f"train_{metric}"].append(value)
        metrics.reset()
    step += 1

_report({"jit(train_step)"}, step)
