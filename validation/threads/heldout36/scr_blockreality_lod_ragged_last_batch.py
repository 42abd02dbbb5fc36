# source: https://github.com/rocky59487/Block-Realityapi-Fast-design/blob/9a77884928506586403517c1acfd70bdc72bc905/ml/scratch/train_lod_quick.py
# expect: shape-churn at line 88
# runtime: COMPILES 2 CALLS 96
# why: The LOD-classifier trial script batches 1000 samples with range(0, n_samples, 32), so each epoch ends with an 8-row batch and the jitted train_step compiles a second time for it.

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
import numpy as np
import optax
from flax import linen as nn  # scaffolding
from flax.training import train_state


class LODClassifier(nn.Module):  # scaffolding: stand-in for brml.models.lod_classifier (not in the repository)
    in_features: int
    hidden_dim: int
    num_classes: int

    @nn.compact
    def __call__(self, x):
        return nn.Dense(self.num_classes)(nn.relu(nn.Dense(self.hidden_dim)(x)))


N_CALLS = 0  # scaffolding


def train_lod():
    global N_CALLS  # scaffolding
    print("═══ Training LOD Classifier (Trial) ═══")
    model = LODClassifier(in_features=14, hidden_dim=32, num_classes=4)
    rng = jax.random.PRNGKey(42)

    # 1. Initialize
    dummy_input = jnp.zeros((1, 14))
    params = model.init(rng, dummy_input)["params"]

    # 2. Setup Optimizer
    opt = optax.adam(1e-3)
    state = train_state.TrainState.create(apply_fn=model.apply, params=params, tx=opt)

    # 3. Synthetic Data for Trial
    # In a real run, this would be statistics from chunks
    n_samples = 1000
    x_train = np.random.randn(n_samples, 14).astype(np.float32)
    y_train = np.random.randint(0, 4, size=(n_samples,))

    @jax.jit
    def train_step(state, x, y):
        def loss_fn(p):
            logits = state.apply_fn({"params": p}, x)
            one_hot = jax.nn.one_hot(y, 4)
            return -jnp.mean(jnp.sum(one_hot * jax.nn.log_softmax(logits), axis=-1))

        loss, grads = jax.value_and_grad(loss_fn)(state.params)
        return state.apply_gradients(grads=grads), loss

    # 4. Training Loop
    epochs = 3  # scaffolding: 50 in the script
    batch_size = 32
    for epoch in range(epochs):
        perm = np.random.permutation(n_samples)
        losses = []
        for i in range(0, n_samples, batch_size):
            idx = perm[i:i+batch_size]
            state, loss = train_step(state, x_train[idx], y_train[idx])
            N_CALLS += 1  # scaffolding
            losses.append(loss)
        if epoch % 10 == 0:
            print(f"  Epoch {epoch} loss: {np.mean(losses):.4f}")

    # (5. ONNX export via jax2tf/tf2onnx cut: scaffolding)


train_lod()  # scaffolding
_report({"jit(train_step)"}, N_CALLS)
