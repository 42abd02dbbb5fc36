# source: https://github.com/le-big-mac/Jaxformer/blob/6e6e914f00da9bfe9935f00447a9958acbabb391/run_basic.ipynb
# expect: shape-churn at line 242
# runtime: COMPILES 4 CALLS 6
# why: the notebook slices batches with range(0, len(data), batch_size) and no drop of the remainder, so the last batch of every epoch has a different shape and the jitted cross_entropy_loss (under value_and_grad) compiles again for it.

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
from jax import jit

# --- basic/activations.py ---

def relu(x):
    return jnp.maximum(0, x)

def gelu(x):
    return 0.5 * x * (1 + jnp.tanh(jnp.sqrt(2 / jnp.pi) * (x + 0.044715 * jnp.power(x, 3))))

def softmax(x, axis=-1, temp=1.):
    exp_x = jnp.exp((x - jnp.max(x, axis=axis, keepdims=True)) / temp) # for numerical stability
    return exp_x / jnp.sum(exp_x, axis=axis, keepdims=True)

# --- basic/layers.py ---


def linear(x, W, b=None):
    """
    x : (..., d_in)
    W : (..., d_in, d_out)
    b : (..., d_out)
    N.B. Be careful with shapes of x and W, as they are not explicitly checked.
    """
    if b is None:
        return jnp.einsum('...i,...ij->...j', x, W)
    return jnp.einsum('...i,...ij->...j', x, W) + b

def dot_product_attention(Q, K, V, mask):
    """
    Q : (seq_len, num_heads, d_k)
    K : (seq_len, num_heads, d_k)
    V : (seq_len, num_heads, d_model)
    mask : (num_heads, seq_len, seq_len)
    """
    Q = Q.transpose((1, 0, 2)) # (num_heads, seq_len, d_k)
    K = K.transpose((1, 2, 0)) # (num_heads, d_k, seq_len)
    V = V.transpose((1, 0, 2)) # (num_heads, seq_len, d_v)
    d_k = Q.shape[-1]
    scores = jnp.einsum('...ij,...jk->...ik', Q, K) / jnp.sqrt(d_k)
    scores = jnp.where(mask, scores, -jnp.inf)
    attention = softmax(scores, axis=-1) # (num_heads, seq_len, seq_len)
    return jnp.einsum('...ij,...jk->...ik', attention, V).transpose((1, 0, 2)) # (seq_len, num_heads, d_v)

def embedding(x, embeddings):
    return jnp.take(embeddings, x, axis=0)

def multi_head_attention(x, qk_weights, v_weights, linear_weights):
    """
    x : (seq_len, d_model)
    qk_weights : (num_heads, d_model, 2*d_k)
    v_weights : (num_heads, d_model, d_v)
    linear_weights : (num_heads*d_v, d_model)
    """
    x = jnp.expand_dims(x, axis=1)
    qk = linear(x, qk_weights) # (seq_len, num_heads, 2*d_k)
    Q, K = jnp.split(qk, 2, axis=-1)
    V = linear(x, v_weights) # (seq_len, num_heads, d_v)
    mask = jnp.triu(jnp.ones((x.shape[0], x.shape[0])), 1) == 0
    mask = jnp.broadcast_to(mask, (qk_weights.shape[0], *mask.shape)) # (num_heads, seq_len, seq_len)

    attention_matrix = dot_product_attention(Q, K, V, mask) # (seq_len, num_heads, d_v)
    ff_out = linear(attention_matrix.reshape(attention_matrix.shape[0], -1), linear_weights) # if num_heads*d_v = d_model, linear_weights could be identity
    return ff_out # (seq_len, d_model)

def layer_normalization(x):
    mean = jnp.mean(x, axis=-1, keepdims=True)
    std = jnp.std(x, axis=-1, keepdims=True)
    return (x - mean) / std

