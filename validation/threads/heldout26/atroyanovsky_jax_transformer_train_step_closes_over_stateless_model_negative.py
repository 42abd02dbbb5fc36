# source: https://github.com/atroyanovsky/jax-transformer/blob/b5df9c06adc22a738984c55b5bf6e1c763a44bcf/train.py
# expect: none
# runtime: COMPILES 1 CALLS 12
# why: train_step is jitted once inside main and closes over the Transformer object and the optax optimizer, which hold only configuration (the params are passed in); fixed-size random copy-task batches keep it at one compile for all steps.
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


# ---- src/config.py ----
"""
Configuration settings for the JAX Transformer
"""

class Config:
    # Model configuration
    VOCAB_SIZE = 50      # Small vocab for copy task
    D_MODEL = 128        # Feature vector size
    NUM_LAYERS = 5
    NUM_HEADS = 4
    D_FF = 256
    MAX_LEN = 50
    
    # Training configuration
    BATCH_SIZE = 32
    SEQ_LEN = 15
    STEPS = 6000
    LR = 1e-3
    
    # Data configuration
    DATA_DIR = "data"
    CHECKPOINT_DIR = "checkpoints"


# ---- src/models/transformer.py ----
"""
Transformer model implementation in JAX.

This is a encoder-only transformer trained on a sequence copy task,
where the model learns to reproduce its input.
"""

import jax.numpy as jnp
import jax


