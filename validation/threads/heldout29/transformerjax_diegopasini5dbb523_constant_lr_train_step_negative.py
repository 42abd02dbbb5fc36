# source: https://github.com/diegoPasini/transformer-jax/commit/5dbb5236a298487bb3fb2ddc1a270843ad724c42
# expect: none
# runtime: COMPILES 2 CALLS 4
# why: before the scheduler commit the optimizer uses a constant learning rate, and get_batch always returns (32, 32) batches, so train_step compiles once for 3 steps and eval_step once.
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



# ---- transformer.py (at 5dbb523) ----
import jax
import jax.numpy as jnp
# import jax.nn as nn
import haiku as hk
import flax.linen as nn
import jax.lax as lax
import math
import numpy as np

## d_model
## h
## d_v
## d_k

# Jax Sharding
# Look into Jax jit
def scaled_dot_product_attention(q, k, v):
    # Replace 0 with -np.inf
    attention_matrix = q @ jnp.permute_dims(k, axes=(0, 1, 3, 2))
    d_k = k.shape[-1]
    attention_matrix = attention_matrix / jnp.sqrt(d_k)
    attention_matrix = jnp.triu(attention_matrix, k=0)
    attention_matrix = jnp.where(attention_matrix == 0, -jnp.inf, attention_matrix)
    attention_matrix = jax.nn.softmax(attention_matrix, axis=-1)
    output = attention_matrix @ v
    return output

class MultiHeadAttentionModule(nn.Module):
    d_model: int
    d_k: int
    num_heads: int

    def setup(self):
        weight_dim = self.d_model * self.d_k * 3
        self.wqkv = nn.Dense(features=weight_dim, kernel_init=nn.initializers.xavier_uniform(), use_bias=False)
    
    def __call__(self, x):
        batch_size, seq_length, _ = x.shape
        qkv = self.wqkv(x)
        qkv = qkv.reshape(batch_size, seq_length, self.num_heads, -1)
        qkv = qkv.transpose(0, 2, 1, 3) 
        q, k, v = jnp.array_split(qkv, 3, axis=-1)
        x = scaled_dot_product_attention(q, k, v)
        #print(f"x1.shape: {x.shape}")
        x = x.transpose(0, 2, 1, 3) 
        # print(f"x2.shape: {x.shape}")
        x = x.reshape(batch_size, seq_length, self.d_model * self.d_k)
        # print(f"x3.shape: {x.shape}")
        # print(f"x.shape: {x.shape}")    
        return x

class TransformerLayer(nn.Module):
    d_model: int
    d_k: int
    head: int
    dropout_rate: float = 0.1

    def setup(self):
        self.linear = nn.Dense(features=self.d_model * self.d_k, kernel_init=nn.initializers.xavier_uniform())
        self.multi_head_attention = MultiHeadAttentionModule(self.d_model, self.d_k, self.head)
        self.dropout = nn.Dropout(rate=self.dropout_rate)
        self.layernorm1 = nn.LayerNorm()
        self.layernorm2 = nn.LayerNorm()
        self.ff1 = nn.Dense(features=self.d_model * self.d_k, kernel_init=nn.initializers.xavier_uniform())
        self.ff2 = nn.Dense(features=self.d_model * self.d_k, kernel_init=nn.initializers.xavier_uniform())

    @hk.transparent
    def feedforward(self, x):
        x = self.ff1(x)
        x = nn.relu(x)
        x = self.ff2(x)
        return x
    
    def __call__(self, x, training: bool = True):
        residual = x
        attention = self.multi_head_attention(x)
        x = self.linear(attention)
        x = x + self.dropout(x, deterministic=not training)
        x = x + residual
        x = self.layernorm1(x)
        residual = x
        x = self.feedforward(x)
        x = x + self.dropout(x, deterministic=not training)
        x = x + residual
        x = self.layernorm2(x)
        return x

