# source: https://github.com/ghif/dl-jax101/blob/13740c2dcf6813f351c62ceb21bfbfd589b9e85e/4-rnn/3-text_gen.py
# expect: jit-in-loop-or-body at line 72
# runtime: COMPILES 102 CALLS 102
# why: SimpleBigram.generate is called outside any jit and calls the model once per new token; the model's lax.scan over a freshly defined scan_fn closure is therefore traced and compiled again for every token (jit(scan) 100 times for 100 tokens), on top of the growing idx window for the first seq_len tokens.
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


import os  # scaffolding
import sys  # scaffolding
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding
from flax import nnx  # scaffolding

_TEXT = "aku ini binatang jalang dari kumpulannya terbuang " * 40  # scaffolding: stand-in for ../data/chairilanwar.txt (not in the repository)
os.makedirs("/tmp/h28_pages_data", exist_ok=True)  # scaffolding
with open("/tmp/h28_pages_data/chairilanwar.txt", "w", encoding="utf-8") as _f:  # scaffolding
    _f.write(_TEXT)  # scaffolding


# ---- model_utils.py (class SimpleBigram; the other models and the safetensors checkpoint helpers cut) ----
class SimpleBigram(nnx.Module):
    def __init__(self, vocab_size, seq_len, n_embed, n_hidden, num_layers=1, rngs: nnx.Rngs = None):
        self.seq_len = seq_len
        self.embedding = nnx.Embed(vocab_size, n_embed, rngs=rngs)
        self.lstm = nnx.LSTMCell(n_embed, n_hidden, rngs=rngs)
        self.linear = nnx.Linear(n_hidden, vocab_size, rngs=rngs)
        self.n_hidden = n_hidden
    
    def __call__(self, idx):
        # idx shape: (batch, seq_len)
        x = self.embedding(idx) # (batch, seq_len, n_embed)
        
        batch_size, seq_len, _ = x.shape
        h_init = jnp.zeros((batch_size, self.n_hidden))
        c_init = jnp.zeros((batch_size, self.n_hidden))
        
        def scan_fn(carry, x_t):
            h, c = carry
            (h_next, c_next), h_out = self.lstm((h, c), x_t)
            return (h_next, c_next), h_out

        _, h_stacked = jax.lax.scan(scan_fn, (h_init, c_init), jnp.transpose(x, (1, 0, 2)))
        h_stacked = jnp.transpose(h_stacked, (1, 0, 2)) # (batch, seq_len, n_hidden)
        
        logits = self.linear(h_stacked)
        return logits
    
    def generate(self, idx, max_new_tokens, rngs: nnx.Rngs):
        # Initial call to get the state would be complex in the loop if we don't return state
        # But for simplicity, let's just do it like the PyTorch version (inefficient but works)
        for _ in range(max_new_tokens):
            idx_cond = idx[:, -self.seq_len:]
            logits = self(idx_cond)
            logits = logits[:, -1, :] # last time step
            
            # Sample
            probs = jax.nn.softmax(logits, axis=-1)
            # Use jax.random.choice for sampling
            rngs.next()
            idx_next = jax.random.choice(rngs.params(), jnp.arange(probs.shape[-1]), p=probs[0])
            idx_next = idx_next.reshape(1, 1)
            idx = jnp.concatenate([idx, idx_next], axis=1)
            
        return idx


mu = sys.modules[__name__]  # scaffolding: model_utils.py is inlined above


# ---- seq_processor.py ----
import os
import jax
import jax.numpy as jnp

class CharProcessor:
    def __init__(self, datapath):
        # Read the data
        with open(datapath, "r", encoding="utf-8") as f:
            self.text = f.read()

        print(f"Length of text: {len(self.text)} characters")

        # The unique characters in the file
        self.chars = sorted(list(set(self.text)))
        self.vocab_size = len(self.chars)
        print("".join(self.chars))
        print(self.vocab_size)

        # Create a mapping from characters to integers
        self.stoi = { ch:i for i, ch in enumerate(self.chars) }
        self.itos = { i:ch for i, ch in enumerate(self.chars) }
        self.encode = lambda s: [self.stoi[c] for c in s] # encoder: take a string, output a list of integers
        self.decode = lambda l: "".join([self.itos[i] for i in l]) # decoder: take a list of integers, output a string

def get_batch(data, batch_size=4, block_size=8, key=None):
    """
    Generate a batch of data of inputs x and target y

    Args:
        data (Array): (N,) full encoded text in integers
        batch_size (int): number of samples in a batch
        block_size (int): number of time steps in a sequence
        key (PRNGKey): JAX random key
    
    Returns:
        x (Array): (batch_size, block_size) input sequence
        y (Array): (batch_size, block_size) output sequence
    """
    if key is None:
        key = jax.random.PRNGKey(0)
    
    ix = jax.random.randint(key, (batch_size,), 0, len(data) - block_size)
    
    def get_single_x(start_idx):
        return jax.lax.dynamic_slice_in_dim(data, start_idx, block_size)
    
    def get_single_y(start_idx):
        return jax.lax.dynamic_slice_in_dim(data, start_idx + 1, block_size)

    x = jax.vmap(get_single_x)(ix)
    y = jax.vmap(get_single_y)(ix)
    
    return x, y

