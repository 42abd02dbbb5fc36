# source: https://www.gilesthomas.com/2026/06/hashing-jax-parameters
# expect: stale-closure at line 58
# runtime: COMPILES 1 CALLS 3
# why: train_step is decorated with plain jax.jit, so the NNX model and optimizer are traced copies and optimizer.update's in-place parameter update is discarded: the parameter hash never changes across steps (silently wrong, one compile).

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
import hashlib

import jax
import jax.numpy as jnp
import optax
from flax import nnx


class Shell(nnx.Module):  # scaffolding: embeddings wired straight to an output head
    def __init__(self, vocab, dim, rngs):
        self.embed = nnx.Embed(vocab, dim, rngs=rngs)
        self.head = nnx.Linear(dim, vocab, rngs=rngs)

    def __call__(self, tokens):
        return self.head(self.embed(tokens))


def params_hash(model):
    h = hashlib.sha256()
    for leaf in jax.tree_util.tree_leaves(nnx.state(model, nnx.Param)):
        h.update(jax.device_get(leaf).tobytes())
    return h.hexdigest()[:16]


def loss_fn(model, tokens, targets):
    logits = model(tokens)
    return optax.softmax_cross_entropy_with_integer_labels(logits, targets).mean()


@jax.jit
def train_step(model, optimizer, tokens, targets):
    loss, grads = nnx.value_and_grad(loss_fn)(model, tokens, targets)
    optimizer.update(model, grads)
    return loss


model = Shell(50, 16, nnx.Rngs(0))  # scaffolding: small sizes
optimizer = nnx.Optimizer(model, optax.adam(1e-2), wrt=nnx.Param)
tokens = jax.random.randint(jax.random.key(1), (4, 8), 0, 50)

hashes = [params_hash(model)]
calls = 0
for step in range(3):  # scaffolding
    loss = train_step(model, optimizer, tokens, tokens)
    calls += 1
    hashes.append(params_hash(model))
print("params changed:", len(set(hashes)) > 1)
_report({"jit(train_step)"}, calls)
