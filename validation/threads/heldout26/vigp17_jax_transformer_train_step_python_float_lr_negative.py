# source: https://github.com/vigp17/jax-transformer/blob/4fa1bf8dbfa25cc7b1e8aa34b7182a3dee8c9fa1/train.py
# expect: none
# runtime: COMPILES 1 CALLS 12
# why: train_step is a module-level @jax.jit that takes params, fixed-size (batch, block) token arrays from make_batch and a Python-float learning rate; none of these change shape or type, so it compiles once for all steps.
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


# ---- model/embed.py ----
import jax.numpy as jnp
from jax import random

def initialize_embeddings(key, vocab_size, embedding_dim):
    """
    Creates a massive lookup table of random numbers.
    Each row represents a single word in our vocabulary.
    """
    return random.normal(key, (vocab_size, embedding_dim))

# ---- model/attention.py ----
import jax.numpy as jnp
from jax import nn, random

def init_attention_weights(key, d_model):
    """
    Initializes trainable projections for multi-head self-attention.
    """
    kq, kk, kv, ko = random.split(key, 4)
    scale = jnp.sqrt(d_model)
    return {
        "wq": random.normal(kq, (d_model, d_model)) / scale,
        "wk": random.normal(kk, (d_model, d_model)) / scale,
        "wv": random.normal(kv, (d_model, d_model)) / scale,
        "wo": random.normal(ko, (d_model, d_model)) / scale,
    }

def scaled_dot_product_attention(queries, keys, values, causal=True):
    """
    Computes scaled dot-product attention for tensors with shape
    (batch, heads, seq, d_k).
    """
    seq_len = queries.shape[-2]
    d_k = queries.shape[-1]
    scores = jnp.matmul(queries, keys.transpose((0, 1, 3, 2))) / jnp.sqrt(d_k)

    if causal:
        mask = jnp.tril(jnp.ones((seq_len, seq_len), dtype=bool))
        scores = jnp.where(mask, scores, -1e9)

    weights = nn.softmax(scores, axis=-1)
    return jnp.matmul(weights, values), weights

def multi_head_attention(params, x, num_heads, causal=True):
    """
    Splits the work across multiple 'heads' so the AI can 
    look at multiple relationships simultaneously.
    """
    batch_size, seq_len, d_model = x.shape
    assert d_model % num_heads == 0, "d_model must be divisible by num_heads"
    
    d_k = d_model // num_heads
    queries = jnp.matmul(x, params["wq"])
    keys = jnp.matmul(x, params["wk"])
    values = jnp.matmul(x, params["wv"])
    
    # 1. Split into heads: (batch, seq, heads, d_k)
    def split_heads(x):
        x = x.reshape((batch_size, seq_len, num_heads, d_k))
        return x.transpose((0, 2, 1, 3)) # (batch, heads, seq, d_k)

    qs, ks, vs = map(split_heads, (queries, keys, values))
    
    # 2. Scaled Dot-Product Attention for all heads at once
    context, weights = scaled_dot_product_attention(qs, ks, vs, causal=causal)
    
    # 3. Concatenate heads back together and apply the output projection
    context = context.transpose((0, 2, 1, 3)).reshape((batch_size, seq_len, d_model))
    context = jnp.matmul(context, params["wo"])
    
    return context, weights


# ---- model/layers.py ----
import jax.numpy as jnp
from jax import random, nn

def init_ffn_weights(key, d_model, d_ff):
    """
    Initializes the 'brain cells' (weights and biases) for the reasoning layer.
    d_model: the size of our input vector (e.g., 64)
    d_ff: the expanded size for reasoning (usually 4x larger, e.g., 256)
    """
    k1, k2 = random.split(key)
    
    # Layer 1 Weights and Biases
    w1 = random.normal(k1, (d_model, d_ff)) / jnp.sqrt(d_model)
    b1 = jnp.zeros((d_ff,))
    
    # Layer 2 Weights and Biases
    w2 = random.normal(k2, (d_ff, d_model)) / jnp.sqrt(d_ff)
    b2 = jnp.zeros((d_model,))
    
    return {"w1": w1, "b1": b1, "w2": w2, "b2": b2}

def feed_forward(params, x):
    """
    The actual reasoning math: Linear -> ReLU Activation -> Linear
    """
    # 1. First linear transformation (expand the vector)
    hidden = jnp.matmul(x, params["w1"]) + params["b1"]
    
    # 2. Activation Function (ReLU): This allows the AI to learn non-linear, complex concepts
    hidden = nn.relu(hidden)
    
    # 3. Second linear transformation (compress it back to original size)
    output = jnp.matmul(hidden, params["w2"]) + params["b2"]
    
    return output

# ---- model/block.py ----
import jax.numpy as jnp
# from model.attention import multi_head_attention  # scaffolding: inlined above
# from model.layers import feed_forward  # scaffolding: inlined above

