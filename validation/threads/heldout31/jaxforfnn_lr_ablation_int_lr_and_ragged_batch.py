# source: https://github.com/Ashish720-alt/JAXforFNN/blob/c32c4fcce92e4684bd1f11e8dab9bf8912c82b8b/training.py
# expect: shape-churn at line 358
# runtime: COMPILES 4 CALLS 6
# why: The jitted update(params, x, y, lr) is fed load_dataset's batches, whose last batch is smaller (no drop), and lr_ablation's first learning rate is the int 1 and the next the float 0.1, so update compiles for the full and the ragged batch shape and again for both once lr turns from int to float.

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
from jax import grad, jit
import jax.numpy as jnp
import numpy as np
from typing import Tuple


class conf:  # scaffolding: config.py (MAX_EPOCHS cut from 1000 to 1)
    DEBUG_MODE = False
    LR_ABLATION_MODE = False
    LR = 1e-1
    MAX_EPOCHS = 1
    BATCH_SIZE = 128
    METRIC = "val_loss"
    LOSS_PATIENCE = 5
    LOSS_MIN_DELTA = 5*1e-4
    QAT_ENABLE = True
    W_BITS = 8
    A_BITS = 8


def _stand_in_mnist():  # scaffolding: random data with MNIST's dtypes and image shape
    rng = np.random.default_rng(0)
    return ((rng.integers(0, 256, (300, 28, 28), dtype=np.uint8), rng.integers(0, 10, 300)),
            (rng.integers(0, 256, (100, 28, 28), dtype=np.uint8), rng.integers(0, 10, 100)))


# --------- Straight-Through Estimator (STE) helpers ---------
def _ste_round(x: jnp.ndarray) -> jnp.ndarray: #This is basically the approximation for differentiating round function
    # Forward: round(x); Backward: 1 (like identity)
    return x + jax.lax.stop_gradient(jnp.round(x) - x)





'''
Intended behavior:
    Forward value: clip(x, lo, hi).
    Backward gradient:
    1 where lo < x < hi (inside the range),
    0 where x ≤ lo or x ≥ hi (saturated).

Example:
    Let x = [ -2.0, -0.5, 0.3, 1.7 ], lo = -1, hi = 1.
    clipped = [ -1.0, -0.5, 0.3, 1.0 ]
    Return: x + stop_grad(clipped - x) → forward equals clipped
    Gradients: pass through (1) for -0.5 and 0.3; zero for -2.0 and 1.7.
'''
def _ste_clip(x: jnp.ndarray, lo: float, hi: float) -> jnp.ndarray: #This is basically the approximation for differentiating clip function
    # Forward: clip; Backward: pass gradients inside range, zero outside
    clipped = jnp.clip(x, lo, hi)
    return x + jax.lax.stop_gradient(clipped - x)





# --------- Fake quant (QAT) used during training ---------
def fake_quantize(x: jnp.ndarray, num_bits: int = 8, eps: float = 1e-12) -> jnp.ndarray:
    """
    Symmetric per-tensor fake quantization to int8-ish range with STE.
    Forward: x_q = scale * round(clip(x/scale))
    Backward: STE lets grads flow.
    """
    qmin = -(2 ** (num_bits - 1))
    qmax =  (2 ** (num_bits - 1)) - 1

    max_abs = jnp.max(jnp.abs(x))
    scale  = jnp.where(max_abs < eps, jnp.array(1.0, x.dtype), max_abs / qmax)
    
    '''jnp.where(condition, x, y) is a vectorized if-else. 
            Input: condition: boolean array (or scalar) ; x, y: arrays (or scalars) of compatible shape 
            For each element: If condition[i] is True, take x[i]. Else, take y[i]
    This case: 
            Here max_abs < eps is a scalar boolean. 
            If it's True → scale = 1.0 
            If it's False → scale = max_abs / qmax
            This avoids dividing by 0 when all elements in x are tiny.
    '''
    
    y = x / scale 
    y = _ste_clip(y, qmin, qmax) #This is clip and round, but we use _ste_clip and _ste_round to tell jax how to compute gradients for this!
    y = _ste_round(y)
    x_q = y * scale
    return x_q