class Transformer:
    """
    Stateless Transformer model following JAX idioms.

    The class stores only configuration; all parameters are passed
    explicitly to methods for JAX compatibility.
    """

    def __init__(self, num_heads, max_len, d_model, vocab_size, num_layers, d_ff):
        self.num_heads = num_heads
        self.max_len = max_len
        self.d_model = d_model
        self.vocab_size = vocab_size
        self.num_layers = num_layers
        self.d_ff = d_ff
    
    def _xavier_he(self, key, shape):
        """Xavier/He initialization: std = sqrt(2 / fan_in)."""
        fan_in = shape[0]
        std = jnp.sqrt(2.0 / fan_in)
        return jax.random.normal(key, shape) * std

    def init_params(self, key):
        """
        Initialize all model parameters using He initialization.

        Args:
            key: JAX random key

        Returns:
            dict: Nested dictionary containing all model parameters
        """
        keys = jax.random.split(key, self.num_layers * 6 + 3)
        key_idx = 0

        params = {}

        # Embedding matrix
        params['embedding'] = self._xavier_he(keys[key_idx], (self.vocab_size, self.d_model))
        key_idx += 1

        # Classifier head
        params['W_vocab'] = self._xavier_he(keys[key_idx], (self.d_model, self.vocab_size))
        key_idx += 1
        params['b_vocab'] = jnp.zeros(self.vocab_size)

        # Transformer layers
        params['layers'] = []
        for i in range(self.num_layers):
            layer_params = {}

            # Attention parameters
            layer_params['attention'] = {
                'W_q': self._xavier_he(keys[key_idx], (self.d_model, self.d_model)),
                'b_q': jnp.zeros(self.d_model),
                'W_k': self._xavier_he(keys[key_idx + 1], (self.d_model, self.d_model)),
                'b_k': jnp.zeros(self.d_model),
                'W_v': self._xavier_he(keys[key_idx + 2], (self.d_model, self.d_model)),
                'b_v': jnp.zeros(self.d_model),
                'W_o': self._xavier_he(keys[key_idx + 3], (self.d_model, self.d_model)),
                'b_o': jnp.zeros(self.d_model),
            }

            layer_params['norm1'] = {
                'gamma': jnp.ones(self.d_model),
                'beta': jnp.zeros(self.d_model)
            }

            key_idx += 4

            # Feed-forward parameters
            layer_params['ffn'] = {
                'W_1': self._xavier_he(keys[key_idx], (self.d_model, self.d_ff)),
                'b_1': jnp.zeros(self.d_ff),
                'W_2': self._xavier_he(keys[key_idx + 1], (self.d_ff, self.d_model)),
                'b_2': jnp.zeros(self.d_model),
            }

            layer_params['norm2'] = {
                'gamma': jnp.ones(self.d_model),
                'beta': jnp.zeros(self.d_model)
            }

            key_idx += 2
            
            params['layers'].append(layer_params)
        
        return params
    
    def attention(self, Q, K, V):
        """
        Scaled dot-product attention.

        Args:
            Q: Query matrix (batch, num_heads, seq_len, d_k)
            K: Key matrix (batch, num_heads, seq_len, d_k)
            V: Value matrix (batch, num_heads, seq_len, d_k)

        Returns:
            Attention output (batch, num_heads, seq_len, d_k)
        """
        d_k = Q.shape[-1]
        scores = jnp.matmul(Q, jnp.swapaxes(K, -2, -1)) / jnp.sqrt(d_k)
        probabilities = jax.nn.softmax(scores)
        return jnp.matmul(probabilities, V)

    def project(self, x, W, b):
        """Linear projection: x @ W + b."""
        return jnp.matmul(x, W) + b

    def layer_norm(self, x, params, eps=1e-6):
        """
        Layer normalization with learnable scale and shift.

        Args:
            x: Input (batch, seq_len, d_model)
            params: Dict with 'gamma' and 'beta'
            eps: Small constant for numerical stability

        Returns:
            Normalized output (batch, seq_len, d_model)
        """
        mu = jnp.mean(x, 2, keepdims=True)
        sigma = jnp.std(x, 2, keepdims=True)
        norm = (x - mu) / (sigma + eps)
        return norm * params['gamma'] + params['beta']

    def residual_block(self, x, layer_norm, sublayer):
        """Apply sublayer with residual connection: layer_norm(x + sublayer(x))."""
        return layer_norm(x + sublayer(x))

    def split_heads(self, x, num_heads):
        """
        Split the last dimension into (num_heads, depth) and transpose.

        Args:
            x: Input (batch, seq_len, d_model)
            num_heads: Number of attention heads

        Returns:
            Split tensor (batch, num_heads, seq_len, depth)
        """
        head_depth = x.shape[-1] // num_heads
        split_head_vals = jnp.reshape(x, x.shape[:2] + (num_heads, head_depth))
        return split_head_vals.swapaxes(1, 2)

    def merge_heads(self, x):
        """
        Inverse of split_heads: merge attention heads back together.

        Args:
            x: Split tensor (batch, num_heads, seq_len, depth)

        Returns:
            Merged tensor (batch, seq_len, d_model)
        """
        x = x.swapaxes(1, 2)
        return jnp.reshape(x, (x.shape[0], x.shape[1], -1))

    def multi_head_attention(self, x, attention_params):
        """
        Multi-head self-attention.

        Projects input to Q, K, V, splits into heads, applies attention,
        merges heads, and projects output.

        Args:
            x: Input (batch, seq_len, d_model)
            attention_params: Dict with W_q, W_k, W_v, W_o and biases

        Returns:
            Attention output (batch, seq_len, d_model)
        """
        Q = self.project(x, attention_params["W_q"], attention_params["b_q"])
        K = self.project(x, attention_params["W_k"], attention_params["b_k"])
        V = self.project(x, attention_params["W_v"], attention_params["b_v"])

        Q = self.split_heads(Q, num_heads=self.num_heads)
        K = self.split_heads(K, num_heads=self.num_heads)
        V = self.split_heads(V, num_heads=self.num_heads)

        res = self.attention(Q, K, V)
        res = self.merge_heads(res)
        res = self.project(res, attention_params["W_o"], attention_params["b_o"])
        return res

    def feed_forward(self, x, ffn_params):
        """
        Position-wise feed-forward network: two linear layers with ReLU.

        Args:
            x: Input (batch, seq_len, d_model)
            ffn_params: Dict with W_1, b_1, W_2, b_2

        Returns:
            Output (batch, seq_len, d_model)
        """
        hidden = jax.nn.relu(jnp.matmul(x, ffn_params["W_1"]) + ffn_params["b_1"])
        return jnp.matmul(hidden, ffn_params["W_2"]) + ffn_params["b_2"]

    def transformer_block(self, x, layer_params):
        """
        Single transformer block: attention + FFN, each with residual and layer norm.

        Args:
            x: Input (batch, seq_len, d_model)
            layer_params: Dict with attention, ffn, norm1, norm2 params

        Returns:
            Output (batch, seq_len, d_model)
        """
        attn_out = self.multi_head_attention(x, layer_params["attention"])
        x = self.layer_norm(x + attn_out, layer_params["norm1"])

        ff_out = self.feed_forward(x, layer_params["ffn"])
        x = self.layer_norm(x + ff_out, layer_params["norm2"])
        return x

    def positional_encoding(self, max_len, d_model):
        """
        Generate sinusoidal positional encodings.

        Args:
            max_len: Maximum sequence length
            d_model: Model dimension

        Returns:
            Positional encoding matrix (max_len, d_model)
        """
        pe = jnp.zeros((max_len, d_model))
        position = jnp.arange(0, max_len).reshape(-1, 1)
        div_idx = jnp.arange(0, d_model, 2)
        div_term = jnp.exp(div_idx * -(jnp.log(10000.0) / d_model))

        pe = pe.at[:, 0::2].set(jnp.sin(position * div_term))
        pe = pe.at[:, 1::2].set(jnp.cos(position * div_term))
        return pe

    def encoder(self, params, input_tokens):
        """
        Full encoder forward pass.

        Args:
            params: Model parameters dict
            input_tokens: Token IDs (batch, seq_len)

        Returns:
            Encoded representations (batch, seq_len, d_model)
        """
        x = params['embedding'][input_tokens] * jnp.sqrt(self.d_model)

        pe = self.positional_encoding(self.max_len, self.d_model)
        seq_len = x.shape[1]
        x = x + pe[:seq_len, :]

        for layer_params in params['layers']:
            x = self.transformer_block(x, layer_params)

        return x

    def classifier_head(self, params, x):
        """
        Project encoder output to vocabulary log-probabilities.

        Args:
            params: Model parameters dict
            x: Encoder output (batch, seq_len, d_model)

        Returns:
            Log-probabilities over vocabulary (batch, seq_len, vocab_size)
        """
        logits = jnp.matmul(x, params['W_vocab']) + params['b_vocab']
        return jax.nn.log_softmax(logits)
    
    def validate_params(self, params):
        """
        Validate that all parameters have the correct dimensions.
        Uses instance config values for expected dimensions.
        
        Args:
            params: Parameter dictionary to validate
        
        Returns:
            bool: True if all dimensions are correct
            str: Error message if validation fails
        """
        try:
            # Check embedding matrix
            if 'embedding' not in params:
                return False, "Missing embedding matrix"
            if params['embedding'].shape != (self.vocab_size, self.d_model):
                return False, f"Embedding shape: expected ({self.vocab_size}, {self.d_model}), got {params['embedding'].shape}"
            
            # Check classifier head
            if 'W_vocab' not in params or 'b_vocab' not in params:
                return False, "Missing classifier head parameters"
            if params['W_vocab'].shape != (self.d_model, self.vocab_size):
                return False, f"W_vocab shape: expected ({self.d_model}, {self.vocab_size}), got {params['W_vocab'].shape}"
            if params['b_vocab'].shape != (self.vocab_size,):
                return False, f"b_vocab shape: expected ({self.vocab_size},), got {params['b_vocab'].shape}"
            
            # Check layers
            if 'layers' not in params:
                return False, "Missing layers parameter"
            if len(params['layers']) != self.num_layers:
                return False, f"Number of layers: expected {self.num_layers}, got {len(params['layers'])}"
            
            # Check each layer
            for i, layer_params in enumerate(params['layers']):
                # Check attention parameters
                attention_params = layer_params.get('attention', {})
                for param_name in ['W_q', 'W_k', 'W_v', 'W_o']:
                    if param_name not in attention_params:
                        return False, f"Layer {i}: Missing {param_name} in attention"
                    expected_shape = (self.d_model, self.d_model)
                    if attention_params[param_name].shape != expected_shape:
                        return False, f"Layer {i}: {param_name} shape: expected {expected_shape}, got {attention_params[param_name].shape}"
                
                for param_name in ['b_q', 'b_k', 'b_v', 'b_o']:
                    if param_name not in attention_params:
                        return False, f"Layer {i}: Missing {param_name} in attention"
                    if attention_params[param_name].shape != (self.d_model,):
                        return False, f"Layer {i}: {param_name} shape: expected ({self.d_model},), got {attention_params[param_name].shape}"
                
                # Check feed-forward parameters
                ffn_params = layer_params.get('ffn', {})
                for param_name in ['W_1', 'W_2']:
                    if param_name not in ffn_params:
                        return False, f"Layer {i}: Missing {param_name} in feed-forward"
                    expected_shape = (self.d_model, self.d_ff) if param_name == 'W_1' else (self.d_ff, self.d_model)
                    if ffn_params[param_name].shape != expected_shape:
                        return False, f"Layer {i}: {param_name} shape: expected {expected_shape}, got {ffn_params[param_name].shape}"
                
                for param_name in ['b_1', 'b_2']:
                    if param_name not in ffn_params:
                        return False, f"Layer {i}: Missing {param_name} in feed-forward"
                    expected_shape = (self.d_ff,) if param_name == 'b_1' else (self.d_model,)
                    if ffn_params[param_name].shape != expected_shape:
                        return False, f"Layer {i}: {param_name} shape: expected {expected_shape}, got {ffn_params[param_name].shape}"
                
                # Check layer normalization parameters
                for norm_name in ['norm1', 'norm2']:
                    norm_params = layer_params.get(norm_name, {})
                    for param_name in ['gamma', 'beta']:
                        if param_name not in norm_params:
                            return False, f"Layer {i}: Missing {param_name} in {norm_name}"
                        if norm_params[param_name].shape != (self.d_model,):
                            return False, f"Layer {i}: {norm_name} {param_name} shape: expected ({self.d_model},), got {norm_params[param_name].shape}"
            
            return True, "All parameter dimensions are correct"
            
        except Exception as e:
            return False, f"Error during validation: {str(e)}"