def decoder_layer(x, qk_weights, v_weights, linear_weights, feedforward_weights, feedforward_biases, layer_norm=True):
    """
    N.B. Not exactly same as decoder in encoder-decoder architecture, but convention is to call it decoder layer.
    x : (seq_len, d_model)
    qk_weights : (num_heads, d_model, 2*d_k)
    v_weights : (num_heads, d_model, d_v)
    feedforward_weights : (d_model, d_model)
    feedforward_biases : (d_model,)
    """
    attention_output = multi_head_attention(x, qk_weights, v_weights, linear_weights) # (seq_len, d_model)
    if layer_norm:
        x = layer_normalization(x + attention_output)
        x = layer_normalization(x + gelu(linear(x, feedforward_weights) + feedforward_biases))
    else:
        x = x + attention_output
        x = x + gelu(linear(x, feedforward_weights) + feedforward_biases)
    return x

def init_decoder_layer(rng, num_heads, d_model, d_k, d_v):
    keys = jax.random.split(rng, 5)
    qk_weights = jax.random.normal(keys[0], (num_heads, d_model, 2*d_k)) / jnp.sqrt(d_model + d_k)
    v_weights = jax.random.normal(keys[1], (num_heads, d_model, d_v)) / jnp.sqrt(d_model + d_v)
    linear_weights = jax.random.normal(keys[2], (num_heads*d_v, d_model)) / jnp.sqrt(num_heads*d_v + d_v)
    feedforward_weights = jax.random.normal(keys[3], (d_model, d_model)) / jnp.sqrt(d_model + d_model)
    feedforward_biases = jax.random.normal(keys[4], (d_model,))
    return qk_weights, v_weights, linear_weights, feedforward_weights, feedforward_biases

def output_layer(x, output_weights, output_biases, temp=1.):
    """
    x : (seq_len, d_model)
    output_weights : (seq_len*d_model, vocab_size)
    output_biases : (vocab_size,)
    Maybe should mask padding tokens?
    """
    return softmax(linear(x.reshape(-1), output_weights, output_biases), temp=temp)

def init_output_layer(rng, seq_len, d_model, vocab_size):
    keys = jax.random.split(rng, 2)
    output_weights = jax.random.normal(keys[0], (seq_len*d_model, vocab_size)) / jnp.sqrt(seq_len*d_model + vocab_size)
    output_biases = jax.random.normal(keys[1], (vocab_size,))
    return output_weights, output_biases

# --- basic/model.py ---


def get_model(num_decoder_layers, temp=1., layer_norm=True):
    # This is dumb, but lets me make optimizers more general
    def model(param_dict: dict,
              positional_encoding: jnp.ndarray,
              x: jnp.ndarray,
              ):
        x = embedding(x, param_dict['embeddings']) + positional_encoding
        for i in range(num_decoder_layers):
            qkw = param_dict[f'qkw_{i}']
            vw = param_dict[f'vw_{i}']
            lw = param_dict[f'lw_{i}']
            fw = param_dict[f'fw_{i}']
            fb = param_dict[f'fb_{i}']
            x = decoder_layer(x, qkw, vw, lw, fw, fb, layer_norm=layer_norm)
        return output_layer(x, param_dict['ow'], param_dict['ob'], temp=temp)

    return model

def batch_model(model):
    return jax.vmap(model, in_axes=(None, None, 0), out_axes=0)

def init_model(rng, num_decoder_layers, num_heads, d_model, d_k, d_v, seq_len, vocab_size):
    keys = jax.random.split(rng, num_decoder_layers + 1)
    param_dict = {}
    for i in range(num_decoder_layers):
        qkw, vw, lw, fw, fb = init_decoder_layer(keys[i], num_heads, d_model, d_k, d_v)
        param_dict[f'qkw_{i}'] = qkw
        param_dict[f'vw_{i}'] = vw
        param_dict[f'lw_{i}'] = lw
        param_dict[f'fw_{i}'] = fw
        param_dict[f'fb_{i}'] = fb
    param_dict['ow'], param_dict['ob'] = init_output_layer(keys[-1], seq_len, d_model, vocab_size)
    return param_dict

