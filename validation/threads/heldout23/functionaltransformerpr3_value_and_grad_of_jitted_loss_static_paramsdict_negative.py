# source: https://github.com/awf/functional-transformer/pull/3
# expect: none
# runtime: COMPILES 1 CALLS 20
# why: loss_batch is jitted with the ParamsDict cfg static, then jax.value_and_grad of it is jitted again with cfg static; ParamsDict hashes by value and the batches keep one shape, so 20 training steps compile once.
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
# awf/functional-transformer PR #3 (merge 6f07679): main.py's jitted loss_batch, differentiated with jax.value_and_grad and jitted again with the ParamsDict cfg static, in the training loop
from functools import partial
import types
import json
import numbers
import numpy as np
import jax
from jax import vmap
import jax.numpy as jnp



def is_simple_type(x):
    return isinstance(x, (numbers.Number, bool, str))

@jax.tree_util.register_pytree_node_class
class ParamsDict(types.SimpleNamespace):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)

    def tree_flatten(self):
        return jax.tree_util.tree_flatten(self.__dict__, lambda a: a is not self.__dict__)  # scaffolding: jax.tree_flatten is jax.tree_util.tree_flatten in 0.10.2

    @classmethod
    def tree_unflatten(cls, aux, values):
        return ParamsDict(**jax.tree_util.tree_unflatten(aux, values))  # scaffolding: jax.tree_unflatten -> jax.tree_util.tree_unflatten

    def toJSON(self):
        return json.dumps(self, default=lambda o: o.__dict__, 
            sort_keys=True, indent=4)

    def __hash__(self):
        # Should overload setattr to warn if setattr is called after hash has been computed
        return hash(tuple(hash(x) for (_,x) in self.__dict__.items()))



def rand(rng, f, shape, **kwargs):
    """
    Wrap jax.random.foo function to split the incoming rng, and return the new rng beside the payload

    rng = ... from previous code ...

    rng, vals1 = rand(rng, jax.random.uniform, (9,3), minval=-2.0, maxval=2.0)
    # ^-- rng is now newly split
    rng, vals2 = rand(rng, jax.random.normal, (3,9))
    # ^-- rng is split again
    """
    rng, rng1 = jax.random.split(rng)
    return rng, f(rng1, shape, **kwargs)


def linear_init_uniform(rng: jax.Array,  # scaffolding: jax.random.KeyArray removed
                         in_features: int, out_features: int):
    """
    Initialize a linear layer with uniform weights and zero bias
    """
    params = ParamsDict()
    rnd_range = 1 / in_features**0.5
    rng, params.weight = rand(
        rng,
        jax.random.uniform,
        (in_features, out_features),
        minval=-rnd_range,
        maxval=rnd_range,
    )

    params.bias = jnp.zeros((out_features,))
    return rng, params


# Layer norm
def layernorm_init_identity(shape):
    """
    Initialize an elementwise_linear layer with unit gain, zero bias
    """
    return ParamsDict(gain=jnp.ones(shape), bias=jnp.zeros(shape))



def linear(params, x: jnp.ndarray):
    return x @ params.weight + params.bias[None, :]


def elementwise_linear(params, x: jnp.ndarray):
    return params.gain[None, :] * x + params.bias[None, :]


def center(x, eps=1e-5):
    return (x - x.mean()) / (x.std() + eps)


def flip_pe_coef():  # scaffolding: Arg("flip-pe", False, ...)
    return False  # scaffolding


def transformer_init(
    rng: jax.Array,  # scaffolding: jax.random.KeyArray removed
    n_vocab: int,
    d_model: int,
    n_layers: int,
    n_heads: int,
    d_k: int,
    d_ff: int,
    max_len=4096,
):
    # Build config struct for call
    config = ParamsDict()
    config.d_k = d_k
    config.heads = n_heads
    if flip_pe_coef():
        config.lambda_e = d_model**-0.5
        config.lambda_pe = 1.0
    else:
        config.lambda_e = d_model**-0.5
        config.lambda_pe = 1.0
    config.tau = 1 / d_k**0.5

    # Build initializers for params
    params = ParamsDict()

    # Create embedding layer
    rng, params.embeddings = rand(rng, jax.random.normal, (n_vocab, d_model))

    # Positional encodings initialized to zeros
    params.positional_encodings = jnp.zeros((max_len, d_model))

    # For transformer layers
    params.layers = []
    for _ in range(n_layers):
        layer = ParamsDict()
        layer.norm_self_attn = layernorm_init_identity(d_model)

        layer.heads = []
        for _ in range(n_heads):
            head = ParamsDict()
            rng, head.query = linear_init_uniform(rng, d_model, d_k)
            rng, head.key = linear_init_uniform(rng, d_model, d_k)
            rng, head.value = linear_init_uniform(rng, d_model, d_model)

            layer.heads.append(head)

        layer.norm_ff = layernorm_init_identity(d_model)

        rng, layer.ffn1 = linear_init_uniform(rng, d_model, d_ff)
        rng, layer.ffn2 = linear_init_uniform(rng, d_ff, d_model)

        params.layers.append(layer)

    # Final normalization and output layer
    params.pre_output_norm = layernorm_init_identity(d_model)
    rng, params.output = linear_init_uniform(rng, d_model, n_vocab)

    return rng, config, params