def loss_fn(params, model, inputs, targets):
    """
    Compute cross-entropy loss for the copy task.

    Args:
        params: Model parameters
        model: Transformer instance
        inputs: Input token IDs (batch, seq_len)
        targets: Target token IDs (batch, seq_len)

    Returns:
        Scalar cross-entropy loss
    """
    features = model.encoder(params, inputs)
    log_probs = model.classifier_head(params, features)
    target_log_probs = jnp.take_along_axis(log_probs, targets[..., None], axis=-1)
    return -jnp.mean(target_log_probs)

# ---- src/training/training_loop.py ----
"""Training utilities for the copy task."""

import jax
import jax.numpy as jnp


def loss_fn(params, model, inputs, targets):
    """
    Compute cross-entropy loss.

    Args:
        params: Model parameters
        model: Transformer instance
        inputs: Input token IDs (batch, seq_len)
        targets: Target token IDs (batch, seq_len)

    Returns:
        Scalar cross-entropy loss
    """
    features = model.encoder(params, inputs)
    log_probs = model.classifier_head(params, features)
    label_log_probs = jnp.take_along_axis(log_probs, targets[..., None], axis=-1)
    return -jnp.mean(label_log_probs)


def get_batch(key, batch_size, seq_len, vocab_size):
    """
    Generate a random batch for the copy task.

    Args:
        key: JAX random key
        batch_size: Number of sequences
        seq_len: Length of each sequence
        vocab_size: Vocabulary size

    Returns:
        (inputs, targets) where targets == inputs
    """
    data = jax.random.randint(key, (batch_size, seq_len), 0, vocab_size)
    return data, data