sp = sys.modules[__name__]  # scaffolding: seq_processor.py is inlined above


# ---- 4-rnn/3-text_gen.py ----
import sys, os
# script_dir = os.path.dirname(os.path.abspath(__file__))  # scaffolding: modules inlined above
# jax_dir = os.path.dirname(script_dir)  # scaffolding
# sys.path.append(jax_dir)  # scaffolding

from time import process_time
import numpy as np
from tqdm import tqdm

import jax
import jax.numpy as jnp
from flax import nnx
import optax

# Force CPU to avoid Metal issues on some Macs (can still be slow or unstable)
jax.config.update("jax_platform_name", "cpu")

# import seq_processor as sp  # scaffolding: inlined above
# import model_utils as mu  # scaffolding: inlined above

def loss_fn(model, xb, yb):
    logits = model(xb)
    # logits shape: (B, T, vocab_size)
    # yb shape: (B, T)
    B, T, C = logits.shape
    logits_flat = logits.reshape(B * T, C)
    targets_flat = yb.reshape(B * T)
    loss = optax.softmax_cross_entropy_with_integer_labels(logits_flat, targets_flat).mean()
    return loss

@nnx.jit
def train_step(model, optimizer, xb, yb):
    loss, grads = nnx.value_and_grad(loss_fn)(model, xb, yb)
    optimizer.update(model, grads)
    return loss

@nnx.jit(static_argnums=(2, 3, 4))
def estimate_loss(model, data, eval_iters=10, batch_size=32, seq_len=64, key=None):
    model.eval()
    losses = []
    for k in range(eval_iters):
        # We need to be careful with key management if we want reproducibility
        # But for estimation, any key is fine
        curr_key = jax.random.fold_in(key, k) if key is not None else jax.random.PRNGKey(k)
        xb, yb = sp.get_batch(data, batch_size=batch_size, block_size=seq_len, key=curr_key)
        loss = loss_fn(model, xb, yb)
        losses.append(loss)
    
    avg_loss = jnp.mean(jnp.array(losses))
    model.train()
    return avg_loss

# Constants
model_dir = "../models"
model_dir = "/tmp/h28_pages_models"  # scaffolding: scratch folder
os.makedirs(model_dir, exist_ok=True)

max_iters = 5000
data_dir = "../data"
data_dir = "/tmp/h28_pages_data"  # scaffolding: the stand-in text written above
data_path = os.path.join(data_dir, "chairilanwar.txt")
seq_len = 256
n_embed = 384
n_hidden = 512
batch_size = 64
eval_interval = 10 # Increased for speed
max_iters, seq_len, n_embed, n_hidden, batch_size = 1, 32, 32, 32, 8  # scaffolding: one training step and a small model instead of 5000 steps, 256/384/512/64

# Load sequence data
chproc = sp.CharProcessor(data_path)
data = jnp.array(chproc.encode(chproc.text), dtype=jnp.int32)

# Construct training data
train_data = data

# Initialize model
rngs = nnx.Rngs(1337)
model = mu.SimpleBigram(
    chproc.vocab_size,
    seq_len,
    n_embed,
    n_hidden,
    num_layers=1,
    rngs=rngs
)

optimizer = nnx.Optimizer(model, optax.adamw(3e-4), wrt=nnx.Param)

print("Starting training...")

key = jax.random.PRNGKey(0)

for step in range(max_iters):
    key, subkey = jax.random.split(key)
    xb, yb = sp.get_batch(train_data, 
        batch_size=batch_size, 
        block_size=seq_len,
        key=subkey
    )

    start_t = process_time()
    loss = train_step(model, optimizer, xb, yb)
    elapsed_t = process_time() - start_t

    if step % eval_interval == 0 or step == max_iters - 1:
        key, subkey = jax.random.split(key)
        train_loss = estimate_loss(model, train_data, eval_iters=10, batch_size=batch_size, seq_len=seq_len, key=subkey)

        print(f"[Step-{step+1}/{max_iters} - training time: {elapsed_t:.3f} secs]: train loss: {train_loss:.4f}")

        # Generate some text
        # Start with a zero token
        idx = jnp.zeros((1, 1), dtype=jnp.int32)
        # generate expects rngs
        pred_idx = model.generate(idx, 100, rngs=rngs)
        pred_str = chproc.decode(np.array(pred_idx[0]))
        print(f"Generated text:\n{pred_str}\n")

print("Training finished.")

_report({"jit(train_step)", "jit(estimate_loss)", "jit(scan)"}, 1 + 1 + 100)  # scaffolding: one train_step, one estimate_loss, 100 generated tokens