def num_params(param_dict):
    return sum(v.size for v in param_dict.values())

# --- basic/preprocessing.py (positional_encoding, onehot) ---
def positional_encoding(seq_len, d_model):
    pos = jnp.arange(seq_len)[:, None]
    i = jnp.arange(d_model)[None, :]
    angle = 1 / jnp.power(10000, (2 * (i // 2)) / jnp.float32(d_model))
    return jnp.where(i % 2 == 0, jnp.sin(angle * pos), jnp.cos(angle * pos)) # (seq_len, d_model)

def onehot(x, vocab_size):
    return jnp.array(x[:, None] == jnp.arange(vocab_size), dtype=jnp.float32)

# --- basic/training.py ---

def get_cross_entropy_loss(model):
    def cross_entropy_loss(param_dict, positional_encoding, x, y):
        return -jnp.sum(y * jnp.log(model(param_dict, positional_encoding, x))) / x.shape[0]
    return jit(cross_entropy_loss)

@jit
def sgd_update(param_dict, grads, learning_rate, train_embeddings=True):
    new_param_dict = {k: v - learning_rate * grads[k] for (k, v) in param_dict.items() if k != 'embeddings'}

    if train_embeddings:
        new_param_dict['embeddings'] = param_dict['embeddings'] - learning_rate * grads['embeddings']
        new_param_dict['embeddings'] = jnp.concatenate([jnp.zeros((1, new_param_dict['embeddings'].shape[1])), new_param_dict['embeddings'][1:]], axis=0)

    return new_param_dict


# --- run_basic.ipynb: data (cells 0-3); TinyStories is replaced by random stand-in tokens ---
rng = jax.random.PRNGKey(0)
vocab_size = 40  # scaffolding: was the TinyStories vocabulary of the first 200 stories
max_len = 12  # scaffolding: was 100
n_rows = 1100  # scaffolding: the real next-word data set is not a multiple of 512 either
next_word_train_data = jax.random.randint(rng, (n_rows, max_len), 0, vocab_size)  # scaffolding
next_word_train_labels = onehot(jax.random.randint(rng, (n_rows,), 1, vocab_size), vocab_size)  # scaffolding

num_decoder_layers = 1  # scaffolding: was 5
num_heads = 2  # scaffolding: was 8
d_model = d_k = d_v = 8  # scaffolding: was 64
seq_len = max_len

embeddings = jnp.concatenate([jnp.zeros((1, d_model)), jax.random.normal(rng, (vocab_size - 1, d_model))], axis=0)  # scaffolding: create_embeddings
positional_encodings = positional_encoding(seq_len, d_model)
model = get_model(num_decoder_layers)
model = batch_model(model)
param_dict = init_model(rng, num_decoder_layers, num_heads, d_model, d_k, d_v, seq_len, vocab_size)
param_dict["embeddings"] = embeddings

# --- run_basic.ipynb, cell 4 ---
learning_rate = 0.005
num_epochs = 2  # scaffolding: was 100
batch_size = 512
loss_fn = get_cross_entropy_loss(model)

calls = 0  # scaffolding
for epoch in range(num_epochs):
    for i in range(0, len(next_word_train_data), batch_size):
        batch_data = next_word_train_data[i:i + batch_size]
        batch_labels = next_word_train_labels[i:i + batch_size]
        loss, grads = jax.value_and_grad(loss_fn)(param_dict, positional_encodings, batch_data, batch_labels)
        param_dict = sgd_update(param_dict, grads, learning_rate)
        print(f"Batch {i // batch_size}: Loss {loss}")
        calls += 1  # scaffolding
_report({"jit(cross_entropy_loss)"}, calls)
