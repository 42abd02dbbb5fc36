# source: https://github.com/Junny20/jax-gpt/blob/f0872baffbc859a1ba2b419551920fb296c9d5ef/src/jaxgpt/optimizer.py
# expect: none
# runtime: COMPILES 1 CALLS 5
# why: update is jitted with a frozen-dataclass config and the optax optimizer as static arguments; both hash stably and batch shapes are fixed, so update compiles once for its 5 calls.
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


# file: src/jaxgpt/config.py
from dataclasses import dataclass

@dataclass(frozen=True)
class GPTConfig:
    vocab_size: int
    max_seq_len: int
    model_dim: int
    n_layers: int
    n_heads: int
    ff_dim: int

    @property
    def head_dim(self) -> int:
        return self.model_dim // self.n_heads

    def __post_init__(self):
        assert self.vocab_size > 0
        assert self.max_seq_len > 0
        assert self.model_dim > 0
        assert self.n_layers > 0
        assert self.n_heads > 0
        assert self.ff_dim > 0
        assert self.model_dim % self.n_heads == 0, f"model_dim {self.model_dim} not divisible by n_heads {self.n_heads}"


@dataclass(frozen=True)
class TrainConfig:
    batch_size: int
    block_size: int
    lr: float
    n_steps: int

    def __post_init__(self):
        assert self.batch_size > 0
        assert self.block_size > 0
        assert self.lr > 0.0
        assert self.n_steps > 0

# file: src/jaxgpt/data.py
import os
import jax
import jax.numpy as jnp
import jax.random as random
import urllib.request

def build_tokenizer(text: str) -> tuple[dict, dict, int]:
    """Tuple returns an encoder, decoder, and vocab size"""
    vocab = sorted(set(text))
    vocab_size = len(vocab)
    encoder = {c: i for i, c in enumerate(vocab)}
    decoder = {i: c for c, i in encoder.items()}
    return encoder, decoder, vocab_size


def encode(text: str, encoder: dict) -> jax.Array:
    return jnp.array([encoder[c] for c in text], dtype=jnp.int32)


def decode(tokens: jax.Array, decoder) -> str:
    return ''.join(decoder[int(t)] for t in tokens)


def get_batch(data: jax.Array, batch_size: int, block_size: int, key) -> tuple[jax.Array, jax.Array]:
    """samples batch_size starting positions within data, returns tuple of (batch_size, block_size) tokens_ids, targets"""
    assert block_size < data.shape[0], f"block_size {block_size} >= data_len {data.shape[0]}"

    data_len = data.shape[0]
    min_idx = 0
    max_idx = data_len - block_size # exclusive
    
    starting_idxs = random.randint(key, (batch_size,), min_idx, max_idx, dtype=jnp.int32) # (batch_size,)
    offsets = jnp.arange(block_size, dtype=jnp.int32) # (block_size,)
    token_ids = starting_idxs[:, None] + offsets
    targets = token_ids + 1

    
    return data[token_ids], data[targets] 


def split_data(data: jax.Array, val_frac: float = 0.1) -> tuple[jax.Array, jax.Array]:
    n = int(data.shape[0] * (1 - val_frac))
    return data[:n], data[n:]


_URL = "https://raw.githubusercontent.com/karpathy/char-rnn/master/data/tinyshakespeare/input.txt"

def load_tinyshakespeare(path: str = "data/input.txt") -> str:
    return "First Citizen:\nBefore we proceed any further, hear me speak.\n" * 20  # scaffolding: no download
    if not os.path.exists(path):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        urllib.request.urlretrieve(_URL, path)
    with open(path) as f:
        return f.read()



# file: src/jaxgpt/model.py
import jax
import jax.numpy as jnp
import jax.random as random
from jax import vmap