# --------- Export-time real quantization (int arrays + scales) ---------


def init_params(key, layer_sizes):
    """
    Initialize weights and biases for a feedforward NN.
    Xavier/He initialization used.
    """
    params = []
    keys = jax.random.split(key, len(layer_sizes) - 1) 
    
    '''
    JAX doesn’t let you “re-use” the same random key — every random op consumes entropy. To keep randomness reproducible (and parallelizable), 
    you must split keys.
    Example:
    key = jax.random.PRNGKey(42)       # master seed
    key1, key2, key3 = jax.random.split(key, 3)   # split into 3 new independent keys
    Each keyX is another PRNGKey you can pass into random functions.
    So in your code: You need 3 layers → 3 sets of random weights → 3 independent keys.
    '''
    
    for m, n, k in zip(layer_sizes[:-1], layer_sizes[1:], keys): #zip combines multiple lists element by element.
        W = jax.random.normal(k, (m, n)) * jnp.sqrt(2.0 / m)
        '''
        random.normal(k, shape) generates random numbers from a standard normal distribution (mean=0, std=1) using random key k.
        shape=(m, n) makes it a 2D matrix.
        Then multiplying by jnp.sqrt(2.0/m) scales the variance (He initialization).
        '''
        b = jnp.zeros(n)
        params.append((W, b))
    return params


def tanh_activation (activations):
    return jnp.tanh(activations)

def RELU_activation (activations):
    return jnp.maximum(activations, 0)

def _linear_qat(x, W, b):
    if conf.QAT_ENABLE:
        x = fake_quantize(x, conf.A_BITS)     # quantize activations in
        W = fake_quantize(W, conf.W_BITS)     # quantize weights
        y = jnp.dot(x, W) + b
        y = fake_quantize(y, conf.A_BITS)     # quantize activations out
        return y
    else:
        return jnp.dot(x, W) + b

#Recall params is a list of (W,b) pairs for each layer; x is a set of batch_size datapoint inputs so array of dimension batch_size*28*28
def forward(params, x):
    """
    Forward pass through the NN.
    """
    activations = x.reshape(-1, 28*28)  #x.reshape(-1, 28*28) → reshape (batch_size, 28, 28) into (batch_size, 784) so each row is one flattened image. By default, .reshape() uses row-major (C-style) order
    for W, b in params[:-1]:
        activations = _linear_qat(activations, W, b) #Q(W)*Q(x) + Q(b)
        activations = tanh_activation(activations) #tanh nonlinear activation
        # activations = RELU_activation(activations) #RELU nonlinear activation
        if conf.QAT_ENABLE:
            activations = fake_quantize(activations, conf.A_BITS)
    W, b = params[-1]
    logits = _linear_qat(activations, W, b)  #No activation applied to final layer, because softmax is applied later in loss_fn
    return logits

def loss_fn(params, x, y):
    """
    Cross-entropy loss.
    """
    logits = forward(params, x) #Basically with the weights given in params and dataset of size 'batch_size' what is output?
    labels = jax.nn.one_hot(y, 10) 
    '''Eg: If y = [2, 0, 9], then
    [[0,0,1,0,0,0,0,0,0,0],
    [1,0,0,0,0,0,0,0,0,0],
    [0,0,0,0,0,0,0,0,0,1]]
    '''
    loss = -jnp.mean(jnp.sum(labels * jax.nn.log_softmax(logits), axis=1))
    '''
    (log of softmax outputs value in range (-inf, 0))!
    Cross-entropy loss:
        L = - (1/N) * sum_{i=1}^N log( p_theta(y_i | x_i) )
        where:
        N = batch size
        y_i = true class label for example i
        p_theta(y_i | x_i) = predicted probability (softmax) of the true class
    
    Compute log of softmax of the unactivated output. Then multiply with labels, where multiply is element wise multiplication of each correspoinding
    datapoint. As labels is a one-shot vector, this simply picks the log of softmax of correct label and outputs 0 for the other entries, then the sum
    just returns the log of softmax of the correct label. Then the mean takes the mean over the batch_size datatpoints.
    '''
    return loss