# ---- train.py ----
#!/usr/bin/env python3
"""
Main training script for JAX Transformer
"""

import jax
import jax.numpy as jnp
import optax
# from src.models.transformer import Transformer  # scaffolding: inlined above
# from src.training.training_loop import loss_fn, get_batch  # scaffolding: inlined above
# from src.config import Config  # scaffolding: inlined above
Config.STEPS = 12  # scaffolding: 6000 -> 12 steps

def main():
    # A. Initialization
    key = jax.random.PRNGKey(42)
    model = Transformer(
        Config.NUM_HEADS, 
        Config.MAX_LEN, 
        Config.D_MODEL, 
        Config.VOCAB_SIZE, 
        Config.NUM_LAYERS, 
        Config.D_FF
    )

    key, subkey = jax.random.split(key)
    params = model.init_params(subkey)

    # B. Optimizer (AdamW)
    optimizer = optax.adamw(learning_rate=Config.LR)
    opt_state = optimizer.init(params)

    # C. The JIT-Compiled Update Step
    @jax.jit
    def train_step(params, opt_state, inputs, targets):
        loss_val, grads = jax.value_and_grad(loss_fn)(params, model, inputs, targets)
        updates, new_opt_state = optimizer.update(grads, opt_state, params)
        new_params = optax.apply_updates(params, updates)
        return new_params, new_opt_state, loss_val

    # D. The Training Loop
    print(f"\n--- Starting Training (Steps: {Config.STEPS}) ---")

    for step in range(Config.STEPS):
        key, subkey = jax.random.split(key)
        inputs, targets = get_batch(subkey, Config.BATCH_SIZE, Config.SEQ_LEN, Config.VOCAB_SIZE)
        
        params, opt_state, loss = train_step(params, opt_state, inputs, targets)
        
        if step % 100 == 0:
            print(f"Step {step:04d} | Loss: {loss:.4f}")

    # E. Final Test
    print("\n--- Final Test ---")
    test_input = jax.random.randint(key, (1, Config.SEQ_LEN), 0, Config.VOCAB_SIZE)
    features = model.encoder(params, test_input)
    log_probs = model.classifier_head(params, features)
    predicted = jnp.argmax(log_probs, axis=-1)

    print(f"Input:     {test_input[0]}")
    print(f"Predicted: {predicted[0]}")

    if jnp.array_equal(test_input, predicted):
        print("✅ SUCCESS: Model perfectly copied the sequence.")
    else:
        print("❌ FAILURE: Model made mistakes.")

if __name__ == "__main__":
    main()
    _report({"jit(train_step)"}, Config.STEPS)  # scaffolding
