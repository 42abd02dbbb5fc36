# source: https://github.com/demon2036/MLLM-JAX/commit/9528fb0092afc94a12ab4308bfd27e5336c1d8e2
# expect: trace-time-error at line 57
# runtime: ERROR ConcretizationTypeError
# why: ema_decay is an ordinary (pytree) field of the TrainState, so inside the jitted training_step it is a tracer and float(decay) raises ConcretizationTypeError.

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

# (from __future__ import annotations dropped: it must precede the harness)

from typing import Any

import jax
import jax.numpy as jnp
import optax
from chex import ArrayTree
from flax.training import train_state


def training_step(state: Any, inputs: Any):
    """Training step with correct gradient accumulation (when state.grad_accum is set).

    This mirrors `training2.training_step` but fixes the grad-accum logic so that
    `grad_accum_steps > 1` behaves as intended.
    """
    import jax
    import jax.numpy as jnp

    def _maybe_update_ema(st: Any) -> Any:
        ema_params = getattr(st, "ema_params", None)
        if ema_params is None:
            return st
        decay = getattr(st, "ema_decay", None)
        if decay is None:
            raise ValueError("ema_params is set but ema_decay is missing on the TrainState")
        decay_f = float(decay)
        if not (0.0 < decay_f < 1.0):
            raise ValueError(f"ema_decay must be in (0, 1), got {decay_f}")
        new_ema = jax.tree_util.tree_map(
            lambda ema, p: ema * decay_f + (1.0 - decay_f) * p,
            ema_params,
            st.params,
        )
        return st.replace(ema_params=new_ema)

    def loss_fn(params):
        variables = {"params": {"model": params}}
        if getattr(state, "ref_params", None) is not None:
            variables["params"]["ref_model"] = state.ref_params
        metrics = state.apply_fn(variables, inputs)
        per_token_logps = metrics.pop("per_token_logps", None)
        metrics = jax.tree_util.tree_map(jnp.mean, metrics)
        return metrics["loss"], metrics | {"per_token_logps": per_token_logps}

    (_, metrics), grads = jax.value_and_grad(loss_fn, has_aux=True)(state.params)

    if getattr(state, "grad_accum", None) is None:
        state = state.apply_gradients(grads=grads)
        state = _maybe_update_ema(state)
        return state, metrics

    state = state.replace(
        grad_accum=jax.tree_util.tree_map(lambda ga, g: ga + g, state.grad_accum, grads),
        micro_step=state.micro_step + 1,
    )

    def update_fn(st):
        grads_mean = jax.tree_util.tree_map(lambda g: g / st.micro_in_mini, st.grad_accum)
        st = st.apply_gradients(
            grads=grads_mean,
            grad_accum=jax.tree_util.tree_map(jnp.zeros_like, st.grad_accum),
            micro_step=st.micro_step % st.micro_in_mini,
        )
        st = _maybe_update_ema(st)
        return st

    state = jax.lax.cond(state.micro_step == state.micro_in_mini, update_fn, lambda x: x, state)
    return state, metrics


class SftTrainState(train_state.TrainState):
    micro_step: int = 0
    micro_in_mini: int = 1
    grad_accum: ArrayTree | None = None
    ema_params: ArrayTree | None = None
    ema_decay: float = 0.9998


def _apply(variables, inputs):  # scaffolding: stands in for TrainSftModule.apply (a causal-LM loss)
    w = variables["params"]["model"]["w"]
    logits = inputs["input_ids"].astype(jnp.float32)[..., None] * w
    return {"loss": jnp.mean((logits - 1.0) ** 2), "per_token_logps": logits[..., 0]}


# scaffolding: the init_fn of create_sft_state with ema enabled, grad_accum_steps=1, no sharding
ema_enabled, ema_decay_f, grad_accum_steps = True, float(0.9998), 1
params = {"w": jnp.ones((8,))}
tx = optax.adamw(1e-3)


def init_fn(p):
    grad_accum = jax.tree_util.tree_map(jnp.zeros_like, p) if grad_accum_steps > 1 else None
    ema_params = p if ema_enabled else None
    return SftTrainState.create(
        apply_fn=_apply,
        params=p,
        tx=tx,
        micro_step=0,
        micro_in_mini=grad_accum_steps,
        grad_accum=grad_accum,
        ema_params=ema_params,
        ema_decay=ema_decay_f,
    )


state = jax.jit(init_fn)(params)
train_step_fn = jax.jit(training_step, donate_argnums=(0,))  # (out_shardings=(bundle.sharding, None) dropped)
try:  # scaffolding
    for step in range(3):  # scaffolding: max_steps cut to 3, random batches
        batch = {"input_ids": jax.random.randint(jax.random.PRNGKey(step), (4, 16), 0, 10)}
        state, metrics = train_step_fn(state, batch)
    _report({"jit(training_step)"}, 3)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