def layer_norm(x, eps=1e-5):
    """
    Grading on a curve: Keeps the numbers perfectly balanced.
    """
    mean = jnp.mean(x, axis=-1, keepdims=True)
    variance = jnp.mean(jnp.square(x - mean), axis=-1, keepdims=True)
    return (x - mean) / jnp.sqrt(variance + eps)

def transformer_block(params, x, num_heads=4):
    """
    The complete Lego brick: Attention -> Add & Norm -> Reasoning -> Add & Norm
    """
    # 1. Self-Attention (The Brain)
    # We pass 'x' in as Queries, Keys, and Values because the words are looking at themselves
    attention_out, _ = multi_head_attention(params["attention"], x, num_heads)
    
    # 2. First Skip Connection & Normalization
    x_norm1 = layer_norm(x + attention_out)
    
    # 3. Feed-Forward Network (The Reasoning)
    ffn_out = feed_forward(params["ffn"], x_norm1)
    
    # 4. Second Skip Connection & Normalization
    output = layer_norm(x_norm1 + ffn_out)
    
    return output


# ---- model/transformer.py ----
import jax.numpy as jnp
from jax import random
# from model.embed import initialize_embeddings  # scaffolding: inlined above
# from model.attention import init_attention_weights  # scaffolding: inlined above
# from model.layers import init_ffn_weights  # scaffolding: inlined above
# from model.block import transformer_block  # scaffolding: inlined above

def init_model_params(key, vocab_size, d_model, d_ff, max_seq_len=128):
    """
    Initializes every single weight and dictionary in the entire AI.
    """
    k1, k2, k3, k4, k5 = random.split(key, 5)
    
    # 1. The Word Dictionary (Phase 1)
    embeddings = initialize_embeddings(k1, vocab_size, d_model)
    positional_embeddings = random.normal(k2, (max_seq_len, d_model)) / jnp.sqrt(d_model)
    
    # 2. The Transformer Block Brain Cells (Phases 2 & 3)
    block_params = {
        "attention": init_attention_weights(k3, d_model),
        "ffn": init_ffn_weights(k4, d_model, d_ff),
    }
    
    # 3. The Final Output Layer (Translates math back into English)
    final_w = random.normal(k5, (d_model, vocab_size)) / jnp.sqrt(d_model)
    final_b = jnp.zeros((vocab_size,))
    
    return {
        "embeddings": embeddings,
        "positional_embeddings": positional_embeddings,
        "block": block_params,
        "final_w": final_w,
        "final_b": final_b
    }

def full_transformer(params, input_tokens):
    """
    The complete pipeline: ID -> Vector -> Block -> Word Prediction
    """
    # 1. Convert word IDs into Math Vectors
    seq_len = input_tokens.shape[1]
    x = params["embeddings"][input_tokens]
    x = x + params["positional_embeddings"][:seq_len]
    
    # 2. Run the math through the Transformer Block
    x = transformer_block(params["block"], x)
    
    # 3. Convert the math back into vocabulary predictions (Logits)
    logits = jnp.matmul(x, params["final_w"]) + params["final_b"]
    
    return logits


# ---- train.py ----
from pathlib import Path
import pickle

import jax
import jax.numpy as jnp
from jax import random

# from model.transformer import init_model_params, full_transformer  # scaffolding: inlined above
import tempfile  # scaffolding

CHECKPOINT_PATH = Path("checkpoints/params.pkl")
DATA_PATH = Path("data/input.txt")
D_MODEL = 64
D_FF = 256
LEARNING_RATE = 0.01
TRAIN_STEPS = 100
BLOCK_SIZE = 64
BATCH_SIZE = 16

def cross_entropy_loss(params, input_tokens, target_tokens):
    """
    Calculates how mathematically wrong the AI's predictions are.
    """
    # 1. The AI makes its raw guesses (Logits)
    logits = full_transformer(params, input_tokens)
    
    # 2. Convert the correct answers into math (One-Hot Encoding)
    vocab_size = logits.shape[-1]
    targets_one_hot = jax.nn.one_hot(target_tokens, vocab_size)
    
    # 3. Convert the AI's guesses into probabilities
    log_probs = jax.nn.log_softmax(logits, axis=-1)
    
    # 4. Compare them to get the final Error (Loss) score
    loss = -jnp.sum(targets_one_hot * log_probs) / input_tokens.size
    return loss

def load_text(path=DATA_PATH):
    """
    Loads plain text for language-model training.
    """
    return Path(path).read_text(encoding="utf-8")

def build_vocab(text):
    """
    Builds a character vocabulary from the training text.
    """
    chars = sorted(set(text))
    stoi = {ch: i for i, ch in enumerate(chars)}
    itos = {i: ch for ch, i in stoi.items()}
    return stoi, itos