def accuracy(params, x, y):
    """
    Compute accuracy.
    """
    preds = jnp.argmax(forward(params, x), axis=1) #So here no need for softmax, as you are taking argmax either way.
    return jnp.mean(preds == y) #Basically sum of 0-1 erros on each datapoint


def load_dataset(split, batch_size=128, shuffle=True):
    '''
    MNIST = Modified National Institute of Standards and Technology dataset. It's the “Hello World” dataset for machine learning.
    It contains 70,000 grayscale images of handwritten digits 0-9: 60,000 training examples and 10,000 testing examples.
    Each image:
    Size = 28 * 28 pixels, and each pixel is just 1D i.e. an integer from 0 to 255
    Values = integers 0-255 (pixel intensity, 0 = black, 255 = white).
    Each label:
    An integer 0-9, telling which digit the image is.
    '''


    (x_train, y_train), (x_test, y_test) = _stand_in_mnist()  # scaffolding: mnist.load_data() (tensorflow.keras)
    '''x_train is a numpy array of 60,000 elements, where each element is a 2d numpy of 28*28 elements from 0-255.
       y_train is a numpy array of 60,000 elements, where each element is a digit from 0-9.
       x_test, y_test are similar but havee 10,000 elements instead of 60,000.
        '''

    if split == "train":
        data = (x_train, y_train)
    else:
        data = (x_test, y_test)

    images, labels = data
    images = images.astype(np.float32) / 255.0 - 0.5 # Type converts each element from uint8 to float32, then normalizes by dividing by 255.0 and -0.5 is mean-centre

    # yield in mini-batches; describe yield function TODO: Understand yield function!
    n = len(images)
    idxs = np.arange(n)
    if shuffle:
        np.random.shuffle(idxs)

    for i in range(0, n, batch_size):
        batch_idx = idxs[i:i+batch_size]
        yield images[batch_idx], labels[batch_idx]


#One gradient descent update step.    
@jit
def update(params, x, y, lr):
    '''
    JAX grad explained:

    - grad is JAX's automatic differentiation function.
    - You give it a Python function (e.g. loss_fn) and it returns another function
    that computes the gradient w.r.t. the first argument of the loss_fn i.e. params.

    So:
        grad(loss_fn)          -> new function f(params, x, y) = ∂loss_fn/∂params
        grad(loss_fn)(params, x, y)  -> evaluates ∂loss_fn/∂params(params, x, y) internally.

    - In our code, params is not a single array.
    It is a PyTree (JAX's term for nested structures of arrays), here:
        [(W1, b1), (W2, b2), (W3, b3), ...]
    where each Wi and bi are JAX arrays.

    - JAX is PyTree-aware:
    grad walks through every leaf array in params, computes ∂loss/∂Wi and ∂loss/∂bi,
    and returns the gradients in the same structure:
        [(dW1, db1), (dW2, db2), (dW3, db3), ...]

    - Each dWi and dbi has the same shape as Wi and bi, so zip(params, grads)
    lines them up perfectly for the update step.
    '''

    '''
    Understanding grad(loss_fn) in our 3-layer FNN:

    1. Forward pass we coded:
    - Hidden layers: h = tanh(Wx + b)
    - Final layer:   z = W h + b   (logits, no activation here)
    - Loss:          cross-entropy with softmax (via log_softmax)

    So the network is: affine → tanh → affine → tanh → affine → softmax → CE loss.

    2. What grad(loss_fn) does:
    - JAX traces all ops inside loss_fn (dot products, tanh, log_softmax, mean).
    - It applies the chain rule (reverse-mode autodiff) to compute:
        ∂L/∂Wi , ∂L/∂bi   for every layer i
    - You don't write backprop manually — JAX builds it automatically.

    Example chain:
        dL/dz   = softmax(z) - y
        dL/dW3  = h2^T · dL/dz
        dL/db3  = dL/dz
        dL/dh2  = (dL/dz) · W3^T
        dL/du2  = dL/dh2 ⊙ (1 - tanh^2(u2))
        etc. (back to W2,b2 and W1,b1)

    3. Does JAX assume tanh + softmax?
    - No. JAX only differentiates the exact operations you code in loss_fn.
    - In our case, we wrote tanh + log_softmax, so grad follows that.
    - If we swapped tanh → relu or CE → MSE, grad would propagate through
        those instead (no extra changes needed).

    In plain words:
    JAX does not assume softmax or cross-entropy — it just applies the chain rule
    through whatever functions you coded. In our FNN, that happens to be
    tanh hidden layers and softmax + cross-entropy at the output.
    '''

    
    grads = grad(loss_fn)(params, x, y)
    new_params = [(W - lr*dW, b - lr*db)
                  for (W, b), (dW, db) in zip(params, grads)]
    return new_params


