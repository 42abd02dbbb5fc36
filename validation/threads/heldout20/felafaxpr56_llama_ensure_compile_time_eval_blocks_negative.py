# source: https://github.com/felafax/felafax/pull/56
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: LlamaModel builds its stacked layers and runs its layer scan inside jax.ensure_compile_time_eval; on jax 0.10.2 traced values stay traced there, so the abstract init, the real init and a 3-step jitted training loop all run and the step compiles once.
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
# felafax/felafax PR #56 (Remove jax.ensure_compile_time_eval to fixed tracer leak): LlamaModel before the PR (src/felafax/trainer_engine/models/llama3/jax/model.py at e953999)
import types  # scaffolding
from typing import Any, List

import equinox as eqx
import jax
import jax.numpy as jnp
import optax  # scaffolding

remat_policy = {"nothing": jax.checkpoint_policies.nothing_saveable}  # scaffolding: the module's policy table, one entry


class LlamaEmbedding(eqx.Module):  # scaffolding: reduced embedding
    weight: jax.Array  # scaffolding

    def __init__(self, vocab_size, hidden_size, param_dtype, compute_dtype, key):  # scaffolding
        self.weight = jax.random.normal(key, (vocab_size, hidden_size), dtype=param_dtype) * 0.02  # scaffolding

    def __call__(self, input_ids):  # scaffolding
        return self.weight[input_ids]  # scaffolding


class LlamaDecoderLayer(eqx.Module):  # scaffolding: one dense residual block instead of attention + MLP
    w: jax.Array  # scaffolding

    def __init__(self, config, param_dtype, compute_dtype, key):  # scaffolding
        self.w = jax.random.normal(key, (config.hidden_size, config.hidden_size), dtype=param_dtype) * 0.02  # scaffolding

    def __call__(self, hidden_states, attention_mask, position_ids):  # scaffolding
        return hidden_states + jnp.tanh(hidden_states @ self.w)  # scaffolding


class LlamaRMSNorm(eqx.Module):  # scaffolding
    eps: float = eqx.field(static=True)  # scaffolding

    def __init__(self, hidden_size, eps, param_dtype, compute_dtype):  # scaffolding
        self.eps = eps  # scaffolding

    def __call__(self, x):  # scaffolding
        return x * jax.lax.rsqrt(jnp.mean(x * x, axis=-1, keepdims=True) + self.eps)  # scaffolding


class LlamaModel(eqx.Module):
    embed_tokens: LlamaEmbedding
    layers: List[LlamaDecoderLayer] | Any
    norm: LlamaRMSNorm
    param_dtype: Any
    compute_dtype: Any
    use_optimized_decoder: bool

    def __init__(
        self,
        config,
        param_dtype=jnp.float32,
        compute_dtype=jnp.float32,
        key=None,
        use_optimized_decoder=True,
    ):
        self.param_dtype = param_dtype
        self.compute_dtype = compute_dtype

        if key is None:
            key = jax.random.PRNGKey(99)

        self.embed_tokens = LlamaEmbedding(
            config.vocab_size,
            config.hidden_size,
            param_dtype=jnp.float32,
            compute_dtype=jnp.float32,
            key=key,
        )

        layer_keys = jax.random.split(key, config.num_hidden_layers)

        with jax.ensure_compile_time_eval():
            self.use_optimized_decoder = use_optimized_decoder
            if self.use_optimized_decoder:
                # LlamaDecoderLayers
                make_layer = lambda k: LlamaDecoderLayer(
                    config=config,
                    param_dtype=param_dtype,
                    compute_dtype=compute_dtype,
                    key=k,
                )
                self.layers = eqx.filter_vmap(make_layer)(layer_keys)
            else:
                self.layers = [
                    LlamaDecoderLayer(
                        config,
                        param_dtype=self.param_dtype,
                        compute_dtype=self.compute_dtype,
                        key=layer_keys[i],
                    )
                    for i in range(config.num_hidden_layers)
                ]

        self.norm = LlamaRMSNorm(
            config.hidden_size,
            config.rms_norm_eps,
            param_dtype=self.param_dtype,
            compute_dtype=self.compute_dtype,
        )

    def __call__(self, input_ids, attention_mask=None, position_ids=None):
        hidden_states = self.embed_tokens(input_ids)
        hidden_states = hidden_states.astype(self.compute_dtype)

        policy = remat_policy["nothing"]

        with jax.ensure_compile_time_eval():
            if self.use_optimized_decoder:
                dynamic_layers, static_layers = eqx.partition(
                    self.layers, eqx.is_array
                )

                def f(carry, dynamic_layer):
                    hidden_states = carry
                    layer = eqx.combine(dynamic_layer, static_layers)
                    hidden_states = eqx.filter_checkpoint(layer, policy=policy)(
                        hidden_states, attention_mask, position_ids
                    ).astype(self.compute_dtype)
                    return hidden_states, None

                hidden_states, _ = jax.lax.scan(f, hidden_states, dynamic_layers)
            else:
                for layer in self.layers:
                    hidden_states = eqx.filter_checkpoint(layer, policy=policy)(
                        hidden_states, attention_mask, position_ids
                    ).astype(self.compute_dtype)

        hidden_states = self.norm(hidden_states)
        return hidden_states.astype(self.compute_dtype)


# scaffolding: a tiny config, the model built once abstractly (as a sharded init does) and once for real, and a 3-step jitted training loop
config = types.SimpleNamespace(vocab_size=64, hidden_size=16, num_hidden_layers=3, rms_norm_eps=1e-6)  # scaffolding
abstract_model = eqx.filter_eval_shape(LlamaModel, config, key=jax.random.PRNGKey(0))  # scaffolding
model = LlamaModel(config, key=jax.random.PRNGKey(0))  # scaffolding
optimizer = optax.sgd(1e-2)  # scaffolding
opt_state = optimizer.init(eqx.filter(model, eqx.is_array))  # scaffolding


@eqx.filter_jit
def train_step(model, opt_state, input_ids):  # scaffolding
    def loss_fn(model):  # scaffolding
        return jnp.mean(model(input_ids) ** 2)  # scaffolding
    loss, grads = eqx.filter_value_and_grad(loss_fn)(model)  # scaffolding
    updates, opt_state = optimizer.update(grads, opt_state)  # scaffolding
    return eqx.apply_updates(model, updates), opt_state, loss  # scaffolding


for step in range(3):  # scaffolding
    input_ids = jax.random.randint(jax.random.PRNGKey(step), (2, 8), 0, config.vocab_size)  # scaffolding
    model, opt_state, loss = train_step(model, opt_state, input_ids)  # scaffolding
print(float(loss))  # scaffolding
print(sorted(set(n for n in _COMPILED if "train" in str(n))))  # scaffolding
_report({"jit(train_step)"}, 3)  # scaffolding