class PositionalEncoding(nn.Module):
    d_model: int         
    max_len: int = 5000  

    def setup(self):
        pe = np.zeros((self.max_len, self.d_model))
        position = np.arange(0, self.max_len, dtype=np.float32)[:, None]
        div_term = np.exp(np.arange(0, self.d_model, 2) * (-math.log(10000.0) / self.d_model))
        pe[:, 0::2] = np.sin(position * div_term)
        pe[:, 1::2] = np.cos(position * div_term)
        pe = pe[None]
        self.pe = jax.device_put(pe)

    def __call__(self, x):
        x = x + self.pe[:, :x.shape[1]]
        return x

class Transformer(nn.Module):
    num_layers: int
    vocab_size: int
    d_model: int
    d_k: int
    h: int
    dropout_rate: float = 0.1

    def setup(self):
        self.embedding = nn.Embed(num_embeddings = self.vocab_size, features=self.d_model * self.d_k)
        self.attention_layers = [TransformerLayer(self.d_model, self.d_k, self.h, self.dropout_rate) for _ in range(self.num_layers)]
        self.positional_encoder = PositionalEncoding(self.d_model * self.d_k)
        self.lin = nn.Dense(features=self.vocab_size)
        self.dropout = nn.Dropout(rate=self.dropout_rate)
        self.layernorm = nn.LayerNorm()

    def __call__(self, output_embeddings, training: bool = True):
        # Ensure the input is of integer type
        output_embeddings = jnp.asarray(output_embeddings, dtype=jnp.int32)
        x = self.embedding(output_embeddings)
        x = self.positional_encoder(x)
        for attention_layer in self.attention_layers:
            x = attention_layer(x, training=training)
        x = self.lin(x)
        x = x + self.dropout(x, deterministic=not training)
        x = self.layernorm(x)
        return x


# ---- train.py (at 5dbb523) ----
import os
import sys
import tqdm
import jax
import jax.numpy as jnp
import jax.nn as nn
import haiku as hk
import flax.linen as nn
import optax
import jax.lax as lax
import math
import numpy as np
# from transformer import Transformer  # scaffolding: transformer.py is inlined above
import logging

logging.basicConfig(level=logging.INFO, format='%(asctime)s - %(levelname)s - %(message)s')

dataset = "shakespeare"
model_dir = "transformer.py"
batch_size = 32
seq_len = 32
d_model = 32
d_k = 8  # scaffolding: 32 in the repo (smaller model so the run takes seconds)
h = 4
n_layers = 3
n_epochs = 1  # scaffolding: 10 in the repo
lr = 1e-4
warmup_steps = 4000
max_steps = 3  # scaffolding: 20000 in the repo
log_interval = 200

optimizer = optax.adam(learning_rate=lr)

logging.info(f"JAX devices: {jax.devices()}")

# Download the dataset
url = "https://www.gutenberg.org/cache/epub/100/pg100.txt"

# if not os.path.isdir("data"):  # scaffolding: nothing is downloaded or written
#     os.makedirs("data")  # scaffolding

logging.info("Downloading dataset...")
# os.system(f"curl -L {url} >> data/data.txt")  # scaffolding: no network

# with open("data/data.txt", "r") as f:  # scaffolding
#     text = f.read()  # scaffolding
text = "From fairest creatures we desire increase,\nThat thereby beauty's rose might never die.\n" * 60  # scaffolding: stands in for the Gutenberg Shakespeare text

chars = list(set(text))
i2c = {i: c for i, c in enumerate(chars)}
c2i = {c: i for i, c in enumerate(chars)}

vocab_size = len(chars)
logging.info(f"Vocab size: {vocab_size}")

# test and train split 80/20
def prepare_data(text, seq_len, train_ratio=0.8):
    logging.info("Preparing data...")
    data = [c2i[c] for c in text]
    n = len(data)
    n_train = int(n * train_ratio)
    n_val = n - n_train

    train_data = data[:n_train]
    val_data = data[n_train:]
    print(f"n_train // seq_len: {n_train // seq_len}")
    n_train_batches = n_train // seq_len
    n_val_batches = n_val // seq_len

    train_data = train_data[:n_train_batches * seq_len]
    val_data = val_data[:n_val_batches * seq_len]

    train_data = np.array(train_data).reshape(n_train_batches, seq_len)
    val_data = np.array(val_data).reshape(n_val_batches, seq_len)

    logging.info("Data preparation complete.")
    return train_data, val_data

train_data, val_data = prepare_data(text, seq_len)

