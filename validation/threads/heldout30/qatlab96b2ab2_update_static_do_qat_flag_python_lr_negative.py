# source: https://github.com/stefan-lafon/jax-experiments/blob/96b2ab2548cace7382da378883858cc636e70d53/notebooks/03_Simple_QAT_in_JAX.ipynb
# expect: none
# runtime: COMPILES 2 CALLS 80
# why: update is jitted with the do_qat flag static; the loop alternates False and True, which compiles one version per flag (2 compiles) and reuses them, and the Python-float learning rate that drops 10x after 75% of the steps is traced, so no further compiles for 80 calls.
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
# cell 1
# @title 1. STE
import jax
import jax.numpy as jnp
from jax import grad, jit, vmap, random
from functools import partial

@jax.custom_vjp
def quantize(x, bits=4):
    q_max = 2**bits - 1
    # assuming x is pre-scaled to [0, 1] for this part
    return jnp.round(x * q_max) / q_max

def quantize_fwd(x, bits):
    return quantize(x, bits), None

def quantize_bwd(res, g):
    return g, None

quantize.defvjp(quantize_fwd, quantize_bwd)
# cell 2
# @title 2. Model and loss
def init_params(layers, key):
    keys = random.split(key, len(layers))
    return [(random.normal(k, (m, n)) * jnp.sqrt(2/m), jnp.zeros(n))
            for k, (m, n) in zip(keys, zip(layers[:-1], layers[1:]))]

def predict(params, x, do_qat=False, bits=4):
    for i, (w, b) in enumerate(params):
        if do_qat:
            # Scale to [-1, 1] then shift to [0, 1] for the quantizer
            scale = jnp.max(jnp.abs(w)) + 1e-8
            w_q = (quantize((w / scale + 1.0) / 2.0, bits) * 2.0 - 1.0) * scale
        else:
            w_q = w

        x = jnp.dot(x, w_q) + b
        if i < len(params) - 1: x = jax.nn.relu(x)
    return x

def loss_fn(params, x, y, do_qat):
    return jnp.mean((predict(params, x, do_qat) - y)**2)

@partial(jit, static_argnums=(4,))
def update(params, x, y, lr, do_qat):
    grads = grad(loss_fn)(params, x, y, do_qat)
    return [(w - lr * dw, b - lr * db) for (w, b), (dw, db) in zip(params, grads)]
# cell 3
# @title 3. Model training, PTQ and QAT
# 1. Setup
key = random.PRNGKey(42)
x_train = random.normal(key, (1000, 2))
y_train = jnp.sin(x_train[:, :1])

params_a = init_params([2, 64, 64, 1], key)
params_b = init_params([2, 64, 64, 1], key)

# 2. Training with LR Decay
# We start high to move fast, then drop to settle the quantized weights.
total_steps = 40  # scaffolding: 5000 steps in the notebook
initial_lr = 0.02

print("Training models...")
for i in range(total_steps):
    # Simple decay: drop LR by 10x after 75% of training
    current_lr = initial_lr if i < (total_steps * 0.75) else initial_lr * 0.1

    params_a = update(params_a, x_train, y_train, current_lr, False)
    params_b = update(params_b, x_train, y_train, current_lr, True)

# 3. PTQ: Rounding the FP32 model after it's fully trained
def apply_ptq(params, bits=4):
    p_out = []
    for w, b in params:
        s = jnp.max(jnp.abs(w)) + 1e-8
        wq = (quantize((w / s + 1.0) / 2.0, bits) * 2.0 - 1.0) * s
        p_out.append((wq, b))
    return p_out

params_ptq = apply_ptq(params_a)

# 4. Results
print("\n" + "="*30)
print(f"FP32 Baseline: {loss_fn(params_a, x_train, y_train, False):.6f}")
print(f"PTQ (4-bit):   {loss_fn(params_ptq, x_train, y_train, False):.6f} (Broken)")
print(f"QAT (4-bit):   {loss_fn(params_b, x_train, y_train, True):.6f} (Recovered!)")
print("="*30)
# scaffolding: cell 4 (matplotlib plots) is cut
_report({"jit(update)"}, 2 * total_steps)  # scaffolding
