# source: https://github.com/google-research/big_vision/pull/8
# expect: none
# runtime: COMPILES 2 CALLS 6
# why: The merged fix passes the step as a replicated array (flax.jax_utils.replicate(step)), so the pmapped update_fn keeps one signature and stops recompiling after the first steps.
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
import flax
import flax.jax_utils
import jax
import jax.numpy as jnp
import numpy as np
import optax


class _Config(dict):  # scaffolding: ml_collections.ConfigDict stand-in
    __getattr__ = dict.get  # scaffolding


config = _Config(lr=1.0, gsam=_Config(rho_max=0.04, rho_min=0.04, alpha=0.0))  # scaffolding
total_steps = 6  # scaffolding
sched_fns = [optax.cosine_decay_schedule(1.0, total_steps)]  # scaffolding: bv_optax.make's schedule
tx = optax.sgd(1.0)  # scaffolding: bv_optax.make's optimizer


class u:  # scaffolding: big_vision.utils
    @staticmethod
    def sigmoid_xent(*, logits, labels):  # scaffolding
        return jnp.mean(optax.sigmoid_binary_cross_entropy(logits, labels))  # scaffolding


class _Model:  # scaffolding: a linear classifier instead of the ViT
    def apply(self, variables, images, train=True, rngs=None):  # scaffolding
        return images.reshape(images.shape[0], -1) @ variables["params"]["w"], None  # scaffolding


model = _Model()  # scaffolding


def gsam_gradient(loss_fn, params, inputs, targets, lr, rho_max, rho_min, alpha):  # scaffolding: gsam.py reduced to its lr-dependent perturbation
    rho = rho_min + (rho_max - rho_min) * lr  # scaffolding
    g = jax.grad(loss_fn)(params, inputs, targets)  # scaffolding
    params_adv = jax.tree_util.tree_map(lambda p, gi: p + rho * gi, params, g)  # scaffolding
    return jax.value_and_grad(loss_fn)(params_adv, inputs, targets)  # scaffolding


jax.tree_leaves = jax.tree_util.tree_leaves  # scaffolding: removed from jax in 0.6


class bv_optax:  # scaffolding
    @staticmethod
    def replace_frozen(schedule, grads, value):  # scaffolding: nothing is frozen here
        return grads  # scaffolding


def train(first_step=0):  # scaffolding: the body of train.main around update_fn
  params_cpu = {"w": jnp.zeros((12, 3))}  # scaffolding
  opt_cpu = jax.jit(tx.init, backend="cpu")(params_cpu)
  params_repl = flax.jax_utils.replicate(params_cpu)
  opt_repl = flax.jax_utils.replicate(opt_cpu)
  rngs_loop = flax.jax_utils.replicate(jax.random.PRNGKey(0))  # scaffolding
  n = jax.local_device_count()  # scaffolding
  train_iter = ({"image": np.ones((n, 4, 12), np.float32), "labels": np.ones((n, 4, 3), np.float32)} for _ in range(total_steps))  # scaffolding

  @partial(jax.pmap, axis_name="batch", donate_argnums=(0, 1))
  def update_fn(params, opt, rng, images, labels, step):
    """Update step."""

    measurements = {}

    if config.get("mixup") and config.mixup.p:
      rng, (images, labels), _ = u.mixup(rng, images, labels, **config.mixup)

    # Get device-specific loss rng.
    rng, rng_model = jax.random.split(rng, 2)
    rng_model_local = jax.random.fold_in(rng_model, jax.lax.axis_index("batch"))

    def loss_fn(params, images, labels):
      logits, _ = model.apply(
          {"params": flax.core.freeze(params)}, images,
          train=True, rngs={"dropout": rng_model_local})
      return getattr(u, config.get("loss", "sigmoid_xent"))(
          logits=logits, labels=labels)

    learning_rate = sched_fns[0](step) * config.lr
    l, grads = gsam_gradient(loss_fn=loss_fn, params=params, inputs=images,
        targets=labels, lr=learning_rate, **config.gsam)
    l, grads = jax.lax.pmean((l, grads), axis_name="batch")
    updates, opt = tx.update(grads, opt, params)
    params = optax.apply_updates(params, updates)

    gs = jax.tree_leaves(bv_optax.replace_frozen(config.schedule, grads, 0.))
    measurements["l2_grads"] = jnp.sqrt(sum(jnp.vdot(g, g) for g in gs))
    ps = jax.tree_util.tree_leaves(params)
    measurements["l2_params"] = jnp.sqrt(sum(jnp.vdot(p, p) for p in ps))
    us = jax.tree_util.tree_leaves(updates)
    measurements["l2_updates"] = jnp.sqrt(sum(jnp.vdot(u, u) for u in us))

    return params, opt, rng, l, measurements

  for step, train_batch in zip(
      range(first_step + 1, total_steps + 1), train_iter):
      params_repl, opt_repl, rngs_loop, loss_value, measurements = update_fn(
          params_repl, opt_repl, rngs_loop,
          train_batch["image"],
          train_batch["labels"],
          flax.jax_utils.replicate(step))


train()  # scaffolding
_report({"jit(update_fn)", "pmap(update_fn)", "jit(_fun)"}, total_steps)  # scaffolding
