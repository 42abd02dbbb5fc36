# source: https://github.com/jax-ml/bonsai/commit/64d822f420ed42eaea4ad4a82beec24dcac642e9
# expect: shape-churn at line 145
# runtime: COMPILES 2 CALLS 16
# why: After the commit run_model warms up and profiles forward with flat_state (a list of leaves) but times it with the nnx.State, a different pytree structure for the same argument, so forward is traced and compiled a second time in the timed loop.
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

import jax
import jax.numpy as jnp
from flax import nnx


class Embeddings(nnx.Module):
    def __init__(
        self,
        image_size: tuple[int, int],
        patch_size: tuple[int, int],
        num_channels: int,
        hidden_dim: int,
        dropout_prob: float,
        *,
        rngs: nnx.Rngs,
    ):
        num_patches = (image_size[0] // patch_size[0]) * (image_size[1] // patch_size[1])

        self.projection = nnx.Conv(num_channels, hidden_dim, kernel_size=patch_size, strides=patch_size, rngs=rngs)
        self.cls_token = nnx.Variable(jax.random.normal(rngs.params(), (1, 1, hidden_dim)))
        self.pos_embeddings = nnx.Variable(jax.random.normal(rngs.params(), (1, num_patches + 1, hidden_dim)))
        self.dropout = nnx.Dropout(dropout_prob, rngs=rngs)

    def __call__(self, pixel_values: jnp.ndarray) -> jnp.ndarray:
        embeddings = self.projection(pixel_values)
        b, h, w, c = embeddings.shape
        embeddings = embeddings.reshape(b, h * w, c)
        cls_tokens = jnp.tile(self.cls_token.value, (b, 1, 1))
        embeddings = jnp.concatenate((cls_tokens, embeddings), axis=1)
        embeddings = embeddings + self.pos_embeddings.value
        embeddings = self.dropout(embeddings)
        return embeddings


class TransformerEncoder(nnx.Module):
    def __init__(self, num_heads: int, attn_dim: int, mlp_dim: int, dropout_prob: float, eps: float, *, rngs: nnx.Rngs):
        self.attention = nnx.MultiHeadAttention(num_heads=num_heads, in_features=attn_dim, decode=False, rngs=rngs)
        self.linear1 = nnx.Linear(attn_dim, mlp_dim, rngs=rngs)
        self.linear2 = nnx.Linear(mlp_dim, attn_dim, rngs=rngs)
        self.dropout = nnx.Dropout(dropout_prob, rngs=rngs)
        self.layernorm_before = nnx.LayerNorm(attn_dim, epsilon=eps, rngs=rngs)
        self.layernorm_after = nnx.LayerNorm(attn_dim, epsilon=eps, rngs=rngs)

    def __call__(self, hidden_states, head_mask=None):
        hidden_states_norm = self.layernorm_before(hidden_states)
        attention_output = self.attention(hidden_states_norm, head_mask)
        hidden_states = attention_output + hidden_states
        layer_output = self.layernorm_after(hidden_states)
        layer_output = jax.nn.gelu(self.linear1(layer_output))
        layer_output = self.linear2(layer_output)
        layer_output = self.dropout(layer_output)
        layer_output += hidden_states
        return layer_output


class ViTClassificationModel(nnx.Module):
    def __init__(
        self,
        image_size: tuple[int, int],
        patch_size: tuple[int, int],
        num_channels: int,
        hidden_dim: int,
        dropout_prob: float,
        num_heads: int,
        mlp_dim: int,
        eps: float,
        num_layers: int,
        num_labels: int,
        *,
        rngs: nnx.Rngs,
    ):
        self.pos_embeddings = Embeddings(image_size, patch_size, num_channels, hidden_dim, dropout_prob, rngs=rngs)
        self.layers = nnx.Sequential(
            *[
                TransformerEncoder(num_heads, hidden_dim, mlp_dim, dropout_prob, eps, rngs=rngs)
                for _ in range(num_layers)
            ]
        )
        self.ln = nnx.LayerNorm(hidden_dim, epsilon=eps, rngs=rngs)
        self.classifier = nnx.Linear(hidden_dim, num_labels, rngs=rngs)

    def __call__(self, x):
        x = self.pos_embeddings(x)
        x = self.layers(x)
        x = self.ln(x)
        x = self.classifier(x[:, 0, :])
        return x


def ViT(num_classes: int, *, rngs: nnx.Rngs):
    return ViTClassificationModel((224, 224), (16, 16), 3, 768, 0.0, 12, 3072, 1e-12, 12, num_classes, rngs=rngs)


@jax.jit
def forward(graphdef: nnx.GraphDef[nnx.Module], state: nnx.State, x: jax.Array) -> jax.Array:
    model = nnx.merge(graphdef, state)
    return model(x)

def run_model():  # tests/run_model.py at the commit (download, profiler trace and timers left out)
    # 2. Load pretrained model
    model = ViTClassificationModel((32, 32), (16, 16), 3, 32, 0.0, 2, 64, 1e-12, 2, 10, rngs=nnx.Rngs(0))  # scaffolding: tiny ViT instead of params.create_vit_from_pretrained (224px, 768 wide, 12 layers)
    graphdef, state = nnx.split(model)
    flat_state = jax.tree.leaves(state)

    # 3. Prepare dummy input
    batch_size, channels, image_size = 8, 3, 32  # scaffolding: image_size 224 -> 32
    dummy_input = jnp.ones((batch_size, image_size, image_size, channels), dtype=jnp.float32)

    # 4. Warmup
    # Warmup (triggers compilation)
    _ = forward(graphdef, flat_state, dummy_input).block_until_ready()

    # Profile a few steps
    for _ in range(5):
        logits = forward(graphdef, flat_state, dummy_input)
        jax.block_until_ready(logits)

    # 5. Timed execution
    for _ in range(10):
        logits = forward(graphdef, state, dummy_input)

    # 6. Show top-1 predicted class
    pred = jnp.argmax(logits, axis=-1)
    print("Predicted classes:", pred)


try:  # scaffolding
    run_model()  # scaffolding
    _report({"jit(forward)"}, 16)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
