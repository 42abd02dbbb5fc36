# source: https://github.com/stanford-crfm/levanter/commit/e89e7093ab840656f81ba16dd1e373331b0516ce
# expect: none
# runtime: COMPILES 1 CALLS 6
# why: e89e7093 defines eval_loss once before the domain loop, so all domains reuse one compiled evaluation function.

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
import logging
import time
from typing import Optional

import equinox as eqx
import jax
import jax.numpy as jnp
from tqdm import tqdm

logger = logging.getLogger(__name__)
inference_mode = eqx.nn.inference_mode  # scaffolding: levanter's inference_mode helper


# levanter/callbacks.py
def eval_loss_loop(loss_fn, model, dataset, max_batches: Optional[int] = None, name: Optional[str] = None):
    total_loss = 0.0
    total_load_time = 0.0
    total_loss_time = 0.0
    n = 0

    if name is not None:
        desc = f"eval {name}"
    else:
        desc = "eval"

    pbar = tqdm(dataset, desc=desc, position=1, leave=False, total=max_batches, disable=True)  # (disable=True: scaffolding)
    iter_ = iter(pbar)
    while True:
        time_in = time.time()
        batch = next(iter_, None)
        if batch is None:
            break
        load_time = time.time() - time_in
        total_load_time += load_time
        loss = loss_fn(model, batch)
        total_loss += loss.item()
        n += 1
        loss_time = time.time() - time_in - load_time
        total_loss_time += loss_time

        pbar.set_postfix(loss=total_loss / n)

        if max_batches is not None and n >= max_batches:
            break

    if n > 0:
        total_loss /= n

    return total_loss


class _Trainer:  # scaffolding: stands in for DoReMiTrainer (loss_fn and replicated_loader only)
    EvalBatch = 8

    def loss_fn(self, model, batch, key=None):
        x, y = batch
        return jnp.mean((jax.vmap(model)(x) - y) ** 2)

    def replicated_loader(self, dataset, batch_size):
        return list(dataset)


# scaffolding: a small reference model and three validation domains with same-shaped batches
ref = eqx.nn.MLP(4, 1, 16, 2, key=jax.random.PRNGKey(0))
validation_sets = {
    name: [(jax.random.normal(jax.random.PRNGKey(10 * d + b), (8, 4)), jnp.zeros((8, 1))) for b in range(2)]
    for d, name in enumerate(["web", "books", "code"])
}
trainer = _Trainer()
max_eval_batches = None


# levanter/doremi.py estimate_mixture_weights(), the reference-model evaluation
if validation_sets is not None:

    @eqx.filter_jit
    def eval_loss(model, *batch, **batch_kwargs):
        model = inference_mode(model, True)
        return trainer.loss_fn(model, *batch, **batch_kwargs, key=None)

    for domain, dataset in validation_sets.items():
        loss = eval_loss_loop(
            eval_loss,
            ref,
            trainer.replicated_loader(dataset, trainer.EvalBatch),
            name=f"ref {domain}",
            max_batches=max_eval_batches,
        )
        print(f"Loss of ref model on domain {domain}: {loss:.3f}")
_report({"jit(eval_loss)"}, sum(len(v) for v in validation_sets.values()))