def _clone_params(params):
    # Deep-copy a PyTree of arrays so "best" isn’t mutated by future updates
    return jax.tree_util.tree_map(lambda a: jnp.array(a, copy=True), params)

def _eval_on_dataset(params, split, batch_size=128):
    """
    Compute average loss & accuracy over the dataset split.
    Recreates the generator each call to avoid exhaustion.
    """
    losses = []
    accs = []
    for x, y in load_dataset(split, batch_size=batch_size, shuffle=False):
        # loss
        l = loss_fn(params, x, y)
        losses.append(np.array(l))  # move to host for numeric ops
        # accuracy
        a = accuracy(params, x, y)
        accs.append(np.array(a))
    if len(losses) == 0:
        return np.nan, np.nan
    return float(np.mean(losses)), float(np.mean(accs))



#lr is the learning rate
def train(params, lr=conf.LR, epochs=conf.MAX_EPOCHS, batch_size=conf.BATCH_SIZE, patience=conf.LOSS_PATIENCE, min_delta=conf.LOSS_MIN_DELTA, monitor=conf.METRIC):
    best_params = _clone_params(params)
    best_metric = np.inf if monitor == "val_loss" else -np.inf
    epochs_without_improvement = 0

    epoch = 1
    while (epoch < epochs + 1):
        # ---- Training epoch (fresh generator) ----
        for x, y in load_dataset("train", batch_size=batch_size, shuffle=True):
            params = update(params, x, y, lr)

        # ---- Validation / early-stopping metrics ----
        val_loss, val_acc = _eval_on_dataset(params, split="test", batch_size=batch_size)

        # Console log too
        print(f"Epoch {epoch:02d} | val_loss: {val_loss:.6f} | val_acc: {val_acc:.4f}")

        # ---- Check improvement ----
        if monitor == "val_loss":
            improved = (best_metric - val_loss) > min_delta
            current = val_loss
        else:  # monitor == "val_acc"
            improved = (val_acc - best_metric) > min_delta
            current = val_acc

        if improved:
            best_metric = current
            best_params = _clone_params(params)
            epochs_without_improvement = 0
        else:
            epochs_without_improvement += 1

        # ---- Early stop? ----
        if epochs_without_improvement >= patience:
            print(f"Early stopping at epoch {epoch} (no {monitor} improvement for {patience} epochs).")
            break

        epoch+=1

    return best_params, best_metric, epoch


def lr_ablation():
    # Recall to set conf.QAT_ENABLE
    def clone_params(p):
        # make brand-new arrays so nothing is aliased
        return jax.tree_util.tree_map(lambda a: jnp.array(a, copy=True), p)

    key = jax.random.PRNGKey(42) 
    layer_sizes = [784, 256, 128, 10]  
    params0 = init_params(key, layer_sizes)
    graph_vals = {}
    
    for learn_rate in [1, 1e-1, 1e-2, 1e-3, 1e-4][:2]:  # scaffolding: first 2 rates
        print(f"\n\nLearn rate is {learn_rate}.\n")
        params = clone_params(params0)
        # NOTE: now we assume train returns (params, best_val_loss, epochs)
        _, best_val_loss, epochs = train(params, lr=learn_rate, epochs=conf.MAX_EPOCHS)
        graph_vals[learn_rate] = (best_val_loss, epochs)
    return graph_vals  # scaffolding (printing and plotting cut)


graph_vals = lr_ablation()  # scaffolding
_report({"jit(update)"}, 2 * 3)  # 2 learning rates x 3 batches (128, 128, 44)