def init_params(cfg: GPTConfig, key: jax.Array) -> dict:
    # n layers, each layers has an mlp, 3 projection matrixes, 2 layernorm g/b matrixes
    # model has a final layernorm, an embedding and unembedding matrix
    params = {}

    vocab_size = cfg.vocab_size
    max_seq_len = cfg.max_seq_len
    model_dim = cfg.model_dim
    n_layers = cfg.n_layers
    ff_dim = cfg.ff_dim

    token_embed_key, position_embed_key, unembed_key, key = random.split(key, 4)
    params["token_embed"] = random.normal(token_embed_key, (vocab_size, model_dim), dtype=jnp.float32) * 0.02
    params["position_embed"] = random.normal(position_embed_key, (max_seq_len, model_dim), dtype=jnp.float32) * 0.02

    blocks = []
    
    for _ in range(n_layers):
        W_q_key, W_k_key, W_v_key, W_o_key, mlp_in_key, mlp_out_key, key = random.split(key, 7)
        block = {}
        block["ln_1_gamma"] = jnp.ones((model_dim,), dtype=jnp.float32)
        block["ln_1_beta"] = jnp.zeros((model_dim,), dtype=jnp.float32)
        block["W_q"] = random.normal(W_q_key, (model_dim, model_dim), dtype=jnp.float32) * (model_dim ** -0.5)
        block["W_k"] = random.normal(W_k_key, (model_dim, model_dim), dtype=jnp.float32) * (model_dim ** -0.5)
        block["W_v"] = random.normal(W_v_key, (model_dim, model_dim), dtype=jnp.float32) * (model_dim ** -0.5)
        block["W_o"] = random.normal(W_o_key, (model_dim, model_dim), dtype=jnp.float32) * (model_dim ** -0.5)
        block["ln_2_gamma"] = jnp.ones((model_dim,), dtype=jnp.float32)
        block["ln_2_beta"] = jnp.zeros((model_dim,), dtype=jnp.float32)
        block["mlp_in"] = random.normal(mlp_in_key, (model_dim, ff_dim), dtype=jnp.float32) * (model_dim ** -0.5)
        block["b_in"] = jnp.zeros((ff_dim,), dtype=jnp.float32)
        block["mlp_out"] = random.normal(mlp_out_key, (ff_dim, model_dim), dtype=jnp.float32) * (ff_dim ** -0.5)
        block["b_out"] = jnp.zeros((model_dim,), dtype=jnp.float32)
        blocks.append(block)

    params["blocks"] = blocks
    params["ln_f_gamma"] = jnp.ones((model_dim,), dtype=jnp.float32)
    params["ln_f_beta"] = jnp.zeros((model_dim,), dtype=jnp.float32)
    params["unembed"] = random.normal(unembed_key, (model_dim, vocab_size), dtype=jnp.float32) * (model_dim ** -0.5)

    return params


def embed(cfg: GPTConfig, params: dict, token_ids: jax.Array) -> jax.Array:
    # embedding for a (seq_len,) sequence - returns an array of (seq_len, model_dim)
    seq_len = token_ids.shape[0]

    assert seq_len <= cfg.max_seq_len, "Sequence length exceeds maximum sequence length"

    token_embed = params["token_embed"]
    position_embed = params["position_embed"]
    embeddings = token_embed[token_ids] + position_embed[:seq_len] # both (seq_len, model_dim) arrays 
    return embeddings


def layernorm(x: jax.Array, gamma: jax.Array, beta: jax.Array, eps=1e-5):
    norm = (x - jnp.mean(x, axis=-1, keepdims=True)) / jnp.sqrt(jnp.var(x, axis=-1, keepdims=True) + eps)
    return gamma * norm + beta


def causal_mask(seq_len): # only creates the mask
    # uses jnp.tril, first creates a (seq_len, seq_len) matrix
    return jnp.tril(jnp.ones((seq_len, seq_len), dtype=jnp.bool))


def single_head_attention(q, k, v, mask):
    # q, k, v are all (seq_len, n_dim) matrixes
    assert q.shape[1] == k.shape[1] == v.shape[1], "Invalid matrix shape[1]"
    assert q.shape[0] == k.shape[0] == v.shape[0], "Invalid matrix shape[0]"

    n_dim = q.shape[1]

    S = q @ k.T * (n_dim ** -0.5) # (seq_len, seq_len)
    S = jnp.where(mask, S, -1e9)
    S = jax.nn.softmax(S)
    return S @ v


def multi_head_attention(cfg: GPTConfig, mha_params: dict, x: jax.Array, mask: jax.Array) -> jax.Array:
    # x is the res stream, (seq_len, model_dim)
    # batches single head attention function
    # reshapes q, k, v, transposes, and funnel into batched function
    # pre-norm
    mha = vmap(single_head_attention, in_axes=(0, 0, 0, None))

    seq_len = x.shape[0]
    n_heads = cfg.n_heads
    head_dim = cfg.head_dim
    model_dim = cfg.model_dim

    Q = x @ mha_params["W_q"]
    Q = Q.reshape(seq_len, n_heads, head_dim).transpose(1, 0, 2)
    K = x @ mha_params["W_k"]
    K = K.reshape(seq_len, n_heads, head_dim).transpose(1, 0, 2)
    V = x @ mha_params["W_v"]
    V = V.reshape(seq_len, n_heads, head_dim).transpose(1, 0, 2)
    # Q, K, V all shape (n_heads, seq_len, head_dim)

    O = mha(Q, K, V, mask) # shape (n_heads, seq_len, head_dim)
    O = O.transpose(1, 0, 2).reshape(seq_len, model_dim)
    return O @ mha_params["W_o"]