def encode(text, stoi):
    """
    Converts text into token IDs.
    """
    return jnp.array([stoi[ch] for ch in text], dtype=jnp.int32)

def decode(token_ids, itos):
    """
    Converts token IDs back into text.
    """
    return "".join(itos[int(token_id)] for token_id in token_ids)

def make_batch(data, block_size, batch_size, step):
    """
    Creates deterministic next-character batches from real text.
    """
    max_start = data.shape[0] - block_size - 1
    if max_start <= 0:
        raise ValueError("Training text must be longer than block_size + 1 characters.")

    starts = (jnp.arange(batch_size) + step * batch_size) % max_start
    positions = starts[:, None] + jnp.arange(block_size)[None, :]
    input_tokens = data[positions]
    target_tokens = data[positions + 1]
    return input_tokens, target_tokens

@jax.jit
def train_step(params, input_tokens, target_tokens, learning_rate):
    """
    Runs one compiled gradient descent step.
    """
    loss_value, gradients = jax.value_and_grad(cross_entropy_loss)(
        params, input_tokens, target_tokens
    )
    params = jax.tree_util.tree_map(
        lambda p, g: p - learning_rate * g,
        params,
        gradients,
    )
    return params, loss_value

def train_model(
    key=random.PRNGKey(4),
    epochs=TRAIN_STEPS,
    learning_rate=LEARNING_RATE,
    d_model=D_MODEL,
    d_ff=D_FF,
    block_size=BLOCK_SIZE,
    batch_size=BATCH_SIZE,
    text=None,
    data_path=DATA_PATH,
):
    """
    Trains a tiny character-level Transformer on real text.
    """
    text = load_text(data_path) if text is None else text
    stoi, itos = build_vocab(text)
    data = encode(text, stoi)
    params = init_model_params(
        key,
        vocab_size=len(stoi),
        d_model=d_model,
        d_ff=d_ff,
        max_seq_len=block_size,
    )
    losses = []

    for step in range(epochs):
        input_tokens, target_tokens = make_batch(data, block_size, batch_size, step)
        params, loss_value = train_step(params, input_tokens, target_tokens, learning_rate)
        losses.append(float(loss_value))

    metadata = {
        "stoi": stoi,
        "itos": itos,
        "block_size": block_size,
        "d_model": d_model,
        "d_ff": d_ff,
    }
    return params, losses, metadata

def save_params(params, path=CHECKPOINT_PATH):
    """
    Saves model parameters so generation does not need to retrain.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    params = jax.tree_util.tree_map(jax.device_get, params)
    with path.open("wb") as f:
        pickle.dump(params, f)

def load_params(path=CHECKPOINT_PATH):
    """
    Loads saved model parameters.
    """
    with Path(path).open("rb") as f:
        return pickle.load(f)

def save_checkpoint(params, metadata, path=CHECKPOINT_PATH):
    """
    Saves model parameters plus the text vocabulary.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    params = jax.tree_util.tree_map(jax.device_get, params)
    with path.open("wb") as f:
        pickle.dump({"params": params, "metadata": metadata}, f)

def load_checkpoint(path=CHECKPOINT_PATH):
    """
    Loads model parameters plus the text vocabulary.
    """
    with Path(path).open("rb") as f:
        checkpoint = pickle.load(f)

    if "params" not in checkpoint or "metadata" not in checkpoint:
        raise ValueError("Checkpoint is missing params or metadata. Run train.py again.")

    return checkpoint["params"], checkpoint["metadata"]

def main():
    print(f"Running on: {jax.devices()[0]}")
    print(f"Training on: {DATA_PATH}")
    print("\n--- Starting Training Loop ---")

    params, losses, metadata = train_model(epochs=TRAIN_STEPS, data_path=DATA_PATH)  # scaffolding: pass the stand-in data path and step count
    for epoch, loss_value in enumerate(losses, start=1):
        if epoch == 1 or epoch % 10 == 0:
            print(f"Step {epoch:3d} | Loss (Error): {loss_value:.4f}")

    save_checkpoint(params, metadata, CHECKPOINT_PATH)  # scaffolding: temp path
    print(f"\nSaved trained params to: {CHECKPOINT_PATH}")

_TMP = Path(tempfile.mkdtemp())  # scaffolding
DATA_PATH = _TMP / "input.txt"  # scaffolding: stand-in for data/input.txt (tiny shakespeare)
DATA_PATH.write_text("First Citizen:\nBefore we proceed any further, hear me speak.\n\nAll:\nSpeak, speak.\n" * 20)  # scaffolding
CHECKPOINT_PATH = _TMP / "checkpoints" / "params.pkl"  # scaffolding
TRAIN_STEPS = 12  # scaffolding: 100 -> 12 steps
if __name__ == "__main__":
    main()
    _report({"jit(train_step)"}, TRAIN_STEPS)  # scaffolding
