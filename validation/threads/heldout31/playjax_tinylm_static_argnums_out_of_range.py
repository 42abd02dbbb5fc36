# source: https://github.com/kelechi-c/play_jax/blob/ea9f4a00b17f08cca872b9ec0c079633c9bf5d6b/tinylm/tinylm_trainer.py
# expect: bad-static-spec at line 140
# runtime: ERROR ValueError
# why: jit_train_step re-wraps the two-argument train_step with static_argnums=(2, 3) (left over from a four-argument signature, also commented out in the decorator above), so jax.jit raises at module import: ValueError.

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
import jax, math, optax
from jax import numpy as jnp, random as jrand, Array
from jax.sharding import NamedSharding as NS, Mesh, PartitionSpec as PS
from jax.experimental import mesh_utils
from flax import nnx

import numpy as np
import time, gc, os, pickle
from functools import partial
# (wandb, click, datasets, transformers, torch DataLoader, flax TrainState/serialization imports dropped: scaffolding)

# jax.distributed.initialize()  (multi-host TPU setup, dropped: scaffolding)
jax.config.update("jax_default_matmul_precision", "bfloat16")
JAX_TRACEBACK_FILTERING = "off"
os.environ["XLA_PYTHON_CLIENT_PREALLOCATE"] = "false"
os.environ["XLA_PYTHON_CLIENT_ALLOCATOR"] = "platform"
XLA_PYTHON_CLIENT_MEM_FRACTION = 0.20
JAX_DEFAULT_MATMUL_PRECISION = "bfloat16"


class config:
    depth = 12
    attn_heads = 8
    hidden_dim = 768
    mlp_dim = hidden_dim * 2
    vocab_size = 2048
    max_len = 128
    seed = 256
    key = jrand.key(seed)
    split = 10_000
    learn_rate = 1e-4


num_devices = jax.device_count()
devices = jax.devices()

print(f"found {num_devices} JAX device(s)")
for device in devices:
    print(f"{device} / \n")


mesh_devices = mesh_utils.create_device_mesh((num_devices,))
mesh = Mesh(mesh_devices, axis_names=("data",))  # scaffolding: ("data", None) in this commit, rejected by jax 0.10 (the author's next commit uses ("data",))
print(f"{mesh.shape = }")

# (tokenizer, TextData, model classes, checkpoint/wandb helpers, initialize_state, jax_collate: not needed here, dropped: scaffolding)


@jax.vmap
def modelpass(logits, tokens):
    output = logits[..., :-1, :]
    targets = tokens[..., 1:].squeeze(1)

    output = output.reshape(-1, output.shape[-1])
    targets = targets.reshape(-1)

    output = output.astype(jnp.bfloat16)
    targets = targets.astype(jnp.bfloat16)

    return output, targets


# compile multidevice versions of train/eval/predict step fn.
# (Transformer model and initialize_state(lm_model, mesh, tx_optimizer) not reproduced: scaffolding;
#  state_sharding below stands for the nnx.get_named_sharding(...) pytree it returns)
tx_optimizer = optax.adamw(learning_rate=1e-4)

state_sharding = NS(mesh, PS())  # scaffolding
data_sharding = NS(mesh, PS("data"))
rep_sharding = NS(mesh, PS())


@partial(
    jax.jit,
    in_shardings=(state_sharding, data_sharding),  # type: ignore
    out_shardings=(state_sharding, None),  # type: ignore
    # static_argnums=(2, 3),
    donate_argnums=0,
)  # type: ignore
def train_step(model_state, batch):

    def loss_func(state, batch):
        model = nnx.merge(state.graphdef, state)

        tokens = batch["input_ids"]
        logits = model(tokens)

        logits = logits.astype(jnp.bfloat16)
        tokens = tokens.astype(jnp.bfloat16)
        output, targets = modelpass(logits, tokens)

        loss = optax.softmax_cross_entropy(output, targets).mean()

        return loss

    grad_fn = jax.value_and_grad(loss_func)
    loss, grads = grad_fn(model_state.params, batch)
    new_state = model_state.apply_gradients(grads=grads)

    return new_state, loss


try:  # scaffolding
    jit_train_step = jax.jit(
        train_step,
        in_shardings=(
            state_sharding,
            data_sharding,
            None,
        ),  # type: ignore
        out_shardings=(state_sharding),  # type: ignore
        static_argnums=(2, 3),
        donate_argnums=0,
    )
except ValueError as e:  # scaffolding
    print(e)  # scaffolding
    print("ERROR ValueError")  # scaffolding