def mlp(mlp_params: dict, x: jax.Array) -> jax.Array:
    # x is shape (seq_len, model_dim)
    x = x @ mlp_params["mlp_in"] + mlp_params["b_in"]
    x = jax.nn.gelu(x)
    return x @ mlp_params["mlp_out"] + mlp_params["b_out"]


def transformer_block(cfg: GPTConfig, block_params: dict, x: jax.Array, mask: jax.Array) -> jax.Array:
    x = x + multi_head_attention(cfg, block_params, layernorm(x, block_params["ln_1_gamma"], block_params["ln_1_beta"]), mask)
    x = x + mlp(block_params, layernorm(x, block_params["ln_2_gamma"], block_params["ln_2_beta"]))
    return x


def gpt2_forward(cfg: GPTConfig, params: dict, token_ids: jax.Array):
    # full forward pass for a (seq_len,) input of token_ids
    seq_len = token_ids.shape[0]

    x = embed(cfg, params, token_ids) # shape (seq_len, model_dim)
    mask = causal_mask(seq_len)

    n_layers = cfg.n_layers
    blocks = params["blocks"]

    for i in range(n_layers):
        block_params = blocks[i]
        x = transformer_block(cfg, block_params, x, mask)

    x = layernorm(x, params["ln_f_gamma"], params["ln_f_beta"])
    return x @ params["unembed"]
    

def loss(params: dict, cfg: GPTConfig, token_ids: jax.Array, targets: jax.Array) -> jax.Array:
    # computes the scalar CEL by doing a forward pass over the token_ids
    seq_len = token_ids.shape[0]
    assert seq_len <= cfg.max_seq_len, "Sequence length exceeds maximum sequence length"

    logits = gpt2_forward(cfg, params, token_ids) # shape is (seq_len, vocab_size)
    log_probs = logits - jax.nn.logsumexp(logits, axis=-1, keepdims=True)
    offsets = jnp.arange(seq_len)
    cel = -jnp.mean(log_probs[offsets, targets])
    return cel


# file: src/jaxgpt/optimizer.py
import jax
import jax.numpy as jnp
import optax
from functools import partial
from jax import jit, vmap


def batched_loss(params: dict, cfg: GPTConfig, token_ids: jax.Array, targets: jax.Array) -> jax.Array:
    return jnp.mean(vmap(loss, in_axes=(None, None, 0, 0))(params, cfg, token_ids, targets))


@partial(jit, static_argnums=(0, 2))
def update(cfg: GPTConfig, params: dict, optimizer, opt_state, token_ids: jax.Array, targets: jax.Array):
    loss_value, grads = jax.value_and_grad(batched_loss)(params, cfg, token_ids, targets)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    params = optax.apply_updates(params, updates)
    return params, opt_state, loss_value


# file: src/jaxgpt/train.py
import jax.random as random
import optax
import csv, os

def main():
    text = load_tinyshakespeare()
    encoder, decoder, vocab_size = build_tokenizer(text)
    data = encode(text, encoder)
    train_data, val_data = split_data(data, val_frac=0.1)

    cfg = GPTConfig(vocab_size=vocab_size, max_seq_len=16, model_dim=32, n_layers=2, n_heads=4, ff_dim=64)  # scaffolding: smaller than the repo's (256, 384, 6, 6, 1536)
    train_cfg = TrainConfig(batch_size=4, block_size=16, lr=3e-4, n_steps=5)  # scaffolding: the repo has (32, 256, 3e-4, 5000)

    key = random.key(0)
    key, init_key = random.split(key)
    params = init_params(cfg, init_key)

    optimizer = optax.adamw(train_cfg.lr)
    opt_state = optimizer.init(params)

    history = []
    for step in range(train_cfg.n_steps):
        key, batch_key = random.split(key)
        token_ids, targets = get_batch(train_data, train_cfg.batch_size, train_cfg.block_size, batch_key)
        params, opt_state, loss_value = update(cfg, params, optimizer, opt_state, token_ids, targets)
        if step % 100 == 0:
            key, val_key = random.split(key)
            val_token_ids, val_targets = get_batch(val_data, train_cfg.batch_size, train_cfg.block_size, val_key)
            val_loss = batched_loss(params, cfg, val_token_ids, val_targets)
            history.append((step, loss_value, val_loss))

            print(f"Step {step}, loss: {loss_value}, validation loss: {val_loss}")

    # os.makedirs("logs", exist_ok=True)  # scaffolding: no log file written
    # with open("logs/loss.csv", "w", newline="") as f:  # scaffolding
    #     w = csv.writer(f)  # scaffolding
    #     w.writerow(["step", "train_loss", "val_loss"])  # scaffolding
    #     w.writerows(history)  # scaffolding


if __name__ == "__main__":
    main()
    _report({"jit(update)"}, 5)  # scaffolding