# Format off for the size annotations
# fmt: off
def transformer(cfg, params, x: jnp.ndarray):
    """
    cfg: Config, from transformer_init, holds hyperparameters
    params: Current transformer parameters, initialized in init
    x: 1D array of L integers, representing the input sequence
    output: L x n_vocab logits
    """

    L, = x.shape # x is just 1D. Vmap/pmap will handle batching

    # Create mask: 0 to attend, -Inf to ignore
    mask = jnp.log(jnp.tril(jnp.ones((L, L))))

    # Start with token embeddings
    embeddings = cfg.lambda_e * params.embeddings[x, :]     # L x Dm

    # Add (learned) positional encodings
    embeddings += cfg.lambda_pe * params.positional_encodings[:L, :]

    # Apply the transformer layers
    for layer in params.layers:

        # Layer-normalize embeddings
        t1 = vmap(center)(embeddings)
        t1 = elementwise_linear(layer.norm_self_attn, t1)   # L x Dm

        # Multi-head self-attention
        for head in layer.heads:

            # Project into this head's query/key space
            query = linear(head.query, t1)                  # L x Dk
            key = linear(head.key, t1)                      # L x Dk
            value = linear(head.value, t1)                  # L x Dm

            score = query @ key.T + mask                    # L x L
            attn = jax.nn.softmax(cfg.tau * score, axis=1)  # L x L

            self_attn = attn @ value                        # L x Dm

            # Add this head's contribution into embeddings
            embeddings += self_attn                         # L x Dm

        # Layer-normalize embeddings
        t2 = vmap(center)(embeddings)
        t2 = elementwise_linear(layer.norm_ff, t2)          # L x Dm

        # Feedforward fully connected
        t2 = linear(layer.ffn1, t2)                         # L x Dff
        t2 = jax.nn.relu(t2)
        t2 = linear(layer.ffn2, t2)                         # L x Dm

        # Add this layer's contribution into embeddings
        embeddings += t2

    # Layer-normalize embeddings
    embeddings = vmap(center)(embeddings)
    embeddings = elementwise_linear(params.pre_output_norm, embeddings)

    # And linearly project to output dimension
    return linear(params.output, embeddings)                # L x n_vocab 
# fmt: on


def transformer_loss(cfg, params, x):
    """
    # Transformer loss for one example

    cfg: Config, from init
    params: Current transformer parameters, initialized in init
    x: 1D array of integers, representing the input sequence
    """
    output = transformer(cfg, params, x)

    return seq_crossentropy(output[:-1], x[1:])


def crossentropy(output: jnp.ndarray, target: int):
    return -jax.nn.log_softmax(output)[target]


def seq_crossentropy(output: jnp.ndarray, targets: jnp.ndarray):
    return vmap(crossentropy)(output, targets).mean()


class TinyShakespeare:  # scaffolding: jaxutils.dataset.TinyShakespeare without the text file: random token batches
    def __init__(self, rng, seq_len, batch_size):  # scaffolding
        self.n_tokens = 65  # scaffolding
        self.seq_len, self.batch_size, self.rng = seq_len, batch_size, rng  # scaffolding

    def __iter__(self):  # scaffolding
        rng = self.rng  # scaffolding
        while True:  # scaffolding
            rng, k = jax.random.split(rng)  # scaffolding
            yield jax.random.randint(k, (self.batch_size, self.seq_len), 0, self.n_tokens)  # scaffolding


from itertools import islice  # scaffolding
rnd_key = jax.random.PRNGKey(0)
dataset = TinyShakespeare(rnd_key, seq_len=32, batch_size=16)  # scaffolding: batch_size 128 cut to 16
# quick-mode sizes from main(): d_model 93, d_k 13, heads 7, d_ff 111, layers 3
rnd_key, cfg, params = transformer_init(
    rnd_key,
    dataset.n_tokens,
    d_model=93,
    d_k=13,
    n_layers=3,
    n_heads=7,
    d_ff=111,
)


@partial(jax.jit, static_argnums=0)
def loss_batch(cfg, params, seq):
    batched = vmap(transformer_loss, in_axes=(None, None, 0), out_axes=0)
    return jnp.mean(batched(cfg, params, seq))

# show_jaxpr(get_loss_batch, (params, *islice(dataset,1)))
grad_loss_batch_unjit = jax.grad(loss_batch, argnums=1)
grad_loss_batch = jax.jit(grad_loss_batch_unjit, static_argnums=0)


value_and_grad_loss_batch_unjit = jax.value_and_grad(loss_batch, argnums=1)
value_and_grad_loss_batch = jax.jit(value_and_grad_loss_batch_unjit, static_argnums=0)

calls = 0  # scaffolding
for _epoch in range(2):  # quick mode: epochs.default = 2

    # Iterate through batches
    for i, data in enumerate(islice(dataset, 10)):
        # Get loss and gradients
        loss, grads = value_and_grad_loss_batch(cfg, params, data)
        calls += 1  # scaffolding
        params = jax.tree_util.tree_map(lambda p, g: p - 0.001 * g, params, grads)  # scaffolding: plain SGD in place of jaxutils Adam

_report({"jit(loss_batch)", "jit(value_and_grad(loss_batch))", "jit(grad(loss_batch))"}, calls)  # scaffolding