def get_batch(mode):
    logging.debug(f"Fetching batch for {mode} mode.")
    data = train_data if mode == "train" else val_data
    n_batches = data.shape[0]
    indices = np.random.choice(n_batches, batch_size, replace=False)
    x = np.stack([data[i] for i in indices])
    y = np.roll(x, -1, axis=1)
    return x, y

model = Transformer(n_layers, vocab_size, d_model, d_k, h)

def loss_fn(params, x, y):
    rngs = {'params': jax.random.PRNGKey(0), 'dropout': jax.random.PRNGKey(1)}
    logits = model.apply(params, x, training=True, rngs=rngs)
    loss = optax.softmax_cross_entropy_with_integer_labels(logits, y)
    return loss.mean()

init_rngs = {'params': jax.random.PRNGKey(0), 'dropout': jax.random.PRNGKey(1)}
params = model.init(init_rngs, jnp.ones((1, seq_len)))
opt_state = optimizer.init(params)

def count_params(params):
    return sum(jnp.prod(jnp.array(p.shape)) for p in jax.tree_util.tree_leaves(params))

num_params = count_params(params)
logging.info(f"Number of model parameters: {num_params}")

@jax.jit
def train_step(params, opt_state, x, y):
    grad_fn = jax.value_and_grad(loss_fn)
    loss, grads = grad_fn(params, x, y)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    params = optax.apply_updates(params, updates)
    return params, opt_state, loss

@jax.jit
def eval_step(params, x, y):
    rngs = {'params': jax.random.PRNGKey(0), 'dropout': jax.random.PRNGKey(1)}
    logits = model.apply(params, x, training=False, rngs=rngs)
    loss = optax.softmax_cross_entropy_with_integer_labels(logits, y)
    return loss.mean()

def generate_sample_sequence(params, seed_sequence, length=100, temperature=0.9):
    generated_sequence = seed_sequence
    rngs = {'params': jax.random.PRNGKey(0), 'dropout': jax.random.PRNGKey(1)}
    for _ in range(length):
        logits = model.apply(params, jnp.array(generated_sequence[-seq_len:]).reshape(1, -1), training=False, rngs=rngs)
        # Apply temperature scaling
        scaled_logits = logits[0, -1] / temperature
        probabilities = jax.nn.softmax(scaled_logits)
        rng, subkey = jax.random.split(rngs['dropout'])  
        next_token = jax.random.choice(subkey, jnp.arange(vocab_size), p=probabilities)
        generated_sequence.append(int(next_token))
    return generated_sequence

def save_sample_sequence(sample_sequence, filename="sample_sequence.txt"):
    with open(filename, "w") as f:
        for token in sample_sequence:
            f.write(f"{token}\n")

_generate = generate_sample_sequence  # scaffolding
generate_sample_sequence = lambda params, seed_sequence: _generate(params, seed_sequence, length=5)  # scaffolding: 5 sampled tokens instead of 100
save_sample_sequence = lambda sample_sequence, filename=None: None  # scaffolding: nothing is written to disk

try:  # scaffolding
    logging.info("Starting training process...")
    for epoch in range(n_epochs):
        logging.info(f"Starting epoch {epoch+1}/{n_epochs}")
        for step in range(max_steps):
            x, y = get_batch("train")
            params, opt_state, loss = train_step(params, opt_state, x, y)

            if step % log_interval == 0:
                x, y = get_batch("val")
                val_loss = eval_step(params, x, y)
                logging.info(f"Epoch: {epoch}, Step: {step}, Loss: {loss}, Val Loss: {val_loss}")

                seed_sequence = x[0].tolist()  
                sample_sequence = generate_sample_sequence(params, seed_sequence)
                sample_text = ''.join(i2c[i] for i in sample_sequence)
                logging.info(f"Sample Sequence: {sample_text}")
                save_sample_sequence(sample_sequence)

        logging.info(f"Epoch {epoch+1} complete. Loss: {loss}, Val Loss: {val_loss}")
    logging.info("Training process complete.")
    _report({"jit(train_step)", "jit(eval_step)"}, n_epochs * max_steps + 1)  # scaffolding: 3 train steps + 1 eval step (step 0)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding

